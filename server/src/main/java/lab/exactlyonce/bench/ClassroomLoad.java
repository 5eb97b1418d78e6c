package lab.exactlyonce.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import lab.exactlyonce.App;
import lab.exactlyonce.Config;

import java.io.IOException;
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
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The classroom load program (issue 5, item 7): one instructor and N simulated students on one machine.
 * <pre>java -cp target/exactly-once-lab.jar lab.exactlyonce.bench.ClassroomLoad --students 300</pre>
 * Starts the app (or targets a running one with {@code --url http://host:port --instructor-secret ...}), signs in
 * as the instructor, creates a class, joins N students (each from its own loopback address 127.0.x.y, because joins
 * are rate-limited per address), and holds one live SSE stream per student, all on one thread ({@link SseHub}).
 * The instructor pushes {@code --questions} questions; every student answers each question as it arrives, with a
 * client event id, and a share of students deliberately resend that same answer (at once, concurrently, and again
 * after the acknowledgement). Prints push-to-receive latency (p50, p99, max) and answers recorded per second as a
 * Markdown table, then reads the class's CSV export as the instructor and checks that every answer is on it exactly
 * once (warm-up questions, {@code --warmup}, default 1, are checked too but not timed). Exits 1 if any answer was
 * lost or doubled, or any student missed a question.
 */
public final class ClassroomLoad {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What to run. */
  public record Options(int students, Optional<String> url, Optional<String> instructorSecret, int questions,
                        long pauseMillis, double duplicateShare, String lesson, int warmup) {
    public Options {
      if (students < 1 || students > 60_000) throw new IllegalArgumentException("--students must be 1..60000, got " + students);
      if (warmup < 0) throw new IllegalArgumentException("--warmup must be 0 or more, got " + warmup);
      if (questions < 1) throw new IllegalArgumentException("--questions must be at least 1, got " + questions);
      if (duplicateShare < 0 || duplicateShare > 1) {
        throw new IllegalArgumentException("--duplicates must be between 0 and 1, got " + duplicateShare);
      }
    }

    public static Options defaults(int students) {
      return new Options(students, Optional.empty(), Optional.empty(), 10, 500, 0.1, "exactly-once", 1);
    }

    static Options parse(String[] args, Map<String, String> env) {
      Map<String, String> flags = new HashMap<>();
      Set<String> known = Set.of("--students", "--url", "--instructor-secret", "--questions", "--pause-ms",
          "--duplicates", "--lesson", "--warmup");
      for (int i = 0; i < args.length; i++) {
        if (!known.contains(args[i])) {
          throw new IllegalArgumentException("unknown option '" + args[i] + "'; known: " + String.join(", ", known));
        }
        if (i + 1 >= args.length) throw new IllegalArgumentException("option '" + args[i] + "' needs a value");
        flags.put(args[i], args[++i]);
      }
      Options d = defaults(Integer.parseInt(flags.getOrDefault("--students", "300")));
      return new Options(d.students(), Optional.ofNullable(flags.get("--url")),
          Optional.ofNullable(flags.getOrDefault("--instructor-secret", env.get("INSTRUCTOR_SECRET"))),
          Integer.parseInt(flags.getOrDefault("--questions", String.valueOf(d.questions()))),
          Long.parseLong(flags.getOrDefault("--pause-ms", String.valueOf(d.pauseMillis()))),
          Double.parseDouble(flags.getOrDefault("--duplicates", String.valueOf(d.duplicateShare()))),
          flags.getOrDefault("--lesson", d.lesson()),
          Integer.parseInt(flags.getOrDefault("--warmup", String.valueOf(d.warmup()))));
    }
  }

  /** What was measured and verified. */
  public record Result(int students, int connected, int questions, LatencyStats pushToReceive, int missedQuestions,
                       int answersSent, int answersAcknowledged, double answersPerSecond, int duplicateResends,
                       int resendsAnsweredDifferently, int failedSends, int lost, int doubled, int unexpected,
                       int reconnects) {

    /** Zero lost, zero doubled, every student got every question, every answer acknowledged. */
    public boolean ok() {
      return connected == students && missedQuestions == 0 && lost == 0 && doubled == 0 && unexpected == 0
          && failedSends == 0 && answersAcknowledged == answersSent;
    }

    public String table() {
      return "| students | live streams | questions | push→receive p50 | p99 | max | answers recorded | answers/s "
          + "| duplicate resends | resends answered differently | lost | doubled |\n"
          + "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
          + String.format(Locale.ROOT, "| %d | %d | %d | %s | %s | %s | %d | %.0f | %d | %d | %d | %d |", students,
          connected, questions, LatencyStats.format(pushToReceive.p50Millis()),
          LatencyStats.format(pushToReceive.p99Millis()), LatencyStats.format(pushToReceive.maxMillis()),
          answersAcknowledged, answersPerSecond, duplicateResends, resendsAnsweredDifferently, lost, doubled);
    }
  }

  public static void main(String[] args) throws Exception {
    Options options;
    try {
      options = Options.parse(args, System.getenv());
    } catch (IllegalArgumentException e) {
      System.err.println("classroom-load: " + e.getMessage());
      System.exit(2);
      return;
    }
    Result result = run(options, System.out);
    System.out.println();
    System.out.println(result.table());
    System.out.println();
    System.out.println(result.ok() ? "OK: every answer recorded exactly once."
        : "FAILED: " + result.lost() + " lost, " + result.doubled() + " doubled, " + result.unexpected()
        + " unexpected, " + result.missedQuestions() + " questions not received, " + result.failedSends()
        + " sends failed.");
    System.exit(result.ok() ? 0 : 1);
  }

  /** Runs the whole scenario; progress lines go to {@code log}. */
  public static Result run(Options options, java.io.PrintStream log) throws Exception {
    App app = null;
    String secret;
    String base;
    if (options.url().isPresent()) {
      base = options.url().get().replaceAll("/+$", "");
      secret = options.instructorSecret().orElseThrow(() -> new IllegalArgumentException(
          "--url needs the instructor secret: --instructor-secret or INSTRUCTOR_SECRET"));
    } else {
      secret = randomSecret();
      Path data = Files.createTempDirectory("eolab-load-");
      app = new App(Config.from(new String[] {"--host", "127.0.0.1", "--port", "0", "--data-dir", data.toString(),
          "--instructor-secret", secret, "--request-log", "off"}, Map.of())).start();
      base = "http://127.0.0.1:" + app.port();
      log.println("started the app at " + base + " (data in " + data + ")");
    }
    try {
      return new Run(options, base, secret, log).execute();
    } finally {
      if (app != null) app.stop();
    }
  }

  private static String randomSecret() {
    byte[] bytes = new byte[18];
    new SecureRandom().nextBytes(bytes);
    return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** The source address of student {@code i}: 127.0.1.1, 127.0.1.2, ... (250 per /24). */
  static String address(int i) {
    return "127.0." + (1 + i / 250) + "." + (1 + i % 250);
  }

  /** One run of the scenario against {@code base}. */
  private static final class Run {
    private final Options options;
    private final String base;
    private final String secret;
    private final java.io.PrintStream log;
    private final URI uri;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private String instructorCookie;
    private String classId;
    private String[] cookies;
    /** round id -> student -> nanoTime when its question event arrived. */
    private final Map<String, Map<Integer, Long>> receipts = new ConcurrentHashMap<>();
    /** student -> rounds it has answered (a reconnect replays the open question). */
    private final Map<Integer, Set<String>> answered = new ConcurrentHashMap<>();
    private final Set<String> sentIds = ConcurrentHashMap.newKeySet();
    private final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    private final Map<String, AtomicInteger> ackedPerRound = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> lastAckPerRound = new ConcurrentHashMap<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger duplicateResends = new AtomicInteger();
    private final AtomicInteger resendsDifferent = new AtomicInteger();
    private final AtomicInteger failedSends = new AtomicInteger();
    private final List<String> problems = java.util.Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger firstEvents = new AtomicInteger();
    /** Answers are sent from here, so the hub's thread only reads and timestamps (sending would delay reading). */
    private final ExecutorService answerer = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "answerer");
      t.setDaemon(true);
      return t;
    });

    Run(Options options, String base, String secret, java.io.PrintStream log) {
      this.options = options;
      this.base = base;
      this.secret = secret;
      this.log = log;
      this.uri = URI.create(base);
    }

    Result execute() throws Exception {
      signIn();
      JsonNode room = json(send(instructor("/api/teach/classes").POST(body(Map.of("name", "Load test "
          + options.students(), "lesson", options.lesson()))), 201));
      classId = room.get("id").asText();
      String code = room.get("code").asText();
      List<String> questions = new ArrayList<>();
      for (JsonNode q : json(send(instructor("/api/teach/classes/" + classId + "/questions").GET(), 200))) {
        if (q.path("options").size() >= 2) questions.add(q.get("id").asText());
      }
      if (questions.isEmpty()) throw new IllegalStateException("lesson '" + options.lesson() + "' has no live questions");
      log.println("class " + classId + " (code " + code + "), " + questions.size() + " questions in the bank");

      long joinStart = System.nanoTime();
      join(code);
      log.printf(Locale.ROOT, "joined %d students in %.1f s%n", options.students(), seconds(System.nanoTime() - joinStart));

      try (SseHub hub = new SseHub(new InetSocketAddress(uri.getHost(), uri.getPort()), new SseHub.Listener() {
        @Override
        public void onEvent(SseHub.Stream stream, SseHub.Event event) {
          received(stream.index(), event);
        }

        @Override
        public void onFailed(SseHub.Stream stream, String reason) {
          problems.add("student " + stream.index() + " stream failed: " + reason);
        }
      })) {
        for (int i = 0; i < options.students(); i++) {
          hub.open(InetAddress.getByName(address(i)), "/api/classes/" + classId + "/stream",
              Map.of("Cookie", cookies[i]));
        }
        await(() -> firstEvents.get() >= options.students(), 60_000);
        int connected = (int) hub.streams().stream().filter(SseHub.Stream::isOpen).count();
        log.println(connected + " live streams open");

        List<Long> latencies = new ArrayList<>();
        int missed = 0;
        double burstSeconds = 0;
        int measuredAcked = 0;
        int warmup = options.warmup();
        for (int n = 0; n < warmup + options.questions(); n++) {
          boolean measured = n >= warmup;
          String question = questions.get(n % questions.size());
          long pushed = System.nanoTime();
          JsonNode push = json(send(instructor("/api/teach/classes/" + classId + "/live/push")
              .POST(body(Map.of("question", question))), 200));
          String round = push.get("round").asText();
          receipts.computeIfAbsent(round, r -> new ConcurrentHashMap<>());
          boolean complete = await(() -> receipts.get(round).size() >= connected
              && ackedPerRound.computeIfAbsent(round, r -> new AtomicInteger()).get() >= receipts.get(round).size(), 15_000);
          Map<Integer, Long> got = receipts.get(round);
          long[] roundNanos = got.values().stream().mapToLong(at -> at - pushed).toArray();
          missed += options.students() - got.size();
          long lastAck = lastAckPerRound.computeIfAbsent(round, r -> new AtomicLong(pushed)).get();
          LatencyStats roundStats = LatencyStats.ofNanos(roundNanos);
          log.printf(Locale.ROOT, "%s %d: %d received, p50 %s, p99 %s; %d answers acknowledged in %.2f s%n",
              measured ? "question" : "warm-up question", n + 1, got.size(), LatencyStats.format(roundStats.p50Millis()),
              LatencyStats.format(roundStats.p99Millis()), ackedPerRound.get(round).get(), seconds(lastAck - pushed));
          if (measured) {
            for (long nanos : roundNanos) latencies.add(nanos);
            burstSeconds += seconds(Math.max(lastAck, pushed) - pushed);
            measuredAcked += ackedPerRound.get(round).get();
          }
          if (!complete) problems.add("round " + round + ": " + got.size() + " received, "
              + ackedPerRound.get(round).get() + " acknowledged before the timeout");
          send(instructor("/api/teach/classes/" + classId + "/live/reveal").POST(body(Map.of())), 200);
          Thread.sleep(options.pauseMillis());
        }
        await(() -> inFlight.get() == 0, 30_000);
        send(instructor("/api/teach/classes/" + classId + "/live/end").POST(body(Map.of())), 200);
        int reconnects = hub.streams().stream().mapToInt(s -> Math.max(0, s.connects() - 1)).sum();

        Map<String, Integer> onCsv = csvEventIds();
        int lost = 0;
        int doubled = 0;
        for (String id : sentIds) {
          int times = onCsv.getOrDefault(id, 0);
          if (times == 0) lost++;
          if (times > 1) doubled++;
        }
        int unexpected = (int) onCsv.keySet().stream().filter(id -> !sentIds.contains(id)).count();
        long[] nanos = latencies.stream().mapToLong(Long::longValue).toArray();
        synchronized (problems) {
          problems.stream().limit(10).forEach(p -> log.println("problem: " + p));
        }
        answerer.shutdown();
        return new Result(options.students(), connected, options.questions(), LatencyStats.ofNanos(nanos), missed,
            sentIds.size(), acknowledged.size(), burstSeconds == 0 ? 0 : measuredAcked / burstSeconds,
            duplicateResends.get(), resendsDifferent.get(), failedSends.get(), lost, doubled, unexpected, reconnects);
      }
    }

    private void signIn() throws IOException, InterruptedException {
      HttpResponse<String> res = http.send(HttpRequest.newBuilder(uri.resolve("/teach/login"))
          .header("Content-Type", "application/x-www-form-urlencoded")
          .header("Sec-Fetch-Site", "same-origin")
          .POST(HttpRequest.BodyPublishers.ofString("secret=" + URLEncoder.encode(secret, StandardCharsets.UTF_8)))
          .build(), HttpResponse.BodyHandlers.ofString());
      if (res.statusCode() != 303) {
        throw new IllegalStateException("instructor sign-in answered " + res.statusCode() + " (wrong secret?)");
      }
      instructorCookie = cookie(res.headers().allValues("Set-Cookie"), "eolab_instructor");
    }

    private void join(String code) throws Exception {
      cookies = new String[options.students()];
      ExecutorService pool = Executors.newFixedThreadPool(Math.min(8, options.students()));
      try {
        List<Future<?>> joins = new ArrayList<>();
        for (int i = 0; i < options.students(); i++) {
          int student = i;
          joins.add(pool.submit(() -> {
            try (LoopbackClient client = new LoopbackClient(address(student), uri.getHost(), uri.getPort())) {
              LoopbackClient.Response res = client.post("/api/join", "application/json",
                  JSON.writeValueAsString(Map.of("code", code, "nickname", "student-" + student)),
                  Map.of("Sec-Fetch-Site", "same-origin"));
              if (res.status() != 201) {
                throw new IllegalStateException("student " + student + " could not join: " + res.status() + " " + res.body());
              }
              cookies[student] = cookie(List.of(res.headers().getOrDefault("set-cookie", "").split("\n")), "eolab_learner");
            }
            return null;
          }));
        }
        for (Future<?> f : joins) f.get();
      } finally {
        pool.shutdown();
      }
    }

    /** Called on the hub's thread: never blocks. */
    private void received(int student, SseHub.Event event) {
      if (!event.type().equals("question") && !event.type().equals("idle")) return;
      if (answered.putIfAbsent(student, ConcurrentHashMap.newKeySet()) == null) firstEvents.incrementAndGet();
      if (!event.type().equals("question")) return;
      JsonNode data;
      try {
        data = JSON.readTree(event.data());
      } catch (IOException e) {
        problems.add("student " + student + ": unreadable question event " + event.data());
        return;
      }
      if (data.path("revealed").asBoolean(false)) return;
      String round = data.get("round").asText();
      receipts.computeIfAbsent(round, r -> new ConcurrentHashMap<>()).putIfAbsent(student, event.receivedNanos());
      if (!answered.get(student).add(round)) return;
      int options = data.path("options").size();
      inFlight.incrementAndGet();   // counted until the answer is handed to the HTTP client
      answerer.execute(() -> {
        try {
          answer(student, round, ThreadLocalRandom.current().nextInt(Math.max(1, options)));
        } finally {
          inFlight.decrementAndGet();
        }
      });
    }

    private void answer(int student, String round, int choice) {
      String id = UUID.randomUUID().toString();
      sentIds.add(id);
      String payload;
      try {
        payload = JSON.writeValueAsString(Map.of("id", id, "round", round, "choice", choice));
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
      ThreadLocalRandom random = ThreadLocalRandom.current();
      boolean resendAfterAck = random.nextDouble() < options.duplicateShare();
      boolean resendAtOnce = resendAfterAck && random.nextBoolean();
      CompletableFuture<HttpResponse<String>> first = post(student, payload, 3);
      if (resendAtOnce) {
        duplicateResends.incrementAndGet();
        CompletableFuture<HttpResponse<String>> twin = post(student, payload, 3);
        first.thenCombine(twin, (a, b) -> {
          if (a != null && b != null && (b.statusCode() != a.statusCode() || !b.body().equals(a.body()))) {
            resendsDifferent.incrementAndGet();
            problems.add("concurrent resend of " + id + " answered " + b.statusCode() + " " + b.body()
                + " vs " + a.statusCode() + " " + a.body());
          }
          return null;
        });
      }
      first.thenAccept(res -> {
        if (res == null || res.statusCode() != 200) return;
        acknowledged.add(id);
        ackedPerRound.computeIfAbsent(round, r -> new AtomicInteger()).incrementAndGet();
        lastAckPerRound.computeIfAbsent(round, r -> new AtomicLong()).accumulateAndGet(System.nanoTime(), Math::max);
        if (resendAfterAck) {
          duplicateResends.incrementAndGet();
          post(student, payload, 3).thenAccept(again -> {
            if (again == null || again.statusCode() != 200 || !again.body().equals(res.body())) {
              resendsDifferent.incrementAndGet();
              problems.add("resend of " + id + " answered " + (again == null ? "nothing" : again.statusCode() + " "
                  + again.body()) + " instead of the original " + res.body());
            }
          });
        }
      });
    }

    /** Sends one answer, retrying (same id) on a network error or a 5xx, as the browser outbox does. */
    private CompletableFuture<HttpResponse<String>> post(int student, String payload, int attemptsLeft) {
      inFlight.incrementAndGet();
      HttpRequest request = HttpRequest.newBuilder(uri.resolve("/api/classes/" + classId + "/answers"))
          .timeout(Duration.ofSeconds(30))
          .header("Content-Type", "application/json")
          .header("Sec-Fetch-Site", "same-origin")
          .header("Cookie", cookies[student])
          .POST(HttpRequest.BodyPublishers.ofString(payload)).build();
      return http.sendAsync(request, HttpResponse.BodyHandlers.ofString())
          .handle((res, error) -> {
            inFlight.decrementAndGet();
            if (error == null && res.statusCode() < 500) {
              if (res.statusCode() != 200) {
                problems.add("student " + student + " answer " + payload + " -> " + res.statusCode() + " " + res.body());
              }
              return CompletableFuture.completedFuture(res);
            }
            if (attemptsLeft > 1) return post(student, payload, attemptsLeft - 1);
            failedSends.incrementAndGet();
            problems.add("student " + student + " answer failed: " + (error != null ? error : res.statusCode() + " " + res.body()));
            return CompletableFuture.<HttpResponse<String>>completedFuture(null);
          })
          .thenCompose(f -> f);
    }

    /** Event id -> how many rows of the instructor's CSV export carry it (live answers of this class). */
    private Map<String, Integer> csvEventIds() throws IOException, InterruptedException {
      String csv = send(instructor("/teach/classes/" + classId + "/results.csv").GET(), 200);
      List<List<String>> rows = Csv.parse(csv);
      List<String> header = rows.get(0);
      int idColumn = header.indexOf("event_id");
      int sourceColumn = header.indexOf("source");
      if (idColumn < 0 || sourceColumn < 0) throw new IllegalStateException("the CSV has no event_id/source column: " + header);
      Map<String, Integer> counts = new HashMap<>();
      for (List<String> row : rows.subList(1, rows.size())) {
        if (row.size() <= idColumn || !"live".equals(row.get(sourceColumn))) continue;
        counts.merge(row.get(idColumn), 1, Integer::sum);
      }
      return counts;
    }

    private HttpRequest.Builder instructor(String path) {
      return HttpRequest.newBuilder(uri.resolve(path)).timeout(Duration.ofSeconds(30))
          .header("Cookie", instructorCookie)
          .header("Content-Type", "application/json")
          .header("Sec-Fetch-Site", "same-origin");
    }

    private String send(HttpRequest.Builder request, int expected) throws IOException, InterruptedException {
      HttpRequest built = request.build();
      HttpResponse<String> res = http.send(built, HttpResponse.BodyHandlers.ofString());
      if (res.statusCode() != expected) {
        throw new IllegalStateException(built.method() + " " + built.uri().getPath() + " answered " + res.statusCode()
            + " " + res.body());
      }
      return res.body();
    }
  }

  private static HttpRequest.BodyPublisher body(Object value) throws IOException {
    return HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(value));
  }

  private static JsonNode json(String text) throws IOException {
    return JSON.readTree(text);
  }

  private static String cookie(List<String> setCookies, String name) {
    for (String header : setCookies) {
      String pair = header.split(";", 2)[0].trim();
      if (pair.startsWith(name + "=") && pair.length() > name.length() + 1) return pair;
    }
    throw new IllegalStateException("no " + name + " cookie in " + setCookies);
  }

  private static boolean await(java.util.function.BooleanSupplier condition, long timeoutMillis)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) return false;
      Thread.sleep(5);
    }
    return true;
  }

  private static double seconds(long nanos) {
    return nanos / 1e9;
  }
}
