package lab.exactlyonce.snippet;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;

/** A {@code boolean} knob: on or off, starting at the source's value. Its range is always {@code false..true}. */
public record BooleanKnob(String name, @JsonProperty("default") boolean defaultValue, String label) implements Knob {
  public BooleanKnob {
    KnobSettings.checkName(name, label);
  }

  @Override
  @JsonProperty("type")
  public String type() {
    return "boolean";
  }

  @JsonProperty("min")
  boolean min() {
    return false;
  }

  @JsonProperty("max")
  boolean max() {
    return true;
  }

  @Override
  public String range() {
    return "true or false";
  }

  @Override
  public Object accept(String culprit, JsonNode value) {
    if (!value.isBoolean()) throw new KnobSettings.Refused(culprit + " takes " + range() + ", got " + value);
    return value.booleanValue();
  }
}
