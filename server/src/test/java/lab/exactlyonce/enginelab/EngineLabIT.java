package lab.exactlyonce.enginelab;

import com.fasterxml.jackson.databind.JsonNode;
import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.assertions.LocatorAssertions;
import lab.exactlyonce.AxeScan;
import lab.exactlyonce.BrowserTest;
import lab.exactlyonce.OwnContexts;
import lab.exactlyonce.TestConfig;
import lab.exactlyonce.TestServer;
import lab.exactlyonce.quiz.RecordedRunFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestClassOrder;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static lab.exactlyonce.CookieClient.JSON;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The engine lab on a real Kafka broker and a real Flink job: the lesson's claims through the app's HTTP routes, the
 * engines' confinement attacked from the host, the outbox lesson's crash on PostgreSQL and a relay, and the Sandbox
 * tab's real runs in a browser. One app, whose engine process (a broker and a Flink cluster, the heaviest thing the
 * suite starts; PostgreSQL from the outbox group on) warms once for all four groups, which run in this order. Needs the engine lab's jar, which {@code mvn package} builds; {@code mvn verify} runs this after
 * it.
 */
@Tag("enginelab")
@TestClassOrder(ClassOrderer.OrderAnnotation.class)
class EngineLabIT {
  private static final String SEED = "{\"scenario\":\"seed-crash\",\"knobs\":{\"CRASH_AFTER\":4,\"CHECKPOINT_AFTER\":2,"
      + "\"CRASH_BEFORE_COMPLETE\":false,\"CRASH_BEFORE_COMMIT\":false}}";

  /** Any uid of the host that is neither the server's, nor the engines', nor a worker's. */
  private static final String STRANGER = "65123";
  private static final boolean ROOT = "0".equals(status(Path.of("/proc/self/status")).get("Uid"));

  private static TestServer server;

  static EngineLabSettings settings() {
    Path jar = Path.of(System.getProperty("eolab.test.engine-lab-jar", EngineLabSettings.DEFAULT_JAR.toString()));
    return EngineLabSettings.disabled().enabledWith(jar).withQueueLength(1);
  }

  @BeforeAll
  static void start() {
    server = TestServer.start(TestConfig.defaults().withEngineLab(settings()));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** The seed's runs, the bounded queue, every recorded run again, and a worn engine process renewed. */
  @Nested
  @Order(1)
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  class RealRuns {
    /**
     * First: the engines warm up with the app, before anyone asks for a run, on the seed's own settings (the sink
     * demo's defaults), whose result is then kept.
     */
    @Test
    @Order(1)
    void the_seeds_crash_fencing_and_the_timeout_gotcha_on_the_real_engines() throws Exception {
      JsonNode catalog = JSON.readTree(server.get("/api/lab/scenarios").body());
      assertTrue(List.of("warming", "warm").contains(catalog.get("engines").asText()),
          "no run was asked for, yet the engines start with the app: " + catalog.get("engines"));
      await("the engines warm").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200)).until(() ->
          JSON.readTree(server.get("/api/lab/scenarios").body()).get("engines").asText().equals("warm"));
      HttpResponse<String> submitted = server.postJson("/api/lab/real-runs", SEED);
      assertEquals(200, submitted.statusCode(), "the warm-up's result, kept: " + submitted.body());
      String seedRun = JSON.readTree(submitted.body()).get("id").asText();
      assertTrue(JSON.readTree(server.get("/api/lab/scenarios").body()).get("typicalRunSeconds").asLong() >= 1);

      List<Integer> flood = new ArrayList<>();
      for (int crashAfter = 1; crashAfter <= 5; crashAfter++) {
        HttpResponse<String> res = server.postJson("/api/lab/real-runs",
            "{\"scenario\":\"seed-crash\",\"knobs\":{\"CRASH_AFTER\":" + crashAfter + ",\"CHECKPOINT_AFTER\":1}}");
        flood.add(res.statusCode());
        if (res.statusCode() == 429) assertTrue(res.headers().firstValue("Retry-After").isPresent(), res.body());
      }
      assertEquals(List.of(202, 202, 429, 429, 429), flood, "one run runs, one waits behind it, the rest are refused");

      JsonNode seed = awaitResult(server, seedRun);
      assertReader(seed, "read_committed", 5, 150, "[\"o1\",\"o2\",\"o3\",\"o4\",\"o5\"]");
      assertReader(seed, "read_uncommitted", 7, 220, "[\"o1\",\"o2\",\"o3\",\"o4\",\"o3\",\"o4\",\"o5\"]");
      assertReader(seed, "at_least_once", 7, 220, "[\"o1\",\"o2\",\"o3\",\"o4\",\"o3\",\"o4\",\"o5\"]");
      HttpResponse<String> cached = server.postJson("/api/lab/real-runs", SEED);
      assertEquals(200, cached.statusCode(), "the same settings again get the kept result: " + cached.body());
      assertEquals(seed, JSON.readTree(cached.body()).get("result"));
      for (int crashAfter = 1; crashAfter <= 2; crashAfter++) {
        awaitResult(server, submit(server, "{\"scenario\":\"seed-crash\",\"knobs\":{\"CRASH_AFTER\":" + crashAfter
            + ",\"CHECKPOINT_AFTER\":1}}")); // the flood's two runs end before the next scenarios queue
      }

      JsonNode fencing = awaitResult(server, submit(server, "{\"scenario\":\"fencing\"}"));
      assertEquals("org.apache.kafka.common.errors.InvalidProducerEpochException", fencing.at("/errors/0/class").asText());
      assertEquals("Producer attempted to produce with an old epoch.", fencing.at("/errors/0/message").asText());
      assertReader(fencing, "read_committed", 1, 10, "[\"o1\"]");
      assertReader(fencing, "read_uncommitted", 2, 20, "[\"o1\",\"o1\"]");

      JsonNode gotcha = awaitResult(server, submit(server, "{\"scenario\":\"timeout-gotcha\"}"));
      assertEquals("org.apache.kafka.common.KafkaException", gotcha.at("/errors/0/class").asText());
      assertEquals("Unexpected error in InitProducerIdResponse; The transaction timeout is larger than the maximum"
          + " value allowed by the broker (as configured by transaction.max.timeout.ms).",
          gotcha.at("/errors/0/message").asText());
      assertReader(gotcha, "read_committed", 5, 150, "[\"o1\",\"o2\",\"o3\",\"o4\",\"o5\"]");

      assertEquals(404, server.get("/api/lab/real-runs/ffffffffffffffff").statusCode());
      assertEquals(404, server.get("/api/lab/real-runs/..%2F..%2Fetc").statusCode());
    }

    /**
     * The quiz asks about figures recorded in {@code lessons/exactly-once/real-runs.yaml}: each recorded setting runs
     * again here (those the first test ran come back kept), and any difference fails with what the engines gave, in
     * the file's layout, and the versions of the engines in the jar.
     */
    @Test
    @Order(2)
    void every_run_the_quiz_recorded_gives_the_recorded_figures_on_the_engines() throws Exception {
      RecordedRunFile file = RecordedRunFile.bundled();
      List<JsonNode> results = new ArrayList<>();
      for (String request : file.requests()) results.add(awaitResult(server, submit(server, request)));
      Path jar = settings().jar();
      assertEquals(file.recorded(), file.actual(version(jar, "kafka/kafka-version.properties", "version"),
              version(jar, ".flink-runtime.version.properties", "project.version"), results),
          "lessons/exactly-once/real-runs.yaml differs from what the engines gave");
    }

    /**
     * A process that has served its runs is replaced between runs by a fresh one with its engines already started:
     * the run after the renewal gives the same figures and skips the broker's start. Its topics and transactional ids
     * carry another name, which no one could have guessed and created first. (A process of its own, worn after one
     * run, beside the app's.)
     */
    @Test
    @Order(3)
    void a_worn_engine_process_is_replaced_by_a_started_one_between_runs() throws Exception {
      try (EngineProcess engines = new EngineProcess(settings(), 1)) {
        JsonNode first = engines.run("fencing", Map.of(), phase -> { });
        long pid = engines.pid().orElseThrow();
        engines.renewIfWorn();
        long renewed = engines.pid().orElseThrow();
        assertNotEquals(pid, renewed, "one run wears this process out");
        assertTrue(engines.warm());

        StringBuilder phases = new StringBuilder();
        JsonNode after = engines.run("fencing", Map.of(), phase -> phases.append(phase).append(' '));
        assertEquals(renewed, engines.pid().orElseThrow());
        assertEquals("running reading-topics ", phases.toString(), "the fresh process started its broker before this run");
        assertEquals(first.get("readers").toString(), after.get("readers").toString());
        assertUnguessablyNamed(first.get("runName").asText(), after.get("runName").asText());
        // the zombie's failed send may end its transaction before its commit fails, or not: one error or two
        assertEquals(Set.copyOf(first.get("errors").findValuesAsText("class")),
            Set.copyOf(after.get("errors").findValuesAsText("class")));
      }
    }
  }

  /**
   * Attacks on the app's engines from the host, asserting what must not happen: another local account reaching the
   * broker, its controller or Flink's REST endpoint (no password asks it to stop cancelling jobs or creating topics),
   * or its files, and the engines running as the server's uid, with new privileges or without the filter.
   */
  @Nested
  @Order(2)
  class Confinement {
    @Test
    void the_engine_jvm_runs_as_its_own_uid_with_no_new_privileges_and_the_filter_in_its_own_namespaces()
        throws IOException {
      Path proc = Path.of("/proc", String.valueOf(enginePid()));
      Map<String, String> status = status(proc.resolve("status"));
      // an unprivileged server has no other uid to give them: there the namespaces are all they get
      if (ROOT) assertEquals(String.valueOf(EngineLabIT.settings().uid()), status.get("Uid"), "not the server's uid 0");
      assertEquals("1", status.get("NoNewPrivs"), "NoNewPrivs");
      assertEquals("2", status.get("Seccomp"), "Seccomp");
      assertEquals("0000000000000000", status.get("CapEff"), "CapEff");
      for (String ns : List.of("net", "mnt", "pid")) {
        assertNotEquals(Files.readSymbolicLink(Path.of("/proc/self/ns", ns)),
            Files.readSymbolicLink(proc.resolve("ns").resolve(ns)), "the engines share the server's " + ns);
      }
    }

    /**
     * Every TCP port the engine JVM listens on (the broker's, the controller's, Flink's REST, RPC and blob ports): from
     * inside its network namespace a stranger's connection is accepted (so the ports are real), from the host refused.
     * The host's ports are another namespace's: a process of the host may listen on the same number (another test's
     * app, say), and a connection it accepts has not reached the engines.
     */
    @Test
    void no_other_account_on_the_host_reaches_a_port_of_the_engines() throws Exception {
      assumeTrue(ROOT, "switching to a stranger's uid takes root");
      long pid = enginePid();
      Set<Integer> ports = listening(Path.of("/proc/" + pid + "/net"), socketsOf(pid));
      assertTrue(ports.size() >= 3, "the broker, its controller and Flink's REST endpoint listen: " + ports);
      for (int port : ports) {
        assertEquals(0, connectAsStranger(port, List.of("nsenter", "--net=/proc/" + pid + "/ns/net")),
            "inside the engines' namespace port " + port + " accepts");
        if (connectAsStranger(port, List.of()) == 0) {
          assertTrue(listening(Path.of("/proc/self/net"), inode -> true).contains(port),
              "uid " + STRANGER + " reached the engines' port " + port + ", and no socket of the host listens there");
        }
      }
    }

    /** Its directory (its temp dir, with Kafka's log dirs and Flink's files) is its uid's alone. */
    @Test
    void no_other_account_opens_the_engines_files() throws Exception {
      assumeTrue(ROOT, "switching to a stranger's uid takes root");
      long pid = enginePid();
      Path dir = Files.readSymbolicLink(Path.of("/proc/" + pid + "/cwd"));
      assertEquals(EngineLabIT.settings().uid(), Files.getAttribute(dir, "unix:uid"), dir.toString());
      assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
      try (Stream<Path> files = Files.list(dir)) {
        List<Path> kafka = files.filter(f -> f.getFileName().toString().startsWith("kafka")).toList();
        assertTrue(!kafka.isEmpty(), "the broker keeps its logs under the engines' temp dir " + dir);
        for (Path f : kafka) assertEquals(EngineLabIT.settings().uid(), Files.getAttribute(f, "unix:uid"), f.toString());
      }
      assertNotEquals(0, asStranger(List.of(), "ls " + dir), "uid " + STRANGER + " listed " + dir);
    }
  }

  /**
   * The Sandbox tab's "Run on real Kafka + Flink": the real readers' figures beside the simulation's, agreeing; a
   * moved knob changes both; fencing shows the real exception. Last: its end closes the app (a second close of it at
   * the class's end does nothing).
   */
  @Nested
  @Order(4) // last: the browser tests' base class closes the app after them
  class SandboxTab extends BrowserTest {
    /** A warm run on a loaded host, with the simulation beside it. */
    private static final LocatorAssertions.HasTextOptions SLOW = new LocatorAssertions.HasTextOptions().setTimeout(60_000);

    /** The class's app, its engines warm: the seed's own settings ran first, so their result is kept. */
    @Override
    protected TestServer startServer() {
      return EngineLabIT.server;   // not the inherited field of the same name
    }

    private Locator open(int width, int height, boolean mobile) {
      reopen(new Browser.NewContextOptions().setViewportSize(width, height).setIsMobile(mobile));
      page.navigate(url("/lessons/exactly-once#sandbox"));
      Locator demo = page.locator("[id='sandbox/sink-demo']");
      assertThat(demo.locator(".CodeMirror")).isVisible();
      return demo.locator("[data-real-run]");
    }

    private static Locator cell(Locator real, String reader, String column) {
      return real.locator("[data-reader='" + reader + "'] [data-" + column + "]");
    }

    @OwnContexts
    @Test
    void on_a_desktop_the_seeds_crash_on_the_real_engines_agrees_with_the_simulation_then_fencing_shows_the_real_error() {
      Locator real = open(1280, 800, false);
      assertThat(real.locator(".real-run-intro")).containsText(" s here.");
      real.locator("[data-real-run-button='seed-crash']").click();
      // The demo's own settings ran first of all (RealRuns): their kept result comes without phases.
      assertThat(real.locator("[data-real-run-summary]")).hasText("The simulation and the real engines agree on every reader.", SLOW);
      assertThat(cell(real, "read_committed", "real")).hasText("5 records, sum 150: o1 o2 o3 o4 o5");
      assertThat(cell(real, "read_uncommitted", "real")).hasText("7 records, sum 220: o1 o2 o3 o4 o3 o4 o5");
      assertThat(cell(real, "at_least_once", "real")).hasText("7 records, sum 220: o1 o2 o3 o4 o3 o4 o5");
      assertThat(cell(real, "at_least_once", "simulated")).hasText("7 records, sum 220: o1 o2 o3 o4 o3 o4 o5");
      assertThat(cell(real, "read_committed", "verdict")).hasText("agree");
      assertThat(real.locator("[data-real-run-events] li[data-kind='restart']")).hasCount(1);
      assertThat(real.locator("[data-real-run-timeline]")).isVisible();
      assertThat(real.locator("[data-real-run-timeline]")).containsText("billing-alo");
      real.locator("[data-real-run-events] summary").click();
      assertEquals(List.of(), AxeScan.seriousViolations(page, "sandbox tab with a real run"));

      real.locator("[data-real-run-button='fencing']").click();
      assertThat(real.locator("[data-real-run-errors] li").first())
          .hasText("org.apache.kafka.common.errors.InvalidProducerEpochException Producer attempted to produce with an old epoch.", SLOW);
      assertThat(cell(real, "read_committed", "simulated")).hasText("\u2014");
    }

    @OwnContexts
    @Test
    void on_the_outbox_lesson_the_cdc_relays_crash_on_real_postgresql_and_kafka_agrees_with_the_simulation_line_by_line() {
      reopen(new Browser.NewContextOptions().setViewportSize(1280, 800));
      page.navigate(url("/lessons/outbox#sandbox"));
      Locator demo = page.locator("[id='sandbox/outbox-demo']");
      assertThat(demo.locator(".CodeMirror")).isVisible();
      Locator real = demo.locator("[data-real-run]");
      assertThat(real.locator("[data-real-run-button]")).hasCount(1); // the first lesson's scenarios stay there
      demo.locator("[data-knob='CDC']").check();
      real.locator("[data-real-run-button='outbox-crash']").click();
      assertThat(real.locator("[data-real-run-summary]")).hasText(
          "The simulation and the real engines agree on every line.", SLOW);
      assertThat(real.locator(".real-run-settings")).hasText(
          "The outbox demo's crash with CRASH_POINT=2, CRASH_AT=3, CDC=true, INBOX_TTL=10");
      assertThat(cell(real, "Outbox", "real")).hasText("Outbox topic=8 charges=8 sum=210 DUPLICATES o1 o2 o3");
      assertThat(cell(real, "Outbox", "simulated")).hasText("Outbox topic=8 charges=8 sum=210 DUPLICATES o1 o2 o3");
      assertThat(cell(real, "Outbox+Inbox", "real")).hasText("Outbox+Inbox topic=8 charges=5 sum=150 OK");
      assertThat(real.locator("[data-real-run-events] li[data-kind='crash']")).hasCount(1);
      assertThat(real.locator("[data-real-run-timeline]")).containsText("Outbox+Inbox charges");
      assertEquals(List.of(), AxeScan.seriousViolations(page, "outbox sandbox tab with a real run"));
    }

    @OwnContexts
    @Test
    void on_a_phone_a_moved_knob_changes_both_figures_and_they_still_agree() {
      Locator real = open(390, 844, true);
      page.locator("[id='sandbox/sink-demo'] [data-knob='CRASH_AFTER']").fill("5");
      real.locator("[data-real-run-button='seed-crash']").click();
      assertThat(real.locator("[data-real-run-phases]")).isVisible(); // settings nobody ran yet: a real run, in phases
      assertThat(real.locator("[data-real-run-summary]")).hasText("The simulation and the real engines agree on every reader.", SLOW);
      assertThat(real.locator(".real-run-settings")).hasText(
          "The sink demo's crash with CRASH_AFTER=5, CHECKPOINT_AFTER=2, CRASH_BEFORE_COMPLETE=false, CRASH_BEFORE_COMMIT=false");
      assertThat(cell(real, "at_least_once", "real")).hasText("6 records, sum 200: o1 o2 o3 o4 o5 o5");
      assertThat(cell(real, "at_least_once", "simulated")).hasText("6 records, sum 200: o1 o2 o3 o4 o5 o5");
      assertThat(cell(real, "read_committed", "real")).hasText("5 records, sum 150: o1 o2 o3 o4 o5");
      assertEquals(Boolean.TRUE, page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"),
          "the figures fit the phone's width");
    }
  }

  /** A version as the engine's own jar states it (what Kafka and Flink log at start). */
  private static String version(Path jar, String entry, String key) throws IOException {
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      ZipEntry found = zip.getEntry(entry);
      assertTrue(found != null, jar + " has no " + entry);
      Properties properties = new Properties();
      try (InputStream in = zip.getInputStream(found)) {
        properties.load(in);
      }
      return properties.getProperty(key, "");
    }
  }

  static String submit(TestServer server, String body) throws Exception {
    HttpResponse<String> res = server.postJson("/api/lab/real-runs", body);
    assertTrue(res.statusCode() == 202 || res.statusCode() == 200, res.body());
    return JSON.readTree(res.body()).get("id").asText();
  }

  /** Polls the run as the page does until it is done. */
  static JsonNode awaitResult(TestServer server, String id) {
    return await("run " + id + " done").atMost(Duration.ofSeconds(80)).pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(100)).until(() -> JSON.readTree(server.get("/api/lab/real-runs/" + id).body()), run -> {
          assertEquals(List.of(), run.get("status").asText().equals("failed") ? List.of(run.toString()) : List.of());
          return run.get("status").asText().equals("done");
        }).get("result");
  }

  /**
   * The outbox lesson's crash on real PostgreSQL, a real relay and the real broker, for every setting recorded in
   * {@code lessons/outbox/real-runs.yaml}, whose figures the quiz asks about: what the broker held and what each
   * consumer charged, printed as the lesson's simulation prints it, must be the simulation's lines, and the figures,
   * lines and versions must be the recorded ones (a difference prints what the engines gave, in the file's layout).
   * The file records one setting per way the event is carried again or lost: the polling relay and Debezium's
   * connector dying before their progress is recorded (the connector before any offset flush and after one), the
   * order service dying between its commit and its publish, and the consumers dying before their offset commit with
   * an inbox that outlives the copy and one that does not.
   */
  @Nested
  @Order(3)
  class Outbox {
    @Test
    void every_recorded_setting_gives_the_recorded_figures_and_the_simulations_lines() throws Exception {
      RecordedRunFile file = RecordedRunFile.bundled("outbox");
      assertTrue(file.requests().size() >= 6, "the outbox lesson records its six settings: " + file.requests());
      List<JsonNode> results = new ArrayList<>();
      for (int i = 0; i < file.requests().size(); i++) {
        JsonNode real = awaitResult(server, submit(server, file.requests().get(i)));
        results.add(real);
        String knobs = JSON.writeValueAsString(file.knobs().get(i));
        HttpResponse<String> sim =
            server.postJson("/api/run", "{\"snippet\":\"outbox-demo\",\"params\":" + knobs + "}");
        assertEquals(200, sim.statusCode(), sim.body());
        List<String> simulated = List.of(JSON.readTree(sim.body()).get("stdout").asText().strip().split("\n"));
        List<String> lines = new ArrayList<>();
        real.get("lines").forEach(line -> lines.add(line.asText()));
        assertEquals(simulated, lines, "with " + knobs + " the real engines (PostgreSQL, the relay, Kafka) and the"
            + " simulation differ");
        assertTrue(real.get("events").findValuesAsText("text").stream().anyMatch(t -> t.contains("published o1 as m1")),
            "the relay published the first committed outbox row: " + real.get("events"));
      }
      Path jar = settings().jar();
      String debezium =
          version(jar, "META-INF/maven/io.debezium/debezium-connector-postgres/pom.properties", "version");
      Map<String, String> engines = Map.of("kafka", version(jar, "kafka/kafka-version.properties", "version"),
          "postgresql", results.get(0).path("versions").path("postgresql").asText(""),
          "debezium", debezium.replaceFirst("\\.Final$", ""));
      assertEquals(file.recorded(), file.actual(engines, results),
          "lessons/outbox/real-runs.yaml differs from what the engines gave");
    }
  }

  private static void assertReader(JsonNode result, String reader, int records, int sum, String values) {
    JsonNode figures = result.path("readers").path(reader);
    assertEquals(records, figures.path("records").asInt(), reader + " records");
    assertEquals(sum, figures.path("sum").asInt(), reader + " sum");
    assertEquals(values, figures.path("values").toString(), reader + " values");
  }

  /**
   * The engine JVM of the app: the java process among this JVM's descendants (the confinement tools exec it or wait
   * for it), as the app's own EngineProcess finds it; the app's sandbox runs in this JVM, so no worker is among them.
   */
  private static long enginePid() {
    // a process the tests before closed may still be on its way out
    return await("one engine JVM under the app").atMost(Duration.ofSeconds(30)).pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(100))
        .until(() -> ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
            .filter(p -> p.info().command().map(c -> c.endsWith("/java")).orElse(false)).map(ProcessHandle::pid)
            .toList(), engines -> engines.size() == 1).get(0);
  }

  /** Two runs' names, which their topics and transactional ids carry: neither a counter nor a clock. */
  private static void assertUnguessablyNamed(String first, String next) {
    assertTrue(first.matches("[0-9a-f]{32}"), first);
    assertTrue(next.matches("[0-9a-f]{32}"), next);
    BigInteger distance = new BigInteger(first, 16).subtract(new BigInteger(next, 16)).abs();
    assertTrue(distance.bitLength() > 64, first + " and " + next + " are " + distance + " apart");
  }

  /** Whether a socket inode is one of the process's open files. */
  private static Predicate<String> socketsOf(long pid) throws IOException {
    try (Stream<Path> fds = Files.list(Path.of("/proc/" + pid + "/fd"))) {
      return fds.map(fd -> {
        try {
          return Files.readSymbolicLink(fd).toString();
        } catch (IOException e) {
          return "";
        }
      }).filter(link -> link.startsWith("socket:[")).map(link -> link.substring(8, link.length() - 1))
          .collect(Collectors.toSet())::contains;
    }
  }

  /** The ports of the listening TCP sockets in a network namespace's socket tables ({@code net}) that {@code owned}. */
  private static Set<Integer> listening(Path net, Predicate<String> owned) throws IOException {
    var ports = new TreeSet<Integer>();
    for (String table : List.of("tcp", "tcp6")) {
      for (String line : Files.readAllLines(net.resolve(table))) {
        String[] f = line.trim().split("\\s+");
        if (f.length > 9 && f[3].equals("0A") && owned.test(f[9])) {
          ports.add(Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1), 16));
        }
      }
    }
    return ports;
  }

  /** The exit code of a stranger's bash opening a TCP connection to 127.0.0.1:{@code port}. */
  private static int connectAsStranger(int port, List<String> prefix) throws Exception {
    return asStranger(prefix, "exec 3<>/dev/tcp/127.0.0.1/" + port);
  }

  /** The exit code of {@code script} run by bash as uid {@value #STRANGER}, after {@code prefix}. */
  private static int asStranger(List<String> prefix, String script) throws Exception {
    var command = new ArrayList<>(prefix);
    command.addAll(List.of("setpriv", "--reuid", STRANGER, "--regid", STRANGER, "--clear-groups", "bash", "-c",
        script));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    assertTrue(p.waitFor(20, TimeUnit.SECONDS), "no answer from " + command);
    return p.exitValue();
  }

  private static Map<String, String> status(Path file) {
    try {
      return Files.readAllLines(file).stream().filter(l -> l.contains(":"))
          .collect(Collectors.toMap(l -> l.substring(0, l.indexOf(':')),
              l -> l.substring(l.indexOf(':') + 1).trim().split("\\s+")[0], (a, b) -> a));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
