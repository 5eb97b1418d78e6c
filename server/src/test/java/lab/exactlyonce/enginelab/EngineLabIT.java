package lab.exactlyonce.enginelab;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.TakesTurns;
import lab.exactlyonce.TestConfig;
import lab.exactlyonce.TestServer;
import lab.exactlyonce.quiz.RecordedRunFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import static lab.exactlyonce.CookieClient.JSON;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lesson's claims on a real Kafka broker and a real Flink job, through the app's HTTP routes: one engine process
 * (one JVM start) runs the seed's crash, zombie fencing and the transaction-timeout gotcha, while a flood of other
 * settings meets the bounded queue; then every run the quiz recorded runs again and must give the recorded figures.
 * Needs the engine lab's jar, which {@code mvn package} builds; {@code mvn verify} runs this after it.
 */
@Tag("enginelab")
@TakesTurns("engine-lab")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EngineLabIT {
  private static final String SEED = "{\"scenario\":\"seed-crash\",\"knobs\":{\"CRASH_AFTER\":4,\"CHECKPOINT_AFTER\":2,"
      + "\"CRASH_BEFORE_COMPLETE\":false,\"CRASH_BEFORE_COMMIT\":false}}";

  /** One app, so one engine process warmed once, for both tests. */
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
   * the run after the renewal gives the same figures and skips the broker's start. (A process of its own, worn after
   * one run, beside the app's.)
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
      // the zombie's failed send may end its transaction before its commit fails, or not: one error or two
      assertEquals(Set.copyOf(first.get("errors").findValuesAsText("class")),
          Set.copyOf(after.get("errors").findValuesAsText("class")));
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

  private static void assertReader(JsonNode result, String reader, int records, int sum, String values) {
    JsonNode figures = result.path("readers").path(reader);
    assertEquals(records, figures.path("records").asInt(), reader + " records");
    assertEquals(sum, figures.path("sum").asInt(), reader + " sum");
    assertEquals(values, figures.path("values").toString(), reader + " values");
  }
}
