package lab.exactlyonce.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * How soon the README's run command answers: starts {@code java -jar target/exactly-once-lab.jar} again and again,
 * each time on a fresh data dir, and times from the launch to the first 200 from {@code /healthz}, then to the
 * sandbox's workers warm and the engine lab's engines warm (both done after the page is served). Prints each start
 * and the medians.
 *
 * <pre>
 * mvn -q -B package -DskipTests
 * mvn -q -B test-compile exec:exec -Dexec.args="-cp %classpath lab.exactlyonce.bench.LaunchBenchmark --starts 5"
 * </pre>
 *
 * Options: {@code --starts N} (5), {@code --jar PATH} ({@code target/exactly-once-lab.jar}), {@code --healthz-only}
 * (stop each start at its first answer, for comparing builds); anything after
 * {@code --} is passed to the app, such as {@code -- --engine-lab off}.
 */
public final class LaunchBenchmark {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** How often the poller asks: the figure is this much later than the truth at most. */
  private static final Duration POLL = Duration.ofMillis(20);
  private static final Duration GIVE_UP = Duration.ofSeconds(180);

  private LaunchBenchmark() {}

  /** One start's times from the launch, and the CPU its JVM had used at the first answer (load-independent). */
  private record Start(double healthzMs, double cpuAtHealthzMs, double workersReadyMs, double enginesWarmMs) {}

  public static void main(String[] args) throws Exception {
    int starts = 5;
    boolean healthzOnly = false;
    Path jar = Path.of("target", "exactly-once-lab.jar");
    List<String> appArgs = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--starts" -> starts = Integer.parseInt(args[++i]);
        case "--jar" -> jar = Path.of(args[++i]);
        case "--healthz-only" -> healthzOnly = true;
        case "--" -> {
          appArgs.addAll(Arrays.asList(args).subList(i + 1, args.length));
          i = args.length;
        }
        default -> throw new IllegalArgumentException("unknown option " + args[i]
            + "; known: --starts, --jar, --healthz-only, --");
      }
    }
    if (!Files.isRegularFile(jar)) throw new IllegalStateException(jar + " is missing: mvn -q -B package -DskipTests");
    System.out.printf(Locale.ROOT, "%d cores, load average %s%n", Runtime.getRuntime().availableProcessors(),
        Files.readString(Path.of("/proc/loadavg")).strip());
    List<Start> all = new ArrayList<>();
    for (int i = 0; i < starts; i++) {
      Start s = once(jar, appArgs, healthzOnly);
      all.add(s);
      System.out.printf(Locale.ROOT, "start %d: /healthz 200 after %.0f ms (the app's JVM had used %.0f ms of CPU);"
          + " workers warm after %.0f ms; engines warm after %s%n", i + 1, s.healthzMs(), s.cpuAtHealthzMs(),
          s.workersReadyMs(),
          s.enginesWarmMs() < 0 ? "- (lab off)" : String.format(Locale.ROOT, "%.0f ms", s.enginesWarmMs()));
    }
    System.out.printf(Locale.ROOT, "median of %d: /healthz %.0f ms (CPU %.0f ms), workers warm %.0f ms, engines warm"
        + " %s%n", starts, median(all, Start::healthzMs), median(all, Start::cpuAtHealthzMs),
        median(all, Start::workersReadyMs),
        all.get(0).enginesWarmMs() < 0 ? "-"
            : String.format(Locale.ROOT, "%.0f ms", median(all, Start::enginesWarmMs)));
  }

  private static Start once(Path jar, List<String> appArgs, boolean healthzOnly) throws Exception {
    Path data = Files.createTempDirectory("eolab-launch-bench");
    int port;
    try (ServerSocket probe = new ServerSocket(0)) {
      port = probe.getLocalPort();
    }
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-jar", jar.toString(), "--port", String.valueOf(port), "--data-dir", data.toString()));
    command.addAll(appArgs);
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    HttpRequest health = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/healthz"))
        .timeout(Duration.ofSeconds(5)).build();
    long launched = System.nanoTime();
    Process app = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(data.resolve("app.log").toFile()).start();
    double healthz = -1;
    double cpu = -1;
    double workers = -1;
    double engines = -1;
    try {
      while (System.nanoTime() - launched < GIVE_UP.toNanos()) {
        if (!app.isAlive()) {
          throw new IllegalStateException("the app ended: " + Files.readString(data.resolve("app.log")));
        }
        JsonNode body = healthOrNull(http, health);
        double now = (System.nanoTime() - launched) / 1e6;
        if (body != null) {
          if (healthz < 0) {
            healthz = now;
            cpu = cpuMillis(app.pid());
          }
          // a build from before /healthz said how warm it is, or only the first answer asked for
          if (healthzOnly || !body.has("sandboxWorkers")) break;
          if (workers < 0 && body.path("sandboxWorkers").asText().equals("ready")) workers = now;
          String lab = body.path("engineLab").asText();
          if (engines < 0 && lab.equals("warm")) engines = now;
          if (workers >= 0 && (engines >= 0 || lab.equals("off"))) break;
        }
        Thread.sleep(POLL.toMillis());
      }
      if (healthz < 0) throw new IllegalStateException("no answer from /healthz within " + GIVE_UP);
      return new Start(healthz, cpu, workers, engines);
    } finally {
      app.destroy();
      if (!app.waitFor(30, TimeUnit.SECONDS)) app.destroyForcibly().waitFor();
      deleteTree(data);
    }
  }

  private static JsonNode healthOrNull(HttpClient http, HttpRequest health) throws InterruptedException {
    try {
      HttpResponse<String> res = http.send(health, HttpResponse.BodyHandlers.ofString());
      return res.statusCode() == 200 ? JSON.readTree(res.body()) : null;
    } catch (IOException e) {
      return null; // not listening yet
    }
  }

  /** User plus system CPU time of process {@code pid} so far, from {@code /proc/<pid>/stat} (100 ticks a second). */
  private static double cpuMillis(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10.0;
  }

  private static double median(List<Start> all, java.util.function.ToDoubleFunction<Start> field) {
    double[] sorted = all.stream().mapToDouble(field).sorted().toArray();
    return sorted[sorted.length / 2];
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    }
  }
}
