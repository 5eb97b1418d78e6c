package lab.exactlyonce.snippet;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Knob values a learner sends with a run: each must be a knob of the snippet, of its type and in its range, and the
 * source must still declare what it sets. The source comes back with those declarations rewritten.
 */
public final class KnobSettings {
  private KnobSettings() {
  }

  /** A knob setting that cannot be used; the message names the knob and the snippet. */
  public static final class Refused extends RuntimeException {
    Refused(String message) {
      super(message);
    }
  }

  /**
   * {@code source} with the knobs in {@code params} set.
   *
   * @param params a JSON object of knob name to value
   * @throws Refused for an unknown knob, a value of the wrong type or out of range, or a declaration the learner removed
   */
  public static String apply(Snippet snippet, String source, JsonNode params) {
    Map<String, Object> values = new LinkedHashMap<>();
    var names = params.fieldNames();
    while (names.hasNext()) {
      String name = names.next();
      Knob knob = knob(snippet, name);
      values.put(name, knob.accept("knob '" + name + "' of snippet '" + snippet.id() + "'", params.get(name)));
    }
    Map<String, SnippetParameters.Declaration> declared = SnippetParameters.declarations(source);
    for (String name : values.keySet()) {
      Knob knob = knob(snippet, name);
      SnippetParameters.Declaration declaration = declared.get(name);
      if (declaration == null || !declaration.type().equals(knob.type())) {
        throw new Refused("the source no longer declares 'static final " + knob.type() + " " + name
            + " = ...;', which knob '" + name + "' sets; restore that line or reset the snippet");
      }
    }
    return SnippetParameters.rewrite(source, values);
  }

  /**
   * The value each of the snippet's knobs has in {@code source}, by knob name in the snippet's order: what the knob
   * fields show for that code. A knob whose declaration the source no longer has with the knob's type is left out; a
   * value outside the knob's range is kept, as the code runs with it.
   */
  public static Map<String, Object> declared(Snippet snippet, String source) {
    Map<String, SnippetParameters.Declaration> declarations = SnippetParameters.declarations(source);
    Map<String, Object> values = new LinkedHashMap<>();
    for (Knob knob : snippet.knobs()) {
      SnippetParameters.Declaration d = declarations.get(knob.name());
      if (d != null && d.type().equals(knob.type())) values.put(knob.name(), d.value());
    }
    return values;
  }

  private static Knob knob(Snippet snippet, String name) {
    return snippet.knob(name).orElseThrow(() -> new Refused("snippet '" + snippet.id() + "' has no knob '" + name + "'"
        + (snippet.knobs().isEmpty() ? "; it has no knobs"
        : "; its knobs: " + String.join(", ", snippet.knobs().stream().map(Knob::name).toList()))));
  }

  static void checkName(String name, String label) {
    if (name == null || !name.matches("[A-Z][A-Z0-9_]*")) throw new IllegalArgumentException("bad knob name " + name);
    if (label == null || label.isBlank()) throw new IllegalArgumentException("knob " + name + " needs a label");
  }
}
