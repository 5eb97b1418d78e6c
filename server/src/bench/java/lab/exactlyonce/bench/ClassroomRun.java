package lab.exactlyonce.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import lab.exactlyonce.bench.ClassroomLoad.Options;
import lab.exactlyonce.bench.ClassroomLoad.Result;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
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
import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;

/** One run of the classroom load scenario against {@code base}: see {@link ClassroomLoad}. */
final class ClassroomRun {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Options options;
  private final String base;
  private final String secret;
  private final PrintStream log;
  private final URI uri;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private String instructorCookie;
  private String classId;
  private String[] cookies;
  private final QuestionReceipts receipts = new QuestionReceipts();
  private final Set<String> sentIds = ConcurrentHashMap.newKeySet();
  private final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
  private final Map<String, AtomicInteger> ackedPerRound = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> lastAckPerRound = new ConcurrentHashMap<>();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger duplicateResends = new AtomicInteger();
  private final AtomicInteger resendsDifferent = new AtomicInteger();
  private final AtomicInteger failedSends = new AtomicInteger();
  /** Tries per answer: the page retries until acknowledged; six tries back off over about 15 s. */
  private static final int SEND_ATTEMPTS = 6;
  private final List<String> problems = Collections.synchronizedList(new ArrayList<>());
  private final AtomicInteger firstEvents = new AtomicInteger();
  /** Answers are sent from here, so the hub's thread only reads and timestamps (sending would delay reading). */
  private final ExecutorService answerer = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "answerer");
    t.setDaemon(true);
    return t;
  });

  /** Told the number of each timed question (1 = the first) right after its push. */
  private final IntConsumer afterPush;

  ClassroomRun(Options options, String base, String secret, PrintStream log, IntConsumer pushed) {
    this.options = options;
    this.base = base;
    this.secret = secret;
    this.log = log;
    this.uri = URI.create(base);
    this.afterPush = pushed;
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
        hub.open(InetAddress.getByName(ClassroomLoad.address(i)), "/api/classes/" + classId + "/stream",
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
        receipts.of(round);
        if (measured) afterPush.accept(n - warmup + 1);
        // The instructor reveals once every student's answer is in: a reveal closes the round, so one made while
        // answers were still on their way (a cold node on a busy host took 15 s for 300) would refuse them. The
        // guard only ends a round that would never complete; the log says how long each round took.
        boolean complete = await(() -> receipts.of(round).size() >= connected
            && ackedPerRound.computeIfAbsent(round, r -> new AtomicInteger()).get() >= receipts.of(round).size(), 60_000);
        Map<Integer, Long> got = receipts.of(round);
        long[] roundNanos = got.values().stream().mapToLong(at -> at - pushed).toArray();
        missed += options.students() - got.size();
        long lastAck = lastAckPerRound.computeIfAbsent(round, r -> new AtomicLong(pushed)).get();
        LatencyStats roundStats = LatencyStats.ofNanos(roundNanos);
        log.printf(Locale.ROOT, "%s %d: %d received, p50 %s, p99 %s; %d answers acknowledged in %.2f s%n",
            measured ? "question" : "warm-up question", measured ? n - warmup + 1 : n + 1, got.size(), LatencyStats.format(roundStats.p50Millis()),
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
      Csv.Tally tally = Csv.Tally.of(onCsv, sentIds);
      int lost = tally.lost();
      int doubled = tally.doubled();
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
          try (LoopbackClient client = new LoopbackClient(ClassroomLoad.address(student), uri.getHost(), uri.getPort())) {
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
    if (receipts.seen(student)) firstEvents.incrementAndGet();
    Optional<JsonNode> question = receipts.firstSight(student, event, problems);
    if (question.isEmpty()) return;
    JsonNode data = question.get();
    String round = data.get("round").asText();
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
    CompletableFuture<HttpResponse<String>> first = post(student, payload, SEND_ATTEMPTS);
    if (resendAtOnce) {
      duplicateResends.incrementAndGet();
      CompletableFuture<HttpResponse<String>> twin = post(student, payload, SEND_ATTEMPTS);
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
        post(student, payload, SEND_ATTEMPTS).thenAccept(again -> {
          if (again == null || again.statusCode() != 200 || !again.body().equals(res.body())) {
            resendsDifferent.incrementAndGet();
            problems.add("resend of " + id + " answered " + (again == null ? "nothing" : again.statusCode() + " "
                + again.body()) + " instead of the original " + res.body());
          }
        });
      }
    });
  }

  /** Sends one answer, retrying (same id) with backoff on a network error or a 5xx, as the browser outbox does. */
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
          if (attemptsLeft > 1) {
            // As the page's outbox does: back off 0.5 s, 1 s, 2 s, ... so a node dying under load is waited out.
            long backoff = Math.min(10_000, 500L << Math.max(0, SEND_ATTEMPTS - attemptsLeft));
            inFlight.incrementAndGet(); // still on its way while it waits: the run must not end in the gap
            return CompletableFuture.supplyAsync(() -> null,
                    CompletableFuture.delayedExecutor(backoff, TimeUnit.MILLISECONDS))
                .thenCompose(ignored -> {
                  CompletableFuture<HttpResponse<String>> again = post(student, payload, attemptsLeft - 1);
                  inFlight.decrementAndGet();
                  return again;
                });
          }
          failedSends.incrementAndGet();
          problems.add("student " + student + " answer failed: " + (error != null ? error : res.statusCode() + " " + res.body()));
          return CompletableFuture.<HttpResponse<String>>completedFuture(null);
        })
        .thenCompose(f -> f);
  }

  /** Event id -> how many rows of the instructor's CSV export carry it (live answers of this class). */
  private Map<String, Integer> csvEventIds() throws IOException, InterruptedException {
    return Csv.liveEventIds(send(instructor("/teach/classes/" + classId + "/results.csv").GET(), 200));
  }

  private HttpRequest.Builder instructor(String path) {
    return HttpRequest.newBuilder(uri.resolve(path)).timeout(Duration.ofSeconds(30))
        .header("Cookie", instructorCookie)
        .header("Content-Type", "application/json")
        .header("Sec-Fetch-Site", "same-origin");
  }

  private String send(HttpRequest.Builder request, int expected) throws IOException, InterruptedException {
    HttpRequest built = request.build();
    HttpResponse<String> res;
    try {
      res = http.send(built, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      // A kept-alive connection to a node that has died since: the request never reached a node, so it is sent
      // once more, on a new connection to a live one (a browser reloading would do the same).
      log.println("instructor request " + built.method() + " " + built.uri().getPath() + " failed (" + e
          + "); sending it again");
      res = http.send(built, HttpResponse.BodyHandlers.ofString());
    }
    if (res.statusCode() != expected) {
      throw new IllegalStateException(built.method() + " " + built.uri().getPath() + " answered " + res.statusCode()
          + " " + res.body());
    }
    return res.body();
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

  private static boolean await(BooleanSupplier condition, long timeoutMillis)
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
