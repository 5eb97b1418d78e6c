package lab.exactlyonce.lesson;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * The node groups of one map in order of first appearance. Each group gets one of {@link #PALETTE_SIZE} colour
 * slots, used both as the SVG's CSS class {@code map-group-<slot>} and as the Mermaid export's classDef.
 */
final class MapGroups {
  static final int PALETTE_SIZE = 8;

  private final List<String> groups;

  MapGroups(LessonMap map) {
    var seen = new LinkedHashSet<String>();
    for (LessonMap.Node node : map.nodes()) if (node.group() != null) seen.add(node.group());
    this.groups = List.copyOf(new ArrayList<>(seen));
  }

  List<String> all() {
    return groups;
  }

  /** The colour slot of a node's group, or empty for a node without a group. */
  Optional<Integer> slot(LessonMap.Node node) {
    return node.group() == null ? Optional.empty() : Optional.of(groups.indexOf(node.group()) % PALETTE_SIZE);
  }

  int slot(String group) {
    return groups.indexOf(group) % PALETTE_SIZE;
  }
}
