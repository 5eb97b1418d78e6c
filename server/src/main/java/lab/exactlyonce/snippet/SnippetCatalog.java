package lab.exactlyonce.snippet;

import lab.exactlyonce.lesson.LessonFormatException;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The runnable snippets of every lesson, loaded and checked at start: {@code snippets/<lesson>/<Name>.java},
 * described by a header of {@code // Id:}, {@code // Title:}, {@code // Summary:}, {@code // Expect:},
 * {@code // Explain:} and {@code // Knob:} lines (see {@link ContentHeader} and {@code lessons/SCHEMA.md}). A snippet
 * without an id, a title or an expected output, with an unknown header key, or whose id another lesson already uses
 * stops the start with one line naming the file.
 */
public final class SnippetCatalog {
  static final List<String> KEYS = List.of("Title", "Summary", "Expect", "Explain", "Knob");
  private static final Pattern KNOB =
      Pattern.compile("([A-Z][A-Z0-9_]*)\\s+(int|long|boolean)\\s+(-?\\d{1,18}|true|false)\\.\\.(-?\\d{1,18}|true|false)\\s+(\\S.*)");

  private final Map<String, Snippet> byId;

  private SnippetCatalog(Map<String, Snippet> byId) {
    this.byId = byId;
  }

  /** Loads every {@code <lesson>/*.java} under {@code root}. */
  public static SnippetCatalog load(Path root) {
    var byId = new LinkedHashMap<String, Snippet>();
    var ids = new ContentIds("snippet");
    for (ContentFile file : ContentFile.list(root, "")) {
      ContentHeader header = ContentHeader.read(file.shown(), file.read(), KEYS);
      ids.claim(file, header);
      byId.put(header.id(), snippet(file.shown(), file.lesson(), header));
    }
    return new SnippetCatalog(Map.copyOf(byId));
  }

  /** Reads one snippet file; {@code shown} names it in error messages. */
  static Snippet parse(String shown, String lesson, String text) {
    return snippet(shown, lesson, ContentHeader.read(shown, text, KEYS));
  }

  private static Snippet snippet(String shown, String lesson, ContentHeader header) {
    if (header.first("Title").isBlank()) throw new LessonFormatException(shown + ": missing '// Title:' header line");
    if (header.all("Expect").isEmpty()) {
      throw new LessonFormatException(shown + ": missing '// Expect:' header lines (the output the snippet prints)");
    }
    StringBuilder expected = new StringBuilder();
    header.all("Expect").forEach(line -> expected.append(line).append('\n'));
    String source = header.body();
    List<Knob> knobs = new ArrayList<>();
    for (String line : header.all("Knob")) knobs.add(knob(shown, line, source, knobs));
    return new Snippet(header.id(), lesson, header.first("Title"), header.joined("Summary"), source,
        expected.toString(), header.joined("Explain"), knobs);
  }

  /** One {@code // Knob:} line, checked against the declaration it binds to. */
  private static Knob knob(String shown, String line, String source, List<Knob> earlier) {
    Matcher m = KNOB.matcher(line);
    if (!m.matches()) {
      throw new LessonFormatException(shown + ": knob '" + line + "' does not read 'NAME int|long|boolean MIN..MAX Label'");
    }
    String name = m.group(1);
    String type = m.group(2);
    String label = m.group(5).strip();
    if (earlier.stream().anyMatch(k -> k.name().equals(name))) {
      throw new LessonFormatException(shown + ": knob " + name + " is declared twice");
    }
    SnippetParameters.Declaration declared = SnippetParameters.declarations(source).get(name);
    if (declared == null || !declared.type().equals(type)) {
      throw new LessonFormatException(shown + ": knob " + name + " needs a declaration 'static final " + type + " "
          + name + " = <default>;' in the source");
    }
    if (type.equals("boolean")) {
      if (!m.group(3).equals("false") || !m.group(4).equals("true")) {
        throw new LessonFormatException(shown + ": boolean knob " + name + " must have the range false..true");
      }
      return new BooleanKnob(name, (Boolean) declared.value(), label);
    }
    if (!m.group(3).matches("-?\\d+") || !m.group(4).matches("-?\\d+")
        || Long.parseLong(m.group(3)) > Long.parseLong(m.group(4))) {
      throw new LessonFormatException(shown + ": knob " + name + " needs a numeric range MIN..MAX with MIN <= MAX");
    }
    long min = Long.parseLong(m.group(3));
    long max = Long.parseLong(m.group(4));
    long value = (Long) declared.value();
    if (value < min || value > max) {
      throw new LessonFormatException(shown + ": knob " + name + " defaults to " + value + ", outside " + min + ".." + max);
    }
    return new NumberKnob(name, type, min, max, value, label);
  }

  public List<Snippet> all() {
    return byId.values().stream().sorted(Comparator.comparing(Snippet::lesson).thenComparing(Snippet::id)).toList();
  }

  public Optional<Snippet> find(String id) {
    return Optional.ofNullable(byId.get(id));
  }

  /** The ids of one lesson's snippets: what its {@code snippet} blocks may name. */
  public Set<String> idsIn(String lesson) {
    Set<String> ids = new TreeSet<>();
    byId.values().stream().filter(s -> s.lesson().equals(lesson)).forEach(s -> ids.add(s.id()));
    return ids;
  }
}
