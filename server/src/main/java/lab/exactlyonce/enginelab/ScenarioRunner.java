package lab.exactlyonce.enginelab;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Map;
import java.util.function.Consumer;

/** Runs one scenario on the engines and answers its result; {@link EngineProcess} is the real one. */
interface ScenarioRunner extends AutoCloseable {
  JsonNode run(String scenario, Map<String, Object> knobs, Consumer<String> phase) throws EngineProcess.EngineFailure;

  /** Replaces worn engines with fresh, started ones; nothing when they have room for more runs. */
  default void renewIfWorn() throws EngineProcess.EngineFailure {}

  /** Whether the engines are up and have run something, so the next run takes a warm run's time. */
  boolean warm();

  @Override
  void close();
}
