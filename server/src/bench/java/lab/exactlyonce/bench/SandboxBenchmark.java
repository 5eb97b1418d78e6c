package lab.exactlyonce.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import lab.exactlyonce.App;
import lab.exactlyonce.Config;
import lab.exactlyonce.sandbox.Sandbox;
import lab.exactlyonce.store.StoreSettings;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Measures {@code POST /api/run} end to end over real HTTP against the app started in this process (the runs
 * execute in its worker JVMs): the first 100 runs after the start; both demos, changed as a learner would, at
 * concurrency 1 and 32 (32 students, each its own 127.0.0.x source address); the unchanged sink demo at 32 (answered
 * from the runs at the server's start); a benign run's latency at idle and while 20 other students keep infinite
 * loops in flight; then, in the same run, the javac in-memory route and a fresh {@code java Snippet.java} per run.
 * Prints a Markdown table; then what OS confinement costs ({@link ConfinementComparison}: worker warm-up and run
 * latency with the best confinement against none). {@code --confinement-only} measures just that.
 *
 * <pre>mvn -q -B test-compile exec:exec -Dexec.args="-cp %classpath lab.exactlyonce.bench.SandboxBenchmark [--quick]
 *     [--confinement-only] [--sandbox-... flags]"</pre>
 */
public final class SandboxBenchmark {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String LOOP = "public class Spin {\n  public static void main(String[] args) {\n"
      + "    while (true) {}\n  }\n}\n";

  private final int port;
  private final boolean quick;
  private final List<String> rows = new ArrayList<>();

  private SandboxBenchmark(int port, boolean quick) {
    this.port = port;
    this.quick = quick;
  }

  record Demo(String id, String source, String expected) {}

  public static void main(String[] args) throws Exception {
    boolean quick = Arrays.asList(args).contains("--quick");
    boolean confinementOnly = Arrays.asList(args).contains("--confinement-only");
    String[] sandboxArgs = Arrays.stream(args).filter(a -> !a.equals("--quick") && !a.equals("--confinement-only"))
        .toArray(String[]::new);
    Config flags = Config.from(sandboxArgs, Map.of());
    Config config = new Config("127.0.0.1", 0, Files.createTempDirectory("eolab-bench"), Optional.empty(),
        Optional.empty(), flags.sandbox(), StoreSettings.embedded(), flags.classroom(),
        flags.share(), flags.ops());
    App app = new App(config);
    long startAt = System.nanoTime();
    app.start();
    double appStartMs = (System.nanoTime() - startAt) / 1e6;
    Demo sink;
    try {
      long start = System.nanoTime();
      Sandbox sandbox = (Sandbox) app.sandbox(); // App(Config) runs the real one
      if (!sandbox.awaitReady(Duration.ofSeconds(120))) throw new IllegalStateException("workers not ready");
      System.out.printf(Locale.ROOT, "workers ready in %d ms; %s%n", (System.nanoTime() - start) / 1_000_000,
          sandbox.confinement());
      app.warmedUp().get(120, TimeUnit.SECONDS);
      System.out.printf(Locale.ROOT, "the shipped snippets' runs at the start were over %d ms after it%n",
          (System.nanoTime() - startAt) / 1_000_000);
      var benchmark = new SandboxBenchmark(app.port(), quick);
      sink = benchmark.demo("sink-demo");
      if (!confinementOnly) benchmark.run(config);
    } finally {
      app.stop();
    }
    // with the app's workers gone, so that they do not share the cores with what is measured
    ConfinementComparison.print(sink.source(), sink.expected(), config.sandbox(), quick ? 4 : 8, quick ? 100 : 200,
        appStartMs);
  }

  private void run(Config config) throws Exception {
    Demo sink = demo("sink-demo");
    Demo txn = demo("txn-dedupe-demo");
    int sequential = quick ? 100 : 400;
    int perClient = quick ? 15 : 40;

    // A class's first presses after a start: the demo as shipped, answered from the runs at the start through the
    // server's still cold HTTP path; then a changed copy, new to the workers, whose classes (fresh each run) the JIT
    // never sees twice.
    Stats firstShipped100 = sequential(shipped("sink-demo"), 100, "127.0.0.4");
    List<JsonNode> firstTimings = new ArrayList<>();
    Stats first100 = sequential(sink, 100, "127.0.0.5", firstTimings);

    // Steady state, as a server that has served a class is: the JIT needs a few thousand requests to finish with the
    // server's HTTP and JSON path and each worker's run path (fewer leave both a millisecond or more slower).
    System.out.println("warming up...");
    sequential(sink, quick ? 600 : 1500, "127.0.0.1");
    sequential(txn, quick ? 300 : 600, "127.0.0.1");
    concurrent(sink, 32, quick ? 15 : 30);

    List<JsonNode> sinkTimings = new ArrayList<>();
    Stats sink1 = sequential(sink, sequential, "127.0.0.1", sinkTimings);
    Stats worker1 = timingStats(sinkTimings, "workerMs");
    Stats roundTrip1 = timingStats(sinkTimings, "roundTripMs");
    Stats queue1 = timingStats(sinkTimings, "queueMs");
    Stats txn1 = sequential(txn, sequential, "127.0.0.1");
    Stats sink32 = concurrent(sink, 32, perClient);
    Stats txn32 = concurrent(txn, 32, perClient);
    Stats idle = sequential(sink, sequential / 2, "127.0.0.2");
    Stats[] underLoops = underLoops(sink, 20, sequential / 2);
    Stats shipped32 = concurrent(shipped("sink-demo"), 32, perClient);
    Stats checks = exerciseChecks(quick ? 20 : 60);
    Stats javac = BaselineRoutes.javacInMemory(sink, quick ? 30 : 60);
    Stats fresh = BaselineRoutes.freshJvm(sink, quick ? 4 : 8);

    var s = config.sandbox();
    System.out.println();
    System.out.printf(Locale.ROOT, "Sandbox benchmark: %d cores, load average %.1f at the end; %d workers (-Xmx%s%s), "
            + "CPU limit %d ms%n%n", Runtime.getRuntime().availableProcessors(),
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), s.workers(), s.workerHeap(),
        s.workerJvmFlags().isEmpty() ? "" : " " + String.join(" ", s.workerJvmFlags()), s.limits().cpuMillis());
    System.out.println("| Scenario | runs | errors | p50 ms | p99 ms | runs/s |");
    System.out.println("|---|---|---|---|---|---|");
    for (Stats st : List.of(sink1.named("POST /api/run sink-demo, concurrency 1"),
        txn1.named("POST /api/run txn-dedupe-demo, concurrency 1"),
        sink32.named("POST /api/run sink-demo, concurrency 32 (32 client addresses)"),
        txn32.named("POST /api/run txn-dedupe-demo, concurrency 32 (32 client addresses)"),
        firstShipped100.named("POST /api/run sink-demo as shipped, the first 100 after the start, concurrency 1"),
        first100.named("POST /api/run sink-demo, the first 100 changed copies after those, concurrency 1"),
        shipped32.named("POST /api/run sink-demo as shipped (answered from the start's runs), concurrency 32"),
        idle.named("benign sink-demo, idle"),
        underLoops[0].named("benign sink-demo, first wave of 20 infinite loops"),
        underLoops[1].named("benign sink-demo, 20 infinite loops in flight"),
        underLoops[2].named("the 20 infinite-loop clients (each run ends `timeout`)"),
        checks.named("POST /api/exercises/exactly-once-append/check, reference solution (27 scenarios), recorded"),
        javac.named("javac in-memory (javax.tools), compile + run + capture"),
        fresh.named("fresh JVM per run: `java Snippet.java`"))) {
      System.out.println(st.row());
    }
    System.out.println();
    System.out.printf(Locale.ROOT, "- benign p99 with 20 loops in flight / idle p99: %.2fx (target < 3x)%n",
        underLoops[1].p99() / idle.p99());
    System.out.printf(Locale.ROOT, "- the first 100 runs after the start / a warm server's (sink-demo, c=1): as shipped"
        + " p50 %.2fx, p99 %.2fx (target <= 2x); changed copies p50 %.2fx, p99 %.2fx%n", firstShipped100.p50() / sink1.p50(),
        firstShipped100.p99() / sink1.p99(), first100.p50() / sink1.p50(), first100.p99() / sink1.p99());
    System.out.printf(Locale.ROOT, "- javac in-memory p50 / sandbox p50 (sink-demo, c=1): %.1fx%n", javac.p50() / sink1.p50());
    System.out.printf(Locale.ROOT, "- fresh JVM p50 / sandbox p50 (sink-demo, c=1): %.0fx (target >= 100x)%n",
        fresh.p50() / sink1.p50());
    System.out.printf(Locale.ROOT, "- sink-demo, c=1: HTTP p50 %.2f ms, the worker's own time p50 %.2f ms (the answer's"
        + " timing.workerMs): %.2f ms between them (target <= 1.5 ms)%n", sink1.p50(), worker1.p50(),
        sink1.p50() - worker1.p50());
    System.out.printf(Locale.ROOT, "  where it goes (p50s): the worker %.2f ms; the pipes and the protocol's JSON %.2f ms"
            + " (round trip to the worker %.2f ms); the queue %.2f ms; HTTP, the route and the answer's JSON %.2f ms%n",
        worker1.p50(), roundTrip1.p50() - worker1.p50(), roundTrip1.p50(), queue1.p50(),
        sink1.p50() - roundTrip1.p50() - queue1.p50());
    Stats firstWorker = timingStats(firstTimings, "workerMs");
    Stats firstRoundTrip = timingStats(firstTimings, "roundTripMs");
    System.out.printf(Locale.ROOT, "  the first 100 changed copies (p50s): HTTP %.2f ms, the worker %.2f ms, round trip to the worker"
        + " %.2f ms%n", first100.p50(), firstWorker.p50(), firstRoundTrip.p50());
    System.out.printf(Locale.ROOT, "- targets: p50 at c=1 < 10 ms: %s; >= 300 runs/s at c=32 with 0 errors: %s%n",
        sink1.p50() < 10 && txn1.p50() < 10 ? "met" : "NOT met",
        sink32.perSecond() >= 300 && txn32.perSecond() >= 300 && sink32.errors() + txn32.errors() == 0
            ? "met" : "NOT met");
  }

  /**
   * The snippet as a learner who changed it runs it: a comment added, so a worker runs it (the unchanged source is
   * answered from the runs at the server's start, see {@link #shipped}).
   */
  private Demo demo(String id) throws IOException {
    Demo shipped = shipped(id);
    return new Demo(id, shipped.source() + "\n// a learner's copy\n", shipped.expected());
  }

  /** The snippet exactly as it ships. */
  private Demo shipped(String id) throws IOException {
    try (var client = new LoopbackClient("127.0.0.1", "127.0.0.1", port)) {
      JsonNode node = JSON.readTree(client.get("/api/snippets/" + id).body());
      return new Demo(id, node.get("source").asText(), node.get("expectedOutput").asText());
    }
  }

  /**
   * One learner checking the append exercise's reference solution again and again, as the Check button does: a fresh
   * attempt id each time, the learner cookie kept, every check recorded. An error is anything but a pass.
   */
  private Stats exerciseChecks(int runs) throws IOException {
    String solution;
    try (var in = SandboxBenchmark.class.getResourceAsStream("/snippets/exactly-once/exercises/ExactlyOnceAppend.solution")) {
      if (in == null) throw new IOException("the append exercise's reference solution is not on the class path");
      solution = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    List<Double> times = new ArrayList<>();
    int errors = 0;
    String cookie = null;
    long start = System.nanoTime();
    try (var client = new LoopbackClient("127.0.0.3", "127.0.0.1", port)) {
      for (int i = 0; i < runs + 5; i++) {
        Map<String, String> headers = new HashMap<>(Map.of("Origin", "http://127.0.0.1:" + port));
        if (cookie != null) headers.put("Cookie", cookie);
        String body = JSON.writeValueAsString(Map.of("source", solution, "attempt", UUID.randomUUID().toString()));
        long t = System.nanoTime();
        var res = client.post("/api/exercises/exactly-once-append/check", "application/json", body, headers);
        double ms = (System.nanoTime() - t) / 1e6;
        String setCookie = res.headers().getOrDefault("set-cookie", "");
        if (setCookie.startsWith("eolab_learner=")) cookie = setCookie.substring(0, setCookie.indexOf(';'));
        if (i < 5) continue; // warm-up: the first checks compile the solution with its checker
        times.add(ms);
        if (res.status() != 200 || !JSON.readTree(res.body()).path("passed").asBoolean()) errors++;
      }
    }
    return Stats.of(times, errors, (System.nanoTime() - start) / 1e9);
  }

  /** The distribution of one field of the answers' {@code timing} ({@code workerMs}, {@code queueMs}, ...). */
  private static Stats timingStats(List<JsonNode> timings, String field) {
    return Stats.of(timings.stream().map(t -> t.path(field).asDouble()).toList(), 0, 0);
  }

  /** One client, one run at a time. */
  private Stats sequential(Demo demo, int runs, String from) throws IOException {
    return sequential(demo, runs, from, new ArrayList<>());
  }

  /** Also adds the answer's {@code timing} of each run that ended OK. */
  private Stats sequential(Demo demo, int runs, String from, List<JsonNode> timings) throws IOException {
    List<Double> times = new ArrayList<>();
    int errors = 0;
    long start = System.nanoTime();
    try (var client = new LoopbackClient(from, "127.0.0.1", port)) {
      for (int i = 0; i < runs; i++) {
        long t = System.nanoTime();
        JsonNode timing = timing(client, demo);
        times.add((System.nanoTime() - t) / 1e6);
        if (timing == null) errors++;
        else timings.add(timing);
      }
    }
    return Stats.of(times, errors, (System.nanoTime() - start) / 1e9);
  }

  /** {@code clients} students at once, each from its own address, each running {@code perClient} times. */
  private Stats concurrent(Demo demo, int clients, int perClient) throws Exception {
    var times = new ConcurrentLinkedQueue<Double>();
    var errors = new AtomicInteger();
    var go = new CountDownLatch(1);
    var done = new CountDownLatch(clients);
    for (int c = 0; c < clients; c++) {
      String from = "127.0.0." + (10 + c);
      start(() -> {
        try (var client = new LoopbackClient(from, "127.0.0.1", port)) {
          go.await();
          for (int i = 0; i < perClient; i++) {
            long t = System.nanoTime();
            boolean ok = runOk(client, demo);
            times.add((System.nanoTime() - t) / 1e6);
            if (!ok) errors.incrementAndGet();
          }
        } catch (Exception e) {
          errors.incrementAndGet();
        } finally {
          done.countDown();
        }
      });
    }
    long start = System.nanoTime();
    go.countDown();
    done.await();
    return Stats.of(new ArrayList<>(times), errors.get(), (System.nanoTime() - start) / 1e9);
  }

  /**
   * Benign runs from one student while {@code loopers} other students each keep an infinite loop in flight.
   * Returns the benign runs during the first wave (until every looper has had one run end), the benign runs after
   * it, and the loopers' own runs.
   */
  private Stats[] underLoops(Demo demo, int loopers, int runs) throws Exception {
    var stop = new AtomicBoolean();
    var loopTimes = new ConcurrentLinkedQueue<Double>();
    var loopErrors = new AtomicInteger();
    var firstDone = new CountDownLatch(loopers);
    var threads = new ArrayList<Thread>();
    for (int c = 0; c < loopers; c++) {
      String from = "127.0.0." + (100 + c);
      threads.add(start(() -> {
        boolean first = true;
        try (var client = new LoopbackClient(from, "127.0.0.1", port)) {
          while (!stop.get()) {
            long t = System.nanoTime();
            var res = client.post("/api/run", "application/json", JSON.writeValueAsString(Map.of("source", LOOP)));
            loopTimes.add((System.nanoTime() - t) / 1e6);
            if (res.status() == 429) {
              Thread.sleep(1000L * Long.parseLong(res.headers().getOrDefault("retry-after", "1")));
            } else if (res.status() != 200 || !"timeout".equals(JSON.readTree(res.body()).path("status").asText())) {
              loopErrors.incrementAndGet();
            }
            if (first) {
              first = false;
              firstDone.countDown();
            }
          }
        } catch (Exception e) {
          loopErrors.incrementAndGet();
        }
      }));
    }
    long start = System.nanoTime();
    List<Double> wave = new ArrayList<>();
    int waveErrors = 0;
    try (var client = new LoopbackClient("127.0.0.2", "127.0.0.1", port)) {
      while (firstDone.getCount() > 0) {
        long t = System.nanoTime();
        if (!runOk(client, demo)) waveErrors++;
        wave.add((System.nanoTime() - t) / 1e6);
      }
      double waveSeconds = (System.nanoTime() - start) / 1e9;
      Stats steady = sequential(demo, runs, "127.0.0.2");
      stop.set(true);
      for (Thread t : threads) t.join(30_000);
      return new Stats[] {Stats.of(wave, waveErrors, waveSeconds), steady,
          Stats.of(new ArrayList<>(loopTimes), loopErrors.get(), (System.nanoTime() - start) / 1e9)};
    }
  }

  private boolean runOk(LoopbackClient client, Demo demo) throws IOException {
    return timing(client, demo) != null;
  }

  /** Where the run's time went (the answer's {@code timing}), or null when it did not print what the demo expects. */
  private JsonNode timing(LoopbackClient client, Demo demo) throws IOException {
    var res = client.post("/api/run", "application/json", JSON.writeValueAsString(Map.of("source", demo.source())));
    if (res.status() != 200) return null;
    JsonNode body = JSON.readTree(res.body());
    boolean ok = "ok".equals(body.path("status").asText()) && demo.expected().equals(body.path("stdout").asText());
    return ok ? body.path("timing") : null;
  }

  /** Starts a daemon thread running {@code body}. */
  private static Thread start(ThrowingRunnable body) {
    Thread t = new Thread(() -> {
      try {
        body.run();
      } catch (Exception e) {
        e.printStackTrace();
      }
    });
    t.setDaemon(true);
    t.start();
    return t;
  }

  @FunctionalInterface
  private interface ThrowingRunnable {
    void run() throws Exception;
  }
}
