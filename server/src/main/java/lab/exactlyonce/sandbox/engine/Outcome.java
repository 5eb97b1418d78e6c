package lab.exactlyonce.sandbox.engine;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/** How a run ended: a closed list. Only INTERNAL_ERROR is the service's fault; the rest are the learner's code. */
public enum Outcome {
  OK, COMPILE_ERROR, REJECTED, RUNTIME_ERROR, TIMEOUT, MEMORY_LIMIT, OUTPUT_LIMIT, INTERNAL_ERROR;

  @JsonValue
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  @JsonCreator
  public static Outcome fromId(String id) {
    return valueOf(id.toUpperCase(Locale.ROOT));
  }
}
