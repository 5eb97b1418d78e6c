package lab.exactlyonce.lesson;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Where each field and list entry of a YAML file starts, so that problems found after parsing (a duplicate id, a
 * dangling reference) can still name a line. Paths are written as in messages: {@code sections[2].blocks[0].id}.
 */
public final class SourceLines {
  private static final YAMLFactory YAML = new YAMLFactory();

  private final Map<String, Integer> lines;

  private SourceLines(Map<String, Integer> lines) {
    this.lines = lines;
  }

  static final SourceLines NONE = new SourceLines(Map.of());

  /** Reads what it can; a file that does not parse has no lines (its syntax error names its own line). */
  static SourceLines of(String yaml) {
    var lines = new HashMap<String, Integer>();
    try (JsonParser parser = YAML.createParser(yaml)) {
      for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
        if (token == JsonToken.END_OBJECT || token == JsonToken.END_ARRAY) continue;
        String path = path(parser.getParsingContext().pathAsPointer().toString());
        lines.putIfAbsent(path, parser.currentTokenLocation().getLineNr());
      }
    } catch (IOException e) {
      return NONE;
    }
    return new SourceLines(lines);
  }

  /**
   * The line where {@code path} starts, or else where its nearest enclosing field starts; 0 when unknown.
   */
  int lineOf(String path) {
    for (String p = path; ; p = parent(p)) {
      Integer line = lines.get(p);
      if (line != null) return line;
      if (p.isEmpty()) return 0;
    }
  }

  /** "/sections/2/blocks/0/id" to "sections[2].blocks[0].id". */
  private static String path(String pointer) {
    var out = new StringBuilder();
    for (String segment : pointer.split("/")) {
      if (segment.isEmpty()) continue;
      String name = segment.replace("~1", "/").replace("~0", "~");
      if (name.chars().allMatch(Character::isDigit)) out.append('[').append(name).append(']');
      else out.append(out.length() == 0 ? "" : ".").append(name);
    }
    return out.toString();
  }

  private static String parent(String path) {
    int cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
    return cut < 0 ? "" : path.substring(0, cut);
  }
}
