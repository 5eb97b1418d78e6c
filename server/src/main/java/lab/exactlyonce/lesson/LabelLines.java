package lab.exactlyonce.lesson;

import java.util.ArrayList;
import java.util.List;

/** Breaks a label into at most a few short lines at spaces (and at explicit line breaks) for drawing in SVG. */
final class LabelLines {
  private LabelLines() {}

  /**
   * @param maxChars longest line wanted; a single longer word stays whole
   * @param maxLines lines kept; if the text needs more, the last kept line ends with an ellipsis
   */
  static List<String> wrap(String text, int maxChars, int maxLines) {
    List<String> lines = new ArrayList<>();
    for (String paragraph : text.strip().split("\\R")) {
      StringBuilder line = new StringBuilder();
      for (String word : paragraph.strip().split("\\s+")) {
        if (word.isEmpty()) continue;
        if (line.length() > 0 && line.length() + 1 + word.length() > maxChars) {
          lines.add(line.toString());
          line.setLength(0);
        }
        if (line.length() > 0) line.append(' ');
        line.append(word);
      }
      if (line.length() > 0) lines.add(line.toString());
    }
    if (lines.size() <= maxLines) return List.copyOf(lines);
    List<String> kept = new ArrayList<>(lines.subList(0, maxLines));
    String last = kept.get(maxLines - 1);
    kept.set(maxLines - 1, (last.length() >= maxChars ? last.substring(0, maxChars - 1) : last) + "…");
    return List.copyOf(kept);
  }
}
