package lab.exactlyonce.quiz;

import lab.exactlyonce.snippet.SnippetParameters;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The parameters a snippet declares as {@code static final int NAME = 2;} (or {@code long}; read and rewritten by
 * the sandbox's {@link SnippetParameters}, as the replay lab's knobs are), and versions of its
 * source with one parameter changed at a time. The values tried are derived from the default, so any snippet that
 * declares such constants gets variants without configuration.
 */
final class SnippetVariants {
  private static final int MAX_VALUES_PER_PARAMETER = 4;

  /** One version of the snippet: {@code values} holds every parameter (changed or not) in declaration order. */
  record Variant(String id, Map<String, Long> values, Map<String, Long> changed, String source) {
    Variant {
      values = Map.copyOf(values);
      changed = Map.copyOf(changed);
    }

    /** "CHECKPOINT_AFTER = 3 (the demo uses 2)". */
    String describe(Map<String, Long> defaults) {
      if (changed.isEmpty()) return "the values as written";
      List<String> parts = new ArrayList<>();
      changed.forEach((name, value) -> parts.add(name + " = " + value + " (the demo uses " + defaults.get(name) + ")"));
      return String.join(", ", parts);
    }
  }

  /** Parameter name to default value, in declaration order. */
  static Map<String, Long> parameters(String source) {
    Map<String, Long> found = new LinkedHashMap<>();
    for (SnippetParameters.Declaration d : SnippetParameters.declarations(source).values()) {
      if (d.numeric() && (Long) d.value() >= 0) found.put(d.name(), (Long) d.value());
    }
    return found;
  }

  /** The default first, then each parameter varied alone. */
  static List<Variant> of(String source) {
    Map<String, Long> defaults = parameters(source);
    List<Variant> variants = new ArrayList<>();
    variants.add(new Variant("default", defaults, Map.of(), source));
    for (var entry : defaults.entrySet()) {
      for (long value : valuesAround(entry.getValue())) {
        Map<String, Long> values = new LinkedHashMap<>(defaults);
        values.put(entry.getKey(), value);
        String id = entry.getKey().toLowerCase(Locale.ROOT).replace('_', '-') + "-" + value;
        variants.add(new Variant(id, values, Map.of(entry.getKey(), value), rewrite(source, entry.getKey(), value)));
      }
    }
    return variants;
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

  static String rewrite(String source, String name, long value) {
    return SnippetParameters.rewrite(source, Map.of(name, value));
  }

  private SnippetVariants() {}
}
