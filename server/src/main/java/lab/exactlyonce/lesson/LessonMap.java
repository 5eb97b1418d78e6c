package lab.exactlyonce.lesson;

import java.util.List;

/**
 * An architecture diagram: nodes placed on a {@code width} x {@code height} canvas and directed edges between
 * them. The SVG view and the Mermaid export are both drawn from this one value.
 */
public record LessonMap(String id, String title, String description, int width, int height, List<Node> nodes,
                        List<Edge> edges) {
  public LessonMap {
    id = Checks.id(id, "id");
    title = Checks.text(title, "title");
    description = Checks.optional(description);
    if (width <= 0 || height <= 0) throw new IllegalArgumentException("'width' and 'height' must be positive");
    nodes = Checks.nonEmpty(nodes, "nodes");
    edges = Checks.list(edges);
  }

  /** {@code x}, {@code y} is the node's centre; {@code why} says why the node exists (Markdown). */
  public record Node(String id, String label, String group, int x, int y, String why) {
    public Node {
      id = Checks.id(id, "id");
      label = Checks.text(label, "label");
      group = Checks.optional(group);
      why = Checks.text(why, "why");
    }
  }

  /** A directed edge: what flows ({@code protocol}), which way, what it does, and what follows if it fails. */
  public record Edge(String id, String from, String to, String label, String protocol, String direction,
                     String effect, String consequence) {
    public Edge {
      id = Checks.id(id, "id");
      from = Checks.id(from, "from");
      to = Checks.id(to, "to");
      label = Checks.text(label, "label");
      protocol = Checks.text(protocol, "protocol");
      direction = Checks.text(direction, "direction");
      effect = Checks.text(effect, "effect");
      consequence = Checks.text(consequence, "consequence");
    }
  }
}
