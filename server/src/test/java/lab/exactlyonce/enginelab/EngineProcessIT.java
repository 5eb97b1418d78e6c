package lab.exactlyonce.enginelab;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.TakesTurns;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine process is replaced once worn, between runs, by a fresh one with its engines already started: the run
 * after the renewal gives the same figures and takes a warm run's time, not a cold start's.
 */
@Tag("enginelab")
@TakesTurns("engine-lab")
class EngineProcessIT {
  @Test
  void a_worn_process_is_replaced_by_a_started_one_between_runs() throws Exception {
    try (EngineProcess engines = new EngineProcess(EngineLabIT.settings(), 2)) {
      JsonNode first = engines.run("fencing", Map.of(), phase -> { });
      long pid = engines.pid().orElseThrow();
      engines.renewIfWorn();
      assertEquals(pid, engines.pid().orElseThrow(), "one run is not yet worn");

      JsonNode second = engines.run("fencing", Map.of(), phase -> { });
      engines.renewIfWorn();
      long renewed = engines.pid().orElseThrow();
      assertNotEquals(pid, renewed, "two runs wear this process out");
      assertTrue(engines.warm());

      StringBuilder phases = new StringBuilder();
      JsonNode third = engines.run("fencing", Map.of(), phase -> phases.append(phase).append(' '));
      assertEquals(renewed, engines.pid().orElseThrow());
      assertEquals("running reading-topics ", phases.toString(), "the fresh process started its broker before this run");
      for (JsonNode later : new JsonNode[] {second, third}) {
        assertEquals(first.get("readers").toString(), later.get("readers").toString());
        assertEquals(first.get("errors").findValuesAsText("class"), later.get("errors").findValuesAsText("class"));
      }
    }
  }
}
