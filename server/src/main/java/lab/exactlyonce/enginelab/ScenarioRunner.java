package lab.exactlyonce.enginelab;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Map;
import java.util.function.Consumer;

/** Runs one scenario on the engines and answers its result; {@link EngineProcess} is the real one. */
interface ScenarioRunner extends AutoCloseable {
  JsonNode run(String scenario, Map<String, Object> knobs, Consumer<String> phase) throws EngineProcess.EngineFailure;

  @Override
  void close();
}
