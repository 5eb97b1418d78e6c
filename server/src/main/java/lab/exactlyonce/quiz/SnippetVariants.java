package lab.exactlyonce.quiz;

import lab.exactlyonce.snippet.BooleanKnob;
import lab.exactlyonce.snippet.Knob;
import lab.exactlyonce.snippet.NumberKnob;
import lab.exactlyonce.snippet.SnippetParameters;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The parameters a snippet declares as {@code static final int NAME = 2;} (or {@code long}, or {@code boolean} for
 * a knob; read and rewritten by the sandbox's {@link SnippetParameters}, as the replay lab's knobs are), and
 * versions of its source with one parameter changed at a time. The values tried are derived from the default and
 * kept inside the parameter's knob range when it has one, so a question never asks about a setting the demo does
 * not offer; a boolean knob is tried flipped.
 */
final class SnippetVariants {
  private static final int MAX_VALUES_PER_PARAMETER = 4;

  /** One version of the snippet: {@code values} holds every parameter (changed or not) in declaration order. */
  record Variant(String id, Map<String, Object> values, Map<String, Object> changed, String source) {
    Variant {
      values = Map.copyOf(values);
      changed = Map.copyOf(changed);
    }

    /** "CHECKPOINT_AFTER = 3 (the demo uses 2)". */
    String describe(Map<String, Object> defaults) {
      if (changed.isEmpty()) return "the values as written";
      List<String> parts = new ArrayList<>();
      changed.forEach((name, value) -> parts.add(name + " = " + value + " (the demo uses " + defaults.get(name) + ")"));
      return String.join(", ", parts);
    }
  }

  /** Parameter name to default value, in declaration order: whole numbers, and the booleans that are knobs. */
  static Map<String, Object> parameters(String source, List<Knob> knobs) {
    Map<String, Object> found = new LinkedHashMap<>();
    for (SnippetParameters.Declaration d : SnippetParameters.declarations(source).values()) {
      if (d.numeric() && (Long) d.value() >= 0) found.put(d.name(), d.value());
      else if (!d.numeric() && knobs.stream().anyMatch(k -> k instanceof BooleanKnob && k.name().equals(d.name()))) {
        found.put(d.name(), d.value());
      }
    }
    return found;
  }

  /** The default first, then each parameter varied alone. */
  static List<Variant> of(String source, List<Knob> knobs) {
    Map<String, Object> defaults = parameters(source, knobs);
    List<Variant> variants = new ArrayList<>();
    variants.add(new Variant("default", defaults, Map.of(), source));
    for (var entry : defaults.entrySet()) {
      List<Object> tried = new ArrayList<>();
      if (entry.getValue() instanceof Boolean b) tried.add(!b);
      else tried.addAll(inRange(valuesAround((Long) entry.getValue()), entry.getKey(), knobs));
      for (Object value : tried) {
        Map<String, Object> values = new LinkedHashMap<>(defaults);
        values.put(entry.getKey(), value);
        String id = entry.getKey().toLowerCase(Locale.ROOT).replace('_', '-') + "-" + value;
        variants.add(new Variant(id, values, Map.of(entry.getKey(), value),
            SnippetParameters.rewrite(source, Map.of(entry.getKey(), value))));
      }
    }
    return variants;
  }

  private static List<Long> inRange(List<Long> values, String name, List<Knob> knobs) {
    for (Knob knob : knobs) {
      if (knob instanceof NumberKnob n && n.name().equals(name)) {
        return values.stream().filter(v -> v >= n.min() && v <= n.max()).toList();
      }
    }
    return values;
  }

  /** Small defaults step by one (1, 3, 4 around 2); larger ones scale (15, 30, 90, 120 around 60). */
  static List<Long> valuesAround(long value) {
    List<Long> candidates = value <= 10
        ? List.of(value - 1, value + 1, value + 2, value - 2)
        : List.of(value / 4, value / 2, value + value / 2, value * 2);
    List<Long> out = new ArrayList<>();
    for (long c : candidates) {
      if (c >= 1 && c != value && !out.contains(c) && out.size() < MAX_VALUES_PER_PARAMETER) out.add(c);
    }
    out.sort(null);
    return out;
  }

  private SnippetVariants() {}
}
