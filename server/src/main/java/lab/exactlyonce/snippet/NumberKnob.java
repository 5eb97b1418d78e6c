package lab.exactlyonce.snippet;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;

/** An {@code int} or {@code long} knob: a whole number from {@code min} to {@code max}, starting at the source's value. */
public record NumberKnob(String name, String type, long min, long max, @JsonProperty("default") long defaultValue,
                         String label) implements Knob {
  public NumberKnob {
    KnobSettings.checkName(name, label);
    if (!type.equals("int") && !type.equals("long")) throw new IllegalArgumentException("bad number knob type " + type);
    if (min > max) throw new IllegalArgumentException("knob " + name + " has the empty range " + min + ".." + max);
    if (defaultValue < min || defaultValue > max) {
      throw new IllegalArgumentException("knob " + name + " defaults to " + defaultValue + ", outside " + min + ".." + max);
    }
  }

  @Override
  public String range() {
    return "a whole number from " + min + " to " + max;
  }

  @Override
  public Object accept(String culprit, JsonNode value) {
    if (!value.isIntegralNumber() || !value.canConvertToLong()) {
      throw new KnobSettings.Refused(culprit + " takes " + range() + ", got " + value);
    }
    long v = value.longValue();
    if (v < min || v > max) throw new KnobSettings.Refused(culprit + " must be from " + min + " to " + max + ", got " + v);
    return v;
  }
}
