package lab.exactlyonce.sandbox;

import lab.exactlyonce.lesson.LessonFormatException;
import lab.exactlyonce.lesson.SnippetIds;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The runnable snippets of every lesson, loaded and checked at start: {@code snippets/<lesson>/<Name>.java}, id
 * {@code <name>} in kebab case, described by a header of {@code // Title:}, {@code // Summary:}, {@code // Expect:}
 * and {@code // Explain:} lines (see {@code lessons/SCHEMA.md}). A snippet without a title or an expected output,
 * with an unknown header key, or whose id another lesson already uses stops the start with one line naming the file.
 */
public final class SnippetCatalog {
  private static final Pattern HEADER = Pattern.compile("^//\\s*([A-Z][A-Za-z]*):\\s?(.*)$");
  private static final List<String> KEYS = List.of("Title", "Summary", "Expect", "Explain", "Knob");
  private static final Pattern KNOB =
      Pattern.compile("([A-Z][A-Z0-9_]*)\\s+(int|long|boolean)\\s+(-?\\d{1,18}|true|false)\\.\\.(-?\\d{1,18}|true|false)\\s+(\\S.*)");

  private final Map<String, Snippet> byId;

  private SnippetCatalog(Map<String, Snippet> byId) {
    this.byId = byId;
  }

  /** Loads every {@code <lesson>/*.java} under {@code root}. */
  public static SnippetCatalog load(Path root) {
    var byId = new LinkedHashMap<String, Snippet>();
    var files = new LinkedHashMap<String, String>();
    try (Stream<Path> lessons = Files.list(root)) {
      for (Path lessonDir : lessons.filter(Files::isDirectory).sorted(Comparator.comparing(Path::toString)).toList()) {
        String lesson = stripSlash(lessonDir.getFileName().toString());
        try (Stream<Path> javaFiles = Files.list(lessonDir)) {
          for (Path file : javaFiles.filter(f -> f.getFileName().toString().endsWith(".java"))
              .sorted(Comparator.comparing(Path::toString)).toList()) {
            String shown = "snippets/" + lesson + "/" + file.getFileName();
            Snippet snippet = parse(shown, lesson, file.getFileName().toString(),
                Files.readString(file, StandardCharsets.UTF_8));
            String earlier = files.putIfAbsent(snippet.id(), shown);
            if (earlier != null) {
              throw new LessonFormatException(shown + ": snippet id '" + snippet.id() + "' is already used by "
                  + earlier + "; snippet ids must be unique over all lessons");
            }
            byId.put(snippet.id(), snippet);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read snippets under " + root, e);
    }
    return new SnippetCatalog(Map.copyOf(byId));
  }

  /** Reads one snippet file; {@code shown} names it in error messages. */
  static Snippet parse(String shown, String lesson, String fileName, String text) {
    var values = new LinkedHashMap<String, List<String>>();
    KEYS.forEach(k -> values.put(k, new ArrayList<>()));
    String[] lines = text.replace("\r\n", "\n").split("\n", -1);
    int body = 0;
    for (; body < lines.length; body++) {
      Matcher m = HEADER.matcher(lines[body]);
      if (!m.matches()) break;
      String key = m.group(1);
      if (!values.containsKey(key)) {
        throw new LessonFormatException(shown + ": line " + (body + 1) + ": unknown header '" + key
            + ":'; known headers: Title, Summary, Expect, Explain, Knob");
      }
      values.get(key).add(m.group(2).strip());
    }
    if (values.get("Title").isEmpty() || values.get("Title").get(0).isBlank()) {
      throw new LessonFormatException(shown + ": missing '// Title:' header line");
    }
    if (values.get("Expect").isEmpty()) {
      throw new LessonFormatException(shown + ": missing '// Expect:' header lines (the output the snippet prints)");
    }
    StringBuilder expected = new StringBuilder();
    values.get("Expect").forEach(line -> expected.append(line).append('\n'));
    String source = String.join("\n", List.of(lines).subList(body, lines.length));
    List<Knob> knobs = new ArrayList<>();
    for (String line : values.get("Knob")) knobs.add(knob(shown, line, source, knobs));
    return new Snippet(SnippetIds.of(fileName), lesson,
        values.get("Title").get(0), String.join(" ", values.get("Summary")), source, expected.toString(),
        String.join(" ", values.get("Explain")), knobs);
  }

  /** One {@code // Knob:} line, checked against the declaration it binds to. */
  private static Knob knob(String shown, String line, String source, List<Knob> earlier) {
    Matcher m = KNOB.matcher(line);
    if (!m.matches()) {
      throw new LessonFormatException(shown + ": knob '" + line + "' does not read 'NAME int|long|boolean MIN..MAX Label'");
    }
    String name = m.group(1);
    String type = m.group(2);
    if (earlier.stream().anyMatch(k -> k.name().equals(name))) {
      throw new LessonFormatException(shown + ": knob " + name + " is declared twice");
    }
    SnippetParameters.Declaration declared = SnippetParameters.declarations(source).get(name);
    if (declared == null || !declared.type().equals(type)) {
      throw new LessonFormatException(shown + ": knob " + name + " needs a declaration 'static final " + type + " "
          + name + " = <default>;' in the source");
    }
    Object min;
    Object max;
    if (type.equals("boolean")) {
      if (!m.group(3).equals("false") || !m.group(4).equals("true")) {
        throw new LessonFormatException(shown + ": boolean knob " + name + " must have the range false..true");
      }
      min = Boolean.FALSE;
      max = Boolean.TRUE;
    } else {
      if (!m.group(3).matches("-?\\d+") || !m.group(4).matches("-?\\d+")
          || Long.parseLong(m.group(3)) > Long.parseLong(m.group(4))) {
        throw new LessonFormatException(shown + ": knob " + name + " needs a numeric range MIN..MAX with MIN <= MAX");
      }
      min = Long.valueOf(m.group(3));
      max = Long.valueOf(m.group(4));
      long value = (Long) declared.value();
      if (value < (Long) min || value > (Long) max) {
        throw new LessonFormatException(shown + ": knob " + name + " defaults to " + value + ", outside " + min + ".." + max);
      }
    }
    return new Knob(name, type, min, max, declared.value(), m.group(5).strip());
  }

  public List<Snippet> all() {
    return byId.values().stream().sorted(Comparator.comparing(Snippet::lesson).thenComparing(Snippet::id)).toList();
  }

  public Optional<Snippet> find(String id) {
    return Optional.ofNullable(byId.get(id));
  }

  private static String stripSlash(String name) {
    return name.endsWith("/") ? name.substring(0, name.length() - 1) : name;
  }
}
