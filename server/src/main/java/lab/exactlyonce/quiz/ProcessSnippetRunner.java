package lab.exactlyonce.quiz;

import lab.exactlyonce.sandbox.engine.Outcome;
import lab.exactlyonce.sandbox.engine.RunResult;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Runs a lesson snippet in a fresh JVM ({@code java File.java}), one at a time. Only for the lesson's own snippets
 * (trusted content, never learner input), when no sandbox is wired: the real program prints the real output.
 */
public final class ProcessSnippetRunner implements SnippetRunner, AutoCloseable {
  private static final Pattern CLASS = Pattern.compile("public\\s+class\\s+([A-Za-z_][A-Za-z0-9_]*)");
  private static final long TIMEOUT_SECONDS = 60;
  private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "quiz-snippet-runner");
    t.setDaemon(true);
    return t;
  });

  @Override
  public CompletableFuture<RunResult> run(String source) {
    return CompletableFuture.supplyAsync(() -> runNow(source), executor);
  }

  private RunResult runNow(String source) {
    long started = System.nanoTime();
    Matcher m = CLASS.matcher(source);
    if (!m.find()) return new RunResult(Outcome.REJECTED, "", "no public class in the snippet", List.of(), 0);
    Path dir = null;
    try {
      dir = Files.createTempDirectory("eolab-quiz-run");
      Path file = dir.resolve(m.group(1) + ".java");
      Files.writeString(file, source, StandardCharsets.UTF_8);
      Path java = Path.of(System.getProperty("java.home"), "bin", "java");
      Process process = new ProcessBuilder(java.toString(), "-Xmx128m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
          "-Xshare:auto", file.toString()).directory(dir.toFile()).redirectErrorStream(false).start();
      process.getOutputStream().close();
      CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
      CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return new RunResult(Outcome.TIMEOUT, "", "", List.of(), elapsed(started));
      }
      Outcome outcome = process.exitValue() == 0 ? Outcome.OK : Outcome.RUNTIME_ERROR;
      return new RunResult(outcome, out.join(), err.join(), List.of(), elapsed(started));
    } catch (IOException e) {
      return new RunResult(Outcome.INTERNAL_ERROR, "", e.toString(), List.of(), elapsed(started));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new RunResult(Outcome.INTERNAL_ERROR, "", "interrupted", List.of(), elapsed(started));
    } finally {
      if (dir != null) delete(dir);
    }
  }

  private static String read(java.io.InputStream in) {
    try (in) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }

  private static long elapsed(long started) {
    return (System.nanoTime() - started) / 1_000_000;
  }

  private static void delete(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException ignored) {
      // a temp folder left behind is harmless
    }
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
