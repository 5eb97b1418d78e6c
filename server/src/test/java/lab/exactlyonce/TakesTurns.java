package lab.exactlyonce;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Test classes with the same name here run one at a time across all test JVMs (a file lock under {@code target/}),
 * for classes that each start something too heavy to share two cores with its like: two engine-lab JVMs (a Kafka
 * broker and a Flink cluster each) side by side made a warm run, 5 s alone, take past a minute.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(TakesTurns.Turn.class)
public @interface TakesTurns {
  String value();

  /** Holds the lock from before the class's first lifecycle method until after its last. */
  final class Turn implements BeforeAllCallback, AfterAllCallback {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(Turn.class);

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
      String name = context.getRequiredTestClass().getAnnotation(TakesTurns.class).value();
      Path file = Files.createDirectories(Path.of("target", "test-turns")).resolve(name + ".lock");
      FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock = channel.lock();
      context.getStore(NS).put("lock", lock);
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
      FileLock lock = context.getStore(NS).remove("lock", FileLock.class);
      if (lock != null) lock.acquiredBy().close();
    }
  }
}
