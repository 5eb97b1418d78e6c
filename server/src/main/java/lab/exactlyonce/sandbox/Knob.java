package lab.exactlyonce.sandbox;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;

/**
 * A parameter of a snippet the replay lab lets a learner turn: declared by a header line
 * {@code // Knob: NAME int|long|boolean MIN..MAX Label text} and bound to the declaration
 * {@code static final <type> NAME = <default>;} in the source. For booleans the range is {@code false..true}.
 *
 * @param min a {@code Long} (int, long) or {@code Boolean}
 * @param max as {@code min}
 * @param defaultValue the value in the source, as {@code min}
 */
public record Knob(String name, String type, Object min, Object max, @JsonProperty("default") Object defaultValue,
                   String label) {
  static final List<String> TYPES = List.of("int", "long", "boolean");

  public Knob {
    if (name == null || !name.matches("[A-Z][A-Z0-9_]*")) throw new IllegalArgumentException("bad knob name " + name);
    if (!TYPES.contains(type)) throw new IllegalArgumentException("bad knob type " + type);
    if (label == null || label.isBlank()) throw new IllegalArgumentException("knob " + name + " needs a label");
  }

  boolean numeric() {
    return !type.equals("boolean");
  }

  /** "a whole number from 1 to 5" or "true or false". */
  String range() {
    return numeric() ? "a whole number from " + min + " to " + max : "true or false";
  }
}
