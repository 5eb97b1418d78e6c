package lab.exactlyonce.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import lab.exactlyonce.App;
import lab.exactlyonce.Config;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A whole class period behind one school address, compressed in time: the soak that the classroom's limits, streams
 * and sandbox must pass with nothing refused, lost or doubled.
 * <pre>mvn -q -B test-compile exec:exec -Dexec.args="-cp %classpath lab.exactlyonce.bench.ClassPeriod --students 300 --minutes 10"</pre>
 * Starts the app with its default limits and N students, every one from 127.0.0.1 (one NAT address). Each student
 * loads the lesson page and the class page, joins, and holds a live stream; the whole class presses Run on the
 * lesson's sink demo within a few seconds; then the instructor asks {@code --questions} questions with a countdown,
 * spread over {@code --minutes}, reveals each when its time is up and shows the leaderboard every fifth. Before each
 * question a share of the phones sleeps (the stream drops) and wakes a few seconds later, reloading the class page,
 * and answers the question it finds open. All along one more student on the same address floods runs of an endless
 * loop, share links and scored answers. At the end the instructor downloads the CSV: every acknowledged answer must
 * be on it exactly once.
 *
 * <p>Prints, per question, how many awake students got it and the push-to-receive p50 and p99; then the class's
 * responses by status, what the hostile student was refused, the run burst's latencies, and the server's heap after
 * a full GC, open file descriptors, threads and open connections at the start, the middle and the end. Exits 1 when
 * a class request was refused, an answer lost or doubled, an awake student missed a question or the hostile student
 * was never throttled.
 */
public final class ClassPeriod {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ADDRESS = "127.0.0.1";

  /** What to run. */
  public record Options(int students, double minutes, int questions, int timeLimitSeconds, double sleepShare) {
    public Options {
      if (students < 1 || students > 5_000) throw new IllegalArgumentException("--students must be 1..5000, got " + students);
      if (minutes <= 0) throw new IllegalArgumentException("--minutes must be more than 0, got " + minutes);
      if (questions < 1) throw new IllegalArgumentException("--questions must be at least 1, got " + questions);
      if (timeLimitSeconds < 5) throw new IllegalArgumentException("--time-limit must be at least 5 s, got " + timeLimitSeconds);
      if (sleepShare < 0 || sleepShare > 0.5) throw new IllegalArgumentException("--sleep must be 0..0.5, got " + sleepShare);
    }

    static Options parse(String[] args) {
      Map<String, String> flags = new HashMap<>();
      Set<String> known = Set.of("--students", "--minutes", "--questions", "--time-limit", "--sleep");
      for (int i = 0; i < args.length; i++) {
        if (!known.contains(args[i])) throw new IllegalArgumentException("unknown option '" + args[i] + "'; known: " + known);
        if (i + 1 >= args.length) throw new IllegalArgumentException("option '" + args[i] + "' needs a value");
        flags.put(args[i], args[++i]);
      }
      return new Options(Integer.parseInt(flags.getOrDefault("--students", "300")),
          Double.parseDouble(flags.getOrDefault("--minutes", "10")),
          Integer.parseInt(flags.getOrDefault("--questions", "40")),
          Integer.parseInt(flags.getOrDefault("--time-limit", "10")),
          Double.parseDouble(flags.getOrDefault("--sleep", "0.1")));
    }
  }

  /** The server's resources at one moment. */
  public record Sample(String when, long heapAfterGcBytes, long openFiles, int threads, double openConnections) {
    String row() {
      return String.format(Locale.ROOT, "| %s | %.1f MB | %d | %d | %.0f |", when, heapAfterGcBytes / 1048576.0, openFiles,
          threads, openConnections);
    }
  }

  /** What was measured and checked. */
  public record Result(int students, int questions, LatencyStats pushToReceive, List<String> perQuestion,
                       int missedByAwake, int answersSent, int answersAcknowledged, int lost, int doubled,
                       Map<Integer, Integer> classStatuses, Map<Integer, Integer> hostileStatuses, LatencyStats runBurst,
                       int burstOver2s, int wakes, int wokeTooLate, LatencyStats answerRoundTrips,
                       List<Sample> samples, List<String> problems) {

    /** Nothing refused, lost or doubled; every awake student got every question; the flood was throttled. */
    public boolean ok() {
      boolean refused = classStatuses.keySet().stream().anyMatch(status -> status >= 300);
      return !refused && missedByAwake == 0 && lost == 0 && doubled == 0 && answersAcknowledged == answersSent
          && hostileStatuses.getOrDefault(429, 0) > 0 && problems.isEmpty();
    }

    public String report() {
      StringBuilder out = new StringBuilder();
      out.append("| students | questions | push→receive p50 | p99 | max | answers recorded | lost | doubled | phones woken "
              + "| woke too late to answer |\n")
          .append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
          .append(String.format(Locale.ROOT, "| %d | %d | %s | %s | %s | %d | %d | %d | %d | %d |%n", students, questions,
              LatencyStats.format(pushToReceive.p50Millis()), LatencyStats.format(pushToReceive.p99Millis()),
              LatencyStats.format(pushToReceive.maxMillis()), answersAcknowledged, lost, doubled, wakes, wokeTooLate));
      out.append("\nclass responses by status: ").append(classStatuses)
          .append("\nthe hostile student's responses by status: ").append(hostileStatuses)
          .append(String.format(Locale.ROOT, "%nrun burst (%d runs of the sink demo): p50 %s, p99 %s, max %s, over 2 s: %d%n",
              runBurst.count(), LatencyStats.format(runBurst.p50Millis()), LatencyStats.format(runBurst.p99Millis()),
              LatencyStats.format(runBurst.maxMillis()), burstOver2s))
          .append(String.format(Locale.ROOT, "answers (sent to answered): p50 %s, p99 %s, max %s%n",
              LatencyStats.format(answerRoundTrips.p50Millis()), LatencyStats.format(answerRoundTrips.p99Millis()),
              LatencyStats.format(answerRoundTrips.maxMillis())));
      out.append("\n| when | heap after GC | open files | threads | open connections |\n|---|---:|---:|---:|---:|\n");
      for (Sample s : samples) out.append(s.row()).append('\n');
      return out.toString();
    }
  }

  public static void main(String[] args) throws Exception {
    Options options;
    try {
      options = Options.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("class-period: " + e.getMessage());
      System.exit(2);
      return;
    }
    Result result = run(options, System.out);
    System.out.println();
    System.out.println(result.report());
    System.out.println(result.ok() ? "OK: nothing refused, lost or doubled; the flood was throttled."
        : "FAILED: " + result.problems().size() + " problems, " + result.missedByAwake() + " questions missed, "
        + result.lost() + " lost, " + result.doubled() + " doubled, class statuses " + result.classStatuses());
    System.exit(result.ok() ? 0 : 1);
  }

  /** Starts the app with its default limits, runs the period against it, and stops it. */
  public static Result run(Options options, PrintStream log) throws Exception {
    byte[] bytes = new byte[18];
    new SecureRandom().nextBytes(bytes);
    String secret = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    Path data = Files.createTempDirectory("eolab-period-");
    App app = new App(Config.from(new String[] {"--host", ADDRESS, "--port", "0", "--data-dir", data.toString(),
        "--instructor-secret", secret, "--request-log", "off"}, Map.of())).start();
    try {
      if (app.sandbox() instanceof lab.exactlyonce.sandbox.Sandbox workers && !workers.awaitReady(Duration.ofMinutes(2))) {
        throw new IllegalStateException("the sandbox workers were not ready within 2 minutes");
      }
      log.println("started the app at http://" + ADDRESS + ":" + app.port() + " (data in " + data + ")");
      return new ClassPeriod(options, "http://" + ADDRESS + ":" + app.port(), secret, log).period();
    } finally {
      app.stop();
    }
  }

  private final Options options;
  private final URI base;
  private final String secret;
  private final PrintStream log;
  private final HttpClient http;
  private final ExecutorService clients = Executors.newFixedThreadPool(32, daemon("period-client"));
  private final Random random = new Random(42);
  private final Map<Integer, AtomicInteger> classStatuses = new ConcurrentHashMap<>();
  private final Map<Integer, AtomicInteger> hostileStatuses = new ConcurrentHashMap<>();
  private final List<String> problems = Collections.synchronizedList(new ArrayList<>());
  private String instructorCookie;
  private String classId;
  private String[] cookies;
  private final QuestionReceipts receipts = new QuestionReceipts();
  private final Set<String> sentIds = ConcurrentHashMap.newKeySet();
  private final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final Set<Integer> asleep = ConcurrentHashMap.newKeySet();
  /** Questions a student woke to with too little of the countdown left to answer. */
  private final AtomicInteger tooLate = new AtomicInteger();

  private ClassPeriod(Options options, String base, String secret, PrintStream log) {
    this.options = options;
    this.base = URI.create(base);
    this.secret = secret;
    this.log = log;
    this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(clients)
        .connectTimeout(Duration.ofSeconds(10)).build();
  }

  private Result period() throws Exception {
    List<Sample> samples = new ArrayList<>();
    samples.add(sample("start"));
    signIn();
    JsonNode room = JSON.readTree(instructor("POST", "/api/teach/classes", Map.of("name", "Period " + options.students()), 201));
    classId = room.get("id").asText();
    String code = room.get("code").asText();
    List<String> bank = new ArrayList<>();
    for (JsonNode q : JSON.readTree(instructor("GET", "/api/teach/classes/" + classId + "/questions", null, 200))) {
      if (q.path("options").size() >= 2) bank.add(q.get("id").asText());
    }
    long started = System.nanoTime();
    join(code);
    log.printf(Locale.ROOT, "%d students loaded the pages and joined in %.1f s, all from %s%n", options.students(),
        (System.nanoTime() - started) / 1e9, ADDRESS);

    AtomicBoolean flooding = new AtomicBoolean(true);
    CompletableFuture<Void> hostile = CompletableFuture.runAsync(() -> flood(flooding), Executors.newSingleThreadExecutor(daemon("hostile")));
    try (SseHub hub = new SseHub(new InetSocketAddress(base.getHost(), base.getPort()), new SseHub.Listener() {
      @Override
      public void onEvent(SseHub.Stream stream, SseHub.Event event) {
        received(stream.index(), event);
      }

      @Override
      public void onOpen(SseHub.Stream stream) {
        asleep.remove(stream.index()); // awake from when its stream is answered again
      }

      @Override
      public void onFailed(SseHub.Stream stream, String reason) {
        problems.add("student " + stream.index() + ": stream ended: " + reason);
      }
    })) {
      InetAddress from = InetAddress.getByName(ADDRESS);
      for (int i = 0; i < options.students(); i++) {
        hub.open(from, "/api/classes/" + classId + "/stream", Map.of("Cookie", cookies[i]));
      }
      if (!await(() -> receipts.taken.size() >= options.students(), 120_000)) {
        problems.add(receipts.taken.size() + " of " + options.students() + " streams opened within 2 minutes");
      }
      LatencyStats burst = runBurst();
      int burstOver2s = (int) burstNanos.stream().filter(n -> n > 2_000_000_000L).count();

      long gapNanos = (long) (options.minutes() * 60e9 / options.questions());
      List<Long> latencies = new ArrayList<>();
      List<String> perQuestion = new ArrayList<>();
      int missed = 0;
      int wakes = 0;
      for (int n = 0; n < options.questions(); n++) {
        long slotStart = System.nanoTime();
        wakes += sleepSome(hub);
        Set<Integer> awake = new java.util.HashSet<>();
        for (int i = 0; i < options.students(); i++) if (!asleep.contains(i)) awake.add(i);
        long pushed = System.nanoTime();
        JsonNode push = JSON.readTree(instructor("POST", "/api/teach/classes/" + classId + "/live/push",
            Map.of("question", bank.get(n % bank.size()), "timeLimit", options.timeLimitSeconds()), 200));
        String round = push.get("round").asText();
        Map<Integer, Long> got = receipts.of(round);
        await(() -> got.keySet().containsAll(awake), 10_000);
        long[] nanos = awake.stream().filter(got::containsKey).mapToLong(i -> got.get(i) - pushed).toArray();
        missed += (int) awake.stream().filter(i -> !got.containsKey(i)).count();
        for (long v : nanos) latencies.add(v);
        LatencyStats q = LatencyStats.ofNanos(nanos);
        String line = String.format(Locale.ROOT, "question %d: %d of %d awake received, p50 %s, p99 %s", n + 1,
            nanos.length, awake.size(), LatencyStats.format(q.p50Millis()), LatencyStats.format(q.p99Millis()));
        perQuestion.add(line);
        log.println(line);
        sleepUntil(pushed + options.timeLimitSeconds() * 1_000_000_000L);
        // sleepers woke during the countdown and answered what they found; what they still send counts as well
        await(() -> inFlight.get() == 0, 10_000);
        instructor("POST", "/api/teach/classes/" + classId + "/live/reveal", Map.of(), 200);
        if ((n + 1) % 5 == 0) {
          instructor("POST", "/api/teach/classes/" + classId + "/live/leaderboard", Map.of("show", true), 200);
        }
        if (n + 1 == options.questions() / 2) samples.add(sample("middle"));
        sleepUntil(slotStart + gapNanos);
      }
      await(() -> inFlight.get() == 0, 30_000);
      instructor("POST", "/api/teach/classes/" + classId + "/live/end", Map.of(), 200);
      flooding.set(false);
      hostile.get(30, TimeUnit.SECONDS);

      Map<String, Integer> onCsv = csvEventIds();
      Csv.Tally tally = Csv.Tally.of(onCsv, acknowledged);
      int lost = tally.lost();
      int doubled = tally.doubled();
      hub.streams().forEach(SseHub.Stream::close);
      samples.add(sample("end"));
      synchronized (problems) {
        problems.stream().limit(40).forEach(p -> log.println("problem: " + p));
      }
      return new Result(options.students(), options.questions(),
          LatencyStats.ofNanos(latencies.stream().mapToLong(Long::longValue).toArray()), perQuestion, missed,
          sentIds.size(), acknowledged.size(), lost, doubled, counts(classStatuses), counts(hostileStatuses), burst,
          burstOver2s, wakes, tooLate.get(),
          LatencyStats.ofNanos(answerNanos.stream().mapToLong(Long::longValue).toArray()), samples, List.copyOf(problems));
    } finally {
      flooding.set(false);
      clients.shutdownNow();
    }
  }

  private final List<Long> burstNanos = Collections.synchronizedList(new ArrayList<>());
  /** Each answer's time from being sent to its response. */
  private final List<Long> answerNanos = Collections.synchronizedList(new ArrayList<>());

  /** The whole class presses Run on the sink demo within three seconds. */
  private LatencyStats runBurst() throws Exception {
    List<CompletableFuture<Void>> runs = new ArrayList<>();
    ScheduledExecutorService presses = Executors.newSingleThreadScheduledExecutor(daemon("presses"));
    try {
      for (int i = 0; i < options.students(); i++) {
        int student = i;
        CompletableFuture<Void> done = new CompletableFuture<>();
        runs.add(done);
        presses.schedule(() -> {
          long start = System.nanoTime();
          send(student, "POST", "/api/run", "{\"snippet\":\"sink-demo\"}", classStatuses).whenComplete((res, e) -> {
            burstNanos.add(System.nanoTime() - start);
            if (res != null && res.statusCode() == 200 && !res.body().contains("\"status\":\"ok\"")) {
              problems.add("student " + student + ": the sink demo did not run: " + res.body());
            }
            done.complete(null);
          });
        }, random.nextInt(3000), TimeUnit.MILLISECONDS);
      }
      CompletableFuture.allOf(runs.toArray(CompletableFuture[]::new)).get(5, TimeUnit.MINUTES);
    } finally {
      presses.shutdownNow();
    }
    LatencyStats stats = LatencyStats.ofNanos(burstNanos.stream().mapToLong(Long::longValue).toArray());
    log.printf(Locale.ROOT, "run burst: %d runs, p50 %s, p99 %s, max %s%n", stats.count(),
        LatencyStats.format(stats.p50Millis()), LatencyStats.format(stats.p99Millis()), LatencyStats.format(stats.maxMillis()));
    return stats;
  }

  /** A share of the awake phones sleeps now for 2 to 8 s, then wakes, reloads the class page and reconnects. */
  private int sleepSome(SseHub hub) {
    int count = (int) Math.round(options.students() * options.sleepShare());
    List<SseHub.Stream> streams = new ArrayList<>(hub.streams());
    Collections.shuffle(streams, random);
    int slept = 0;
    for (SseHub.Stream stream : streams) {
      if (slept == count) break;
      int student = stream.index();
      if (!asleep.add(student)) continue;
      long millis = 2000 + random.nextInt(6000);
      stream.sleep(millis);
      slept++;
      CompletableFuture.delayedExecutor(millis, TimeUnit.MILLISECONDS, clients).execute(() ->
          send(student, "GET", "/classes/" + classId, null, classStatuses));
    }
    return slept;
  }

  /** One more student on the same address floods runs of an endless loop, share links and scored answers. */
  private void flood(AtomicBoolean flooding) {
    String cookie;
    try {
      HttpResponse<String> named = http.send(request("PUT", "/api/me", "{\"displayName\":\"Flood\"}", null),
          HttpResponse.BodyHandlers.ofString());
      cookie = named.headers().allValues("Set-Cookie").stream().map(h -> h.split(";", 2)[0])
          .filter(c -> c.startsWith("eolab_learner=")).findFirst().orElseThrow();
    } catch (IOException | InterruptedException e) {
      problems.add("the hostile student could not start: " + e);
      return;
    }
    // One loop per target, side by side, as a script would: an endless-loop run holds its loop for the run's whole
    // clock, and must not slow the cheap floods down to a rate no limit is meant to stop.
    List<String> paths = List.of("/api/run", "/api/shares", "/api/lessons/exactly-once/questions/L5/score");
    var loops = paths.stream().map(path -> CompletableFuture.runAsync(() -> flood(path, cookie, flooding),
        Executors.newSingleThreadExecutor(daemon("hostile")))).toArray(CompletableFuture[]::new);
    CompletableFuture.allOf(loops).join();
  }

  private void flood(String path, String cookie, AtomicBoolean flooding) {
    String loop = "public class Main { public static void main(String[] a) { while (true) { } } }";
    int n = 0;
    while (flooding.get()) {
      n++;
      String body = path.endsWith("score") ? "{\"answer\":\"" + "epoch ".repeat(600) + "\"}"
          : "{\"source\":" + quote(loop.replace("Main", "Main" + n)) + "}";
      try {
        HttpResponse<String> res = http.send(request("POST", path, body, cookie), HttpResponse.BodyHandlers.ofString());
        hostileStatuses.computeIfAbsent(res.statusCode(), s -> new AtomicInteger()).incrementAndGet();
      } catch (IOException e) {
        hostileStatuses.computeIfAbsent(-1, s -> new AtomicInteger()).incrementAndGet();
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void join(String code) throws Exception {
    cookies = new String[options.students()];
    List<CompletableFuture<Void>> joins = new ArrayList<>();
    for (int i = 0; i < options.students(); i++) {
      int student = i;
      joins.add(send(student, "GET", "/lessons/exactly-once", null, classStatuses)
          .thenCompose(r -> send(student, "GET", "/join?code=" + code, null, classStatuses))
          .thenCompose(r -> joinOnce(student, code)));
    }
    CompletableFuture.allOf(joins.toArray(CompletableFuture[]::new)).get(10, TimeUnit.MINUTES);
    List<CompletableFuture<HttpResponse<String>>> pages = new ArrayList<>();
    for (int i = 0; i < options.students(); i++) pages.add(send(i, "GET", "/classes/" + classId, null, classStatuses));
    CompletableFuture.allOf(pages.toArray(CompletableFuture[]::new)).get(5, TimeUnit.MINUTES);
  }

  /** Joins; a class full of joins for this minute answers 429 with Retry-After, which a phone waits out. */
  private CompletableFuture<Void> joinOnce(int student, String code) {
    String body = "{\"code\":" + quote(code) + ",\"nickname\":\"student-" + student + "\"}";
    return http.sendAsync(request("POST", "/api/join", body, null), HttpResponse.BodyHandlers.ofString())
        .thenCompose(res -> {
          if (res.statusCode() == 429) {
            long wait = Long.parseLong(res.headers().firstValue("Retry-After").orElse("1"));
            return CompletableFuture.supplyAsync(() -> null, CompletableFuture.delayedExecutor(wait, TimeUnit.SECONDS, clients))
                .thenCompose(x -> joinOnce(student, code));
          }
          count(classStatuses, res.statusCode());
          if (res.statusCode() != 201) {
            problems.add("student " + student + " could not join: " + res.statusCode() + " " + res.body());
            return CompletableFuture.completedFuture(null);
          }
          cookies[student] = res.headers().allValues("Set-Cookie").stream().map(h -> h.split(";", 2)[0])
              .filter(c -> c.startsWith("eolab_learner=")).findFirst().orElseThrow();
          return CompletableFuture.completedFuture(null);
        });
  }

  /** Called on the hub's thread: never blocks. */
  private void received(int student, SseHub.Event event) {
    Optional<JsonNode> question = receipts.firstSight(student, event, problems);
    if (question.isEmpty()) return;
    JsonNode data = question.get();
    String round = data.get("round").asText();
    String id = java.util.UUID.randomUUID().toString();
    // a student reads and taps within a few seconds; one who woke too late to tap before the countdown ends does not
    long think = 200 + Math.floorMod(id.hashCode(), 3000);
    long seen = System.nanoTime();
    long remaining = data.path("remainingMs").asLong(-1);
    if (data.hasNonNull("remainingMs") && remaining < think + 1000) {
      tooLate.incrementAndGet();
      return;
    }
    sentIds.add(id);
    int choice = Math.floorMod(student + round.hashCode(), Math.max(1, data.path("options").size()));
    inFlight.incrementAndGet();
    CompletableFuture.delayedExecutor(think, TimeUnit.MILLISECONDS, clients).execute(() -> {
      long sent = System.nanoTime();
      send(student, "POST", "/api/classes/" + classId + "/answers",
          "{\"id\":\"" + id + "\",\"round\":\"" + round + "\",\"choice\":" + choice + "}", classStatuses)
          .whenComplete((res, e) -> {
            long answered = System.nanoTime();
            answerNanos.add(answered - sent);
            if (res != null && res.statusCode() == 200) acknowledged.add(id);
            else problems.add(String.format(Locale.ROOT, "student %d, round %s: %d ms of the countdown left when"
                + " the question arrived, tapped %d ms later (planned %d), answered %d ms after the tap", student, round,
                remaining, (sent - seen) / 1_000_000, think, (answered - sent) / 1_000_000));
            inFlight.decrementAndGet();
          });
    });
  }

  private CompletableFuture<HttpResponse<String>> send(int student, String method, String path, String body,
                                                       Map<Integer, AtomicInteger> statuses) {
    String cookie = cookies == null ? null : cookies[student];
    return http.sendAsync(request(method, path, body, cookie), HttpResponse.BodyHandlers.ofString())
        .whenComplete((res, e) -> {
          if (res != null) {
            count(statuses, res.statusCode());
            if (res.statusCode() >= 300) problems.add("student " + student + ": " + method + " " + path + " -> "
                + res.statusCode() + " " + res.body());
          } else {
            count(statuses, -1);
            problems.add("student " + student + ": " + method + " " + path + " failed: " + e);
          }
        });
  }

  private HttpRequest request(String method, String path, String body, String cookie) {
    HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(60))
        .header("Sec-Fetch-Site", "same-origin");
    if (cookie != null) b.header("Cookie", cookie);
    if (body == null) return b.method(method, HttpRequest.BodyPublishers.noBody()).build();
    return b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body)).build();
  }

  private void signIn() throws IOException, InterruptedException {
    HttpResponse<String> res = http.send(HttpRequest.newBuilder(base.resolve("/teach/login"))
        .header("Content-Type", "application/x-www-form-urlencoded").header("Sec-Fetch-Site", "same-origin")
        .POST(HttpRequest.BodyPublishers.ofString("secret=" + URLEncoder.encode(secret, StandardCharsets.UTF_8)))
        .build(), HttpResponse.BodyHandlers.ofString());
    if (res.statusCode() != 303) throw new IllegalStateException("instructor sign-in answered " + res.statusCode());
    instructorCookie = res.headers().allValues("Set-Cookie").stream().map(h -> h.split(";", 2)[0])
        .filter(c -> c.startsWith("eolab_instructor=")).findFirst().orElseThrow();
  }

  private String instructor(String method, String path, Object body, int expected) throws Exception {
    HttpResponse<String> res = http.send(request(method, path, body == null ? null : JSON.writeValueAsString(body),
        instructorCookie), HttpResponse.BodyHandlers.ofString());
    if (res.statusCode() != expected) {
      throw new IllegalStateException(method + " " + path + " answered " + res.statusCode() + " " + res.body());
    }
    return res.body();
  }

  /** Event id -> how many rows of the instructor's CSV export carry it (live answers of this class). */
  private Map<String, Integer> csvEventIds() throws Exception {
    return Csv.liveEventIds(instructor("GET", "/teach/classes/" + classId + "/results.csv", null, 200));
  }

  /** The server's heap after a full collection (it runs in this JVM), its open files, threads and connections. */
  private Sample sample(String when) throws Exception {
    System.gc();
    long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    long files;
    try (var fds = Files.list(Paths.get("/proc/self/fd"))) {
      files = fds.count();
    }
    HttpResponse<String> metrics = http.send(request("GET", "/metrics", null, null), HttpResponse.BodyHandlers.ofString());
    Matcher open = Pattern.compile("(?m)^eolab_connections_open (\\S+)$").matcher(metrics.body());
    Sample s = new Sample(when, heap, files, Thread.activeCount(), open.find() ? Double.parseDouble(open.group(1)) : -1);
    log.println("resources at the " + s.row());
    return s;
  }

  private static void count(Map<Integer, AtomicInteger> statuses, int status) {
    statuses.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
  }

  private static Map<Integer, Integer> counts(Map<Integer, AtomicInteger> statuses) {
    Map<Integer, Integer> out = new TreeMap<>();
    statuses.forEach((status, n) -> out.put(status, n.get()));
    return out;
  }

  private static String quote(String text) {
    try {
      return JSON.writeValueAsString(text);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void sleepUntil(long nanoTime) throws InterruptedException {
    long left = nanoTime - System.nanoTime();
    if (left > 0) TimeUnit.NANOSECONDS.sleep(left);
  }

  private static boolean await(BooleanSupplier condition, long timeoutMillis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) return false;
      Thread.sleep(5);
    }
    return true;
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, name + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
