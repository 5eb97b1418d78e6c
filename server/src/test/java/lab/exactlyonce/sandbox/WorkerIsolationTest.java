package lab.exactlyonce.sandbox;

import lab.exactlyonce.TestJvm;
import lab.exactlyonce.sandbox.engine.Outcome;
import lab.exactlyonce.sandbox.engine.RunResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * One student's run cannot change what later runs of anyone see, through real worker JVMs: each row is an attack,
 * made on both workers (the light lane's, by a client whose last run was quick, and the heavy lane's, by a client
 * never seen), with a victim's run queued right behind it; then victims' ordinary runs on both workers must print
 * exactly what they print on a fresh worker.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("sandbox")
class WorkerIsolationTest {
  private static final AtomicInteger CLIENTS = new AtomicInteger();
  private static final long CACHE_BYTES = 128 * 1024;
  private Sandbox sandbox;

  /** Everything the attacks aim at, touched the ordinary way. */
  private static final String VICTIM = String.join("\n",
      "import java.util.*;",
      "import java.math.*;",
      "import java.time.*;",
      "public class Victim {",
      "  public static void main(String[] args) {",
      "    Scanner in = new Scanner(\"3 4\");",
      "    System.out.println(in.nextInt() + in.nextInt());",
      "    System.out.println(LocalDate.of(2024, 2, 28).plusDays(1) + \" \" + LocalDate.parse(\"2024-03-01\").getDayOfWeek());",
      "    System.out.println(Duration.ofMinutes(90) + \" \" + Duration.between(Instant.EPOCH, Instant.ofEpochSecond(61)));",
      "    System.out.println(new BigDecimal(\"1.10\").add(new BigDecimal(\"2.205\")) + \" \" + new BigDecimal(\"10\").divide(new BigDecimal(\"4\")));",
      "    System.out.println(0.1 + 0.2);",
      "    System.out.println(1.0 / 3 + \" \" + 2.5f + \" \" + 1e-9 + \" \" + (double) Long.MAX_VALUE);",
      "    System.out.println(String.format(Locale.ROOT, \"%.3f|%5d|%s|%,d\", Math.PI, 42, \"s\", 1234567));",
      "    System.out.println(String.valueOf(Locale.getDefault()));",
      "    System.out.println(String.join(\",\", \"a1b22\".split(\"[0-9]+\")) + \" \" + new TreeMap<String, Integer>(Collections.singletonMap(\"k\", 1)));",
      "    System.out.println(Integer.valueOf(127) == Integer.valueOf(127));",
      "  }",
      "}");

  private static String expectedVictimOutput() {
    return "7\n2024-02-29 FRIDAY\nPT1H30M PT1M1S\n3.305 2.5\n0.30000000000000004\n"
        + "0.3333333333333333 2.5 1.0E-9 9.223372036854776E18\n3.142|   42|s|1,234,567\n"
        + "en_US\na,b {k=1}\ntrue\n"; // every worker's default locale, whatever the host's
  }

  /**
   * Keeps 176 MB live, close under the 192 MB a run may keep: every run must still get that much of the heap,
   * whatever earlier runs compiled.
   */
  private static final String KEEPS_176_MB = main("java.util.List<long[]> keep = new java.util.ArrayList<long[]>();"
      + " for (int i = 0; i < 176; i++) keep.add(new long[131072]); System.out.println(\"kept \" + keep.size() + \" MB\");");

  private static String main(String body) {
    return "public class Main {\n  public static void main(String[] args) {\n    " + body + "\n  }\n}\n";
  }

  /**
   * Recurses to the stack limit, then touches {@code expr} in every frame on the way up until it works: each
   * overflow inside the touch unwinds one frame, where the next try has a little more stack, so one of them starts
   * the class's static initialiser with almost no stack left.
   */
  private static String overflowThenTouch(String expr) {
    return "public class Attack {\n  static void f(int n) {\n    try { f(n + 1); } catch (StackOverflowError e) {"
        + " Object o = " + expr + "; }\n  }\n"
        + "  public static void main(String[] args) {\n    try { f(0); System.out.println(\"attack done\"); }"
        + " catch (Throwable t) { System.out.println(\"attack broke \" + t); }\n  }\n}\n";
  }

  /**
   * Distinct sources whose class files are several times their size, more than the test sandbox's compile cache
   * budget holds ({@link #CACHE_BYTES}; the bound itself is AnswerCapsTest's), so later runs meet a cache that
   * had to evict.
   */
  private static List<String> bigSources(int salt) {
    List<String> sources = new ArrayList<>();
    String values = String.join(",", Collections.nCopies(2000, "7"));
    for (int s = 0; s < 12; s++) {
      StringBuilder methods = new StringBuilder();
      for (int m = 0; m < 2; m++) methods.append("static int[] a").append(m).append("() { return new int[] {").append(values).append("}; }\n");
      sources.add("public class Big" + salt + "x" + s + " {\n  public static void main(String[] args) {"
          + " System.out.println(a0().length); }\n" + methods + "}\n");
    }
    return sources;
  }

  /** Each row: the attack, the outcome the attacker gets, what it prints (null: not asserted). */
  static Stream<Arguments> attacks() {
    return Stream.of(
        arguments("stack overflow, then first touch of Scanner", List.of(overflowThenTouch("new java.util.Scanner(\"1\").nextInt()")), Outcome.OK, null),
        arguments("stack overflow, then first touch of LocalDate", List.of(overflowThenTouch("java.time.LocalDate.parse(\"2024-03-01\")")), Outcome.OK, null),
        arguments("stack overflow, then first touch of Duration", List.of(overflowThenTouch("java.time.Duration.ofSeconds(n)")), Outcome.OK, null),
        arguments("stack overflow, then first touch of BigDecimal", List.of(overflowThenTouch("new java.math.BigDecimal(\"1.5\").divide(new java.math.BigDecimal(\"4\"))")), Outcome.OK, null),
        arguments("stack overflow, then first printing of a double", List.of(overflowThenTouch("\"\" + (0.1 + n)")), Outcome.OK, null),
        arguments("stack overflow escaping main", List.of(main("down(0);\n  }\n  static int down(int n) { return down(n + 1) + 1;")), Outcome.RUNTIME_ERROR, ""),
        arguments("running out of heap", List.of(main("java.util.List<long[]> keep = new java.util.ArrayList<long[]>();"
            + " while (true) keep.add(new long[1 << 20]);")), Outcome.MEMORY_LIMIT, ""),
        arguments("many big distinct sources to fill the compile cache", bigSources(CLIENTS.incrementAndGet()), Outcome.OK, "2000\n"),
        arguments("changing the default locale",
            List.of(main("java.util.Locale.setDefault(java.util.Locale.GERMANY);")), Outcome.REJECTED, ""),
        arguments("changing the default time zone", List.of(main("java.util.TimeZone.setDefault(null);")),
            Outcome.REJECTED, ""),
        arguments("changing a system property", List.of(main("System.setProperty(\"line.separator\", \"|\");")),
            Outcome.REJECTED, ""),
        arguments("filling the string table", List.of(main("System.out.println(new String(\"x\").intern());")),
            Outcome.REJECTED, ""));
  }

  @BeforeAll
  void start() throws InterruptedException {
    SandboxSettings defaults = TestJvm.sandboxDefaults();
    sandbox = new Sandbox(defaults.withWorkers(2).withSpareWorkers(1)
        .withLimits(defaults.limits().withCacheBytes(CACHE_BYTES)));
    assertTrue(sandbox.awaitReady(Duration.ofSeconds(60)), "workers ready");
  }

  @AfterAll
  void stop() {
    sandbox.close();
  }

  private RunResult run(String client, String source) throws Exception {
    return sandbox.submit(RunRequest.run(client, source)).get(60, TimeUnit.SECONDS);
  }

  /** A client whose last run was quick and clean: its runs go to the light lane's worker. */
  private String lightClient(String name) throws Exception {
    String client = name + "-" + CLIENTS.incrementAndGet();
    assertEquals("hi\n", run(client, main("System.out.println(\"hi\");")).stdout());
    return client;
  }

  /** A client never seen: its runs go to the heavy lane's worker. */
  private static String newClient(String name) {
    return name + "-" + CLIENTS.incrementAndGet();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("attacks")
  void leaves_nothing_behind_for_later_runs(String attack, List<String> sources, Outcome outcome, String stdout)
      throws Exception {
    String lightAttacker = lightClient("light-attacker");
    String lightVictim = lightClient("light-victim");
    for (String attacker : List.of(lightAttacker, newClient("new-attacker"))) {
      CompletableFuture<RunResult> first = sandbox.submit(RunRequest.run(attacker, sources.get(0)));
      // right behind the attack, on the same lane: it must neither be lost nor land on a damaged worker
      CompletableFuture<RunResult> queuedBehind =
          sandbox.submit(RunRequest.run(attacker.startsWith("light") ? lightVictim : newClient("new-victim"), VICTIM));
      List<RunResult> results = new ArrayList<>(List.of(first.get(60, TimeUnit.SECONDS)));
      for (String source : sources.subList(1, sources.size())) results.add(run(attacker, source));
      for (RunResult r : results) {
        assertEquals(outcome, r.status(), () -> attack + " by " + attacker + ": " + r);
        // The overflow rows print "attack done" or, when the deep touch fails another way first (regex compilation
        // overflowing inside Scanner), "attack broke ...": the attacker's own affair; what matters is the victims.
        if (stdout != null && outcome != Outcome.REJECTED) assertEquals(stdout, r.stdout(), () -> attack + ": " + r);
      }
      assertVictim(queuedBehind.get(60, TimeUnit.SECONDS), attack + ", the run queued behind it");
    }
    assertVictim(run(lightVictim, VICTIM), attack + ", light lane");
    assertVictim(run(newClient("new-victim"), VICTIM), attack + ", heavy lane");
    RunResult heap = run(newClient("heap-victim"), KEEPS_176_MB);
    assertEquals("kept 176 MB\n", heap.stdout(), () -> attack + ": " + heap);
    RunResult lightHeap = run(lightVictim, KEEPS_176_MB);
    assertEquals("kept 176 MB\n", lightHeap.stdout(), () -> attack + ": " + lightHeap);
  }

  /** Each row: a way to get random numbers, the statement that sets it up, the expression for one value. */
  static Stream<Arguments> randomness() {
    return Stream.of(
        arguments("Math.random()", "", "Math.random()"),
        arguments("StrictMath.random()", "", "StrictMath.random()"),
        arguments("new Random()", "java.util.Random r = new java.util.Random();", "r.nextDouble()"),
        arguments("ThreadLocalRandom", "", "java.util.concurrent.ThreadLocalRandom.current().nextDouble()"));
  }

  /**
   * The attack: a learner recovers the generator's state from its own run's numbers and predicts the numbers of the
   * next learner's run on the same worker (both clients are light, and the light lane has one worker).
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("randomness")
  void one_runs_random_numbers_do_not_predict_the_next_runs(String how, String setup, String value)
      throws Exception {
    String source = main(setup + " for (int i = 0; i < 4; i++) System.out.println(" + value + ");");
    String attacker = lightClient("random-attacker");
    String victim = lightClient("random-victim");
    List<Double> attackers = doubles(run(attacker, source), how);
    List<Double> victims = doubles(run(victim, source), how);

    long state = RandomCracker.stateAfter(attackers.get(0), attackers.get(1))
        .orElseThrow(() -> new AssertionError(how + ": not the values of a java.util.Random: " + attackers));
    long[] model = {state};
    assertEquals(attackers.subList(2, 4), List.of(RandomCracker.nextDouble(model), RandomCracker.nextDouble(model)),
        how + ": the attacker's model of its own generator");
    Set<Double> predicted = new HashSet<>();
    for (int i = 0; i < 100_000; i++) predicted.add(RandomCracker.nextDouble(model));
    assertFalse(predicted.contains(victims.get(0)), how + ": the next run's numbers continue the attacker's: "
        + attackers + " then " + victims);
    assertNotEquals(attackers, victims, how);
  }

  /**
   * The attack on {@code new Random()}: its seed is a JVM-wide uniquifier xor the clock, and a learner who reads the
   * clock around it finds where the worker's uniquifier is, and so the next learner's.
   */
  @Test
  void new_random_is_seeded_from_neither_the_jvm_wide_uniquifier_nor_the_clock() throws Exception {
    RunResult r = run(lightClient("seed-attacker"), main("long before = System.nanoTime();"
        + " java.util.Random r = new java.util.Random(); long after = System.nanoTime();"
        + " System.out.println(r.nextDouble()); System.out.println(r.nextDouble());"
        + " System.out.println(before); System.out.println(after);"));
    assertEquals(Outcome.OK, r.status(), r::toString);
    String[] lines = r.stdout().split("\n");
    long state = RandomCracker.stateAfter(Double.parseDouble(lines[0]), Double.parseDouble(lines[1]))
        .orElseThrow(() -> new AssertionError("not the values of a java.util.Random: " + r.stdout()));
    long seed = RandomCracker.seedBits(state, 2);
    assertFalse(RandomCracker.fromUniquifierAndClock(seed, Long.parseLong(lines[2]), Long.parseLong(lines[3]), 100_000),
        () -> "the seed is the worker's uniquifier xor the clock: " + r.stdout());
  }

  @Test
  void one_runs_uuids_say_nothing_of_the_next_runs() throws Exception {
    String source = main("for (int i = 0; i < 3; i++) System.out.println(java.util.UUID.randomUUID());");
    String attacker = lightClient("uuid-attacker");
    String victim = lightClient("uuid-victim");
    List<String> uuids = new ArrayList<>();
    for (String client : List.of(attacker, victim)) {
      RunResult r = run(client, source);
      assertEquals(Outcome.OK, r.status(), r::toString);
      uuids.addAll(List.of(r.stdout().split("\n")));
    }
    assertEquals(6, new HashSet<>(uuids).size(), uuids::toString);
    for (String uuid : uuids) assertEquals(4, java.util.UUID.fromString(uuid).version(), uuid);
  }

  /** Each row: damage after which a worker retires, and the outcome its learner gets. */
  static Stream<Arguments> damage() {
    return Stream.of(
        arguments("a stack overflow", main("down(0);\n  }\n  static int down(int n) { return down(n + 1) + 1;"),
            Outcome.RUNTIME_ERROR),
        // One allocation past the worker's heap: the JVM runs out of heap before any live-data limit could stop it.
        arguments("running out of heap", main("System.out.println(\"x\".repeat(1 << 30).length());"),
            Outcome.MEMORY_LIMIT));
  }

  /**
   * On a loaded pool (the heavy lane's worker spinning in a loop), a benign run queued right behind a run that
   * damages the light lane's only worker is answered by the warm spare: before a new worker could have started and
   * warmed up. The replacement spare's start is the yardstick, measured in the same conditions.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("damage")
  void a_run_right_after_damage_does_not_wait_for_a_worker_to_start(String damage, String source, Outcome outcome)
      throws Exception {
    assertTrue(sandbox.awaitReady(Duration.ofSeconds(60)), "workers and the spare ready");
    String attacker = lightClient("damage-attacker");
    String victim = lightClient("damage-victim");
    // Sources no worker has run: each run below compiles, as a learner's edited code does.
    int salt = CLIENTS.incrementAndGet();
    String benign = main("System.out.println(\"fine\"); // " + salt);
    CompletableFuture<RunResult> loop = sandbox.submit(RunRequest.run(newClient("looper"), main("while (true) { }")));
    await("the loop holds the heavy lane").atMost(Duration.ofSeconds(30)).pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(10)).until(() -> sandbox.busyWorkers() == 1);
    long ordinaryStart = System.nanoTime();
    assertEquals("fine\n", run(victim, main("System.out.println(\"fine\"); // ordinary " + salt)).stdout());
    long ordinaryMs = (System.nanoTime() - ordinaryStart) / 1_000_000;

    CompletableFuture<Long> damaged = sandbox.submit(RunRequest.run(attacker, source)).thenApply(r -> {
      assertEquals(outcome, r.status(), () -> damage + ": " + r);
      return System.nanoTime();
    });
    CompletableFuture<Long> answered = sandbox.submit(RunRequest.run(victim, benign)).thenApply(r -> {
      assertEquals("fine\n", r.stdout(), () -> damage + ", the run behind it: " + r);
      return System.nanoTime();
    });
    long damagedAt = damaged.get(60, TimeUnit.SECONDS);
    long answeredMs = (answered.get(60, TimeUnit.SECONDS) - damagedAt) / 1_000_000;
    await("a new spare").atMost(Duration.ofSeconds(60)).pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(10)).until(sandbox::hasSpare);
    long workerStartMs = (System.nanoTime() - damagedAt) / 1_000_000;

    String measured = damage + ": the run behind it was answered " + answeredMs + " ms after it (an ordinary run: "
        + ordinaryMs + " ms); a new worker took " + workerStartMs + " ms to start";
    System.out.println(measured);
    assertTrue(answeredMs < workerStartMs, measured);
    assertEquals(Outcome.TIMEOUT, loop.get(60, TimeUnit.SECONDS).status());
  }

  private static List<Double> doubles(RunResult r, String how) {
    assertEquals(Outcome.OK, r.status(), () -> how + ": " + r);
    return Stream.of(r.stdout().split("\n")).map(Double::valueOf).toList();
  }

  private static void assertVictim(RunResult r, String where) {
    assertEquals(Outcome.OK, r.status(), () -> where + ": " + r);
    assertEquals(expectedVictimOutput(), r.stdout(), where);
  }
}
