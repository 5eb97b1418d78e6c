package lab.exactlyonce;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a person who starts the app reads: a few plain lines saying what runs where, and nothing else (no library
 * banners, no log lines), from the real {@code Main} in a process of its own, as the README's command runs it.
 */
@Tag("sandbox")
class StartupOutputTest {

  @Test
  void the_start_says_in_four_plain_lines_what_runs_where_and_nothing_else() throws Exception {
    Path data = Files.createTempDirectory("eolab-startup");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder builder = new ProcessBuilder(java, TestJvm.C1_ONLY, "-Xmx256m", "-cp",
        System.getProperty("java.class.path"), "lab.exactlyonce.Main", "--host", "127.0.0.1", "--port", "0",
        "--data-dir", data.toString(), "--sandbox-workers", "1", "--sandbox-spare-workers", "0",
        "--engine-lab-jar", data.resolve("no-engine-lab.jar").toString()).redirectErrorStream(true);
    builder.environment().remove("ENGINE_LAB"); // the default, auto: the lab is off for want of its jar
    Process app = builder.start();
    List<String> output = new ArrayList<>();
    CompletableFuture<Void> fourLines = new CompletableFuture<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader out = new BufferedReader(new InputStreamReader(app.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = out.readLine(); line != null; line = out.readLine()) {
          synchronized (output) {
            output.add(line);
            if (output.size() == 4) fourLines.complete(null);
          }
        }
      } catch (Exception e) {
        fourLines.completeExceptionally(e);
      }
      fourLines.complete(null);
    }, "startup-output");
    reader.start();
    try {
      fourLines.get(90, TimeUnit.SECONDS);
    } finally {
      app.toHandle().destroy(); // SIGTERM, leaving its output open (Process.destroy closes it): two lines follow
      assertTrue(app.waitFor(60, TimeUnit.SECONDS), "the app stops");
      reader.join(10_000);
    }
    List<String> lines;
    synchronized (output) {
      lines = List.copyOf(output);
    }
    assertEquals(6, lines.size(), "exit " + app.exitValue() + ":\n" + String.join("\n", lines));
    assertTrue(TestServer.SERVING.matcher(lines.get(0)).matches(), lines.get(0));
    assertEquals("An instructor secret was generated into " + data.toAbsolutePath().resolve("instructor-secret")
        + " (readable by this user only); sign in at /teach with its contents", lines.get(1));
    assertTrue(lines.get(2).matches("Sandbox: 1 worker, confinement (hardened|contained|network|none) \\(.+\\)"
        + ", warming up(; missing for hardened: .+)?"), lines.get(2));
    assertEquals("Engine lab: off, its jar " + data.resolve("no-engine-lab.jar") + " is not built; build it with"
        + " mvn -q -B package -DskipTests (from the project's folder), or name it with --engine-lab-jar", lines.get(3));
    assertEquals(List.of("Exactly-Once Lab is stopping: finishing requests in flight, then closing",
        "Exactly-Once Lab has stopped"), lines.subList(4, 6));
  }
}
