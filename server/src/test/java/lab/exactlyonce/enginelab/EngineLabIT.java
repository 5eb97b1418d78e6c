package lab.exactlyonce.enginelab;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The lesson's claims on a real Kafka broker and a real Flink job: one engine process (one JVM start) runs the seed's
 * crash, zombie fencing and the transaction-timeout gotcha. Needs the engine lab's jar, which {@code mvn package}
 * builds; {@code mvn verify} runs this after it.
 */
@Tag("enginelab")
class EngineLabIT {
  static EngineLabSettings settings() {
    Path jar = Path.of(System.getProperty("eolab.test.engine-lab-jar", EngineLabSettings.DEFAULT_JAR.toString()));
    return EngineLabSettings.disabled().enabledWith(jar);
  }

  @Test
  void theSeedsCrashFencingAndTheTimeoutGotchaOnTheRealEngines() throws Exception {
    try (EngineProcess engines = new EngineProcess(settings())) {
      List<String> phases = new ArrayList<>();
      JsonNode seed = engines.run("seed-crash", Map.of("CRASH_AFTER", 4, "CHECKPOINT_AFTER", 2,
          "CRASH_BEFORE_COMPLETE", false, "CRASH_BEFORE_COMMIT", false), phases::add);
      assertEquals(List.of("starting-broker", "starting-flink", "running", "reading-topics"), phases);
      assertReader(seed, "read_committed", 5, 150, "[\"o1\",\"o2\",\"o3\",\"o4\",\"o5\"]");
      assertReader(seed, "read_uncommitted", 7, 220, "[\"o1\",\"o2\",\"o3\",\"o4\",\"o3\",\"o4\",\"o5\"]");
      assertReader(seed, "at_least_once", 7, 220, "[\"o1\",\"o2\",\"o3\",\"o4\",\"o3\",\"o4\",\"o5\"]");

      JsonNode fencing = engines.run("fencing", Map.of(), phase -> {});
      assertEquals("org.apache.kafka.common.errors.InvalidProducerEpochException",
          fencing.at("/errors/0/class").asText());
      assertEquals("Producer attempted to produce with an old epoch.", fencing.at("/errors/0/message").asText());
      assertReader(fencing, "read_committed", 1, 10, "[\"o1\"]");
      assertReader(fencing, "read_uncommitted", 2, 20, "[\"o1\",\"o1\"]");

      JsonNode gotcha = engines.run("timeout-gotcha", Map.of(), phase -> {});
      assertEquals("org.apache.kafka.common.KafkaException", gotcha.at("/errors/0/class").asText());
      assertEquals("Unexpected error in InitProducerIdResponse; The transaction timeout is larger than the maximum"
          + " value allowed by the broker (as configured by transaction.max.timeout.ms).",
          gotcha.at("/errors/0/message").asText());
      assertReader(gotcha, "read_committed", 5, 150, "[\"o1\",\"o2\",\"o3\",\"o4\",\"o5\"]");
    }
  }

  private static void assertReader(JsonNode result, String reader, int records, int sum, String values) {
    JsonNode figures = result.path("readers").path(reader);
    assertEquals(records, figures.path("records").asInt(), reader + " records");
    assertEquals(sum, figures.path("sum").asInt(), reader + " sum");
    assertEquals(values, figures.path("values").toString(), reader + " values");
  }
}
