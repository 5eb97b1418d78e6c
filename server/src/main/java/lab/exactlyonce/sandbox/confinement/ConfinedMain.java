package lab.exactlyonce.sandbox.confinement;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The entry point of a confined JVM whose own main knows nothing of confinement (the engine lab's, built apart from
 * the app): confines this JVM as its launcher asked ({@link SelfConfinement}), then runs the named main class with
 * the remaining arguments. With {@code --status} instead of a class it prints what the kernel says of it
 * ({@code Uid}, {@code NoNewPrivs}, {@code Seccomp} and its network namespace) on one line and ends: the check a
 * launcher must pass before the engines are started through it.
 */
public final class ConfinedMain {
  static final String STATUS = "--status";

  private ConfinedMain() {
  }

  public static void main(String[] args) throws Throwable {
    if (args.length == 0) throw new IllegalArgumentException("usage: ConfinedMain (MAIN-CLASS [ARGS...] | --status)");
    SelfConfinement.applyIfAsked();
    if (args[0].equals(STATUS)) {
      System.out.println(status());
      return;
    }
    Class<?> main = Class.forName(args[0], true, ClassLoader.getSystemClassLoader());
    try {
      main.getMethod("main", String[].class).invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  /** Such as {@code Uid 65000 NoNewPrivs 1 Seccomp 2 net net:[4026532290]}. */
  static String status() throws IOException {
    var status = ConfinementProbe.status(Path.of("/proc/self/status"));
    var out = new StringBuilder();
    for (String key : List.of("Uid", "NoNewPrivs", "Seccomp")) {
      out.append(key).append(' ').append(status.get(key)).append(' ');
    }
    return out.append("net ").append(Files.readSymbolicLink(Path.of("/proc/self/ns/net"))).toString();
  }
}
