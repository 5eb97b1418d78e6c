package lab.exactlyonce.lesson;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A map as Mermaid {@code flowchart} text, drawn from the same data as the SVG. Labels are always quoted, with
 * Mermaid's entity codes for the characters that would end or change a label ({@code " # & < > `}); line breaks
 * become {@code <br>}. Node ids are the map's ids with {@code -} as {@code _}, renamed where Mermaid reserves the
 * word. Each group gets a {@code classDef} with the SVG's colour.
 */
final class MermaidExport {
  /** Fill and stroke per colour slot, the same hues as maps.css. */
  private static final String[][] PALETTE = {
      {"#dbe7fb", "#2f6fdd"}, {"#d9f2e7", "#1f8a5c"}, {"#fbecd6", "#b86e00"}, {"#f7dfea", "#b5477a"},
      {"#e6e0f8", "#6f55c9"}, {"#d6f0f3", "#0f7f8c"}, {"#eee5d8", "#8a6d3b"}, {"#f9dedc", "#c4392f"},
  };
  private static final Set<String> RESERVED = Set.of("end", "graph", "flowchart", "flowchart-elk", "subgraph",
      "style", "linkstyle", "classdef", "class", "click", "call", "href", "default", "direction", "interpolate",
      "accdescr", "acctitle", "tb", "td", "bt", "rl", "lr");

  private MermaidExport() {}

  static String of(LessonMap map) {
    Map<String, String> ids = mermaidIds(map.nodes());
    MapGroups groups = new MapGroups(map);
    StringBuilder out = new StringBuilder();
    out.append("flowchart ").append(map.width() >= map.height() ? "LR" : "TB").append('\n');
    out.append("  %% ").append(comment(map.title())).append('\n');
    for (LessonMap.Node node : map.nodes()) {
      out.append("  ").append(ids.get(node.id())).append(shape(node.group(), quote(node.label()))).append('\n');
    }
    for (LessonMap.Edge edge : map.edges()) {
      out.append("  ").append(ids.get(edge.from())).append(" -->|").append(quote(edge.label())).append("| ")
          .append(ids.get(edge.to())).append('\n');
    }
    for (String group : groups.all()) {
      String[] colours = PALETTE[groups.slot(group)];
      String className = className(groups, group);
      out.append("  classDef ").append(className).append(" fill:").append(colours[0]).append(",stroke:")
          .append(colours[1]).append(",color:#1a1a1a\n");
      List<String> members = map.nodes().stream().filter(n -> group.equals(n.group())).map(n -> ids.get(n.id())).toList();
      out.append("  class ").append(String.join(",", members)).append(' ').append(className).append('\n');
    }
    return out.toString();
  }

  /** A quoted Mermaid string: entity codes for the characters that end or reinterpret it. */
  static String quote(String label) {
    String escaped = label.strip()
        .replace("#", "#35;")
        .replace("&", "#amp;")
        .replace("\"", "#quot;")
        .replace("<", "#lt;")
        .replace(">", "#gt;")
        .replace("`", "#96;")
        .replaceAll("\\s*\\R\\s*", "<br>");
    return "\"" + escaped + "\"";
  }

  /** Shapes carry a little meaning: logs and stores are cylinders, coordinators hexagons, outsiders stadiums. */
  private static String shape(String group, String quoted) {
    String g = group == null ? "" : group.toLowerCase(Locale.ROOT);
    if (g.matches(".*(source|topic|kafka|log|storage|store|database|db).*")) return "[(" + quoted + ")]";
    if (g.contains("coordinat")) return "{{" + quoted + "}}";
    if (g.contains("external")) return "([" + quoted + "])";
    return "(" + quoted + ")";
  }

  private static Map<String, String> mermaidIds(List<LessonMap.Node> nodes) {
    Map<String, String> ids = new HashMap<>();
    Set<String> taken = new HashSet<>();
    for (LessonMap.Node node : nodes) {
      String base = node.id().replace('-', '_');
      if (RESERVED.contains(base.toLowerCase(Locale.ROOT)) || !Character.isLetter(base.charAt(0))) base = "n_" + base;
      String id = base;
      for (int n = 2; !taken.add(id.toLowerCase(Locale.ROOT)); n++) id = base + "_" + n;
      ids.put(node.id(), id);
    }
    return ids;
  }

  private static String className(MapGroups groups, String group) {
    return "g" + groups.all().indexOf(group) + "_" + group.replaceAll("[^A-Za-z0-9]+", "_");
  }

  private static String comment(String text) {
    return text.replaceAll("[%{}]", "").replaceAll("\\s*\\R\\s*", " ");
  }
}
