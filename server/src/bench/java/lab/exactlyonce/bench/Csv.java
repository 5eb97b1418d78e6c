package lab.exactlyonce.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** An RFC 4180 reader: quoted cells may hold commas, quotes ("") and line breaks. */
final class Csv {
  private Csv() {}

  static List<List<String>> parse(String text) {
    List<List<String>> rows = new ArrayList<>();
    List<String> row = new ArrayList<>();
    StringBuilder cell = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quoted) {
        if (c == '"') {
          if (i + 1 < text.length() && text.charAt(i + 1) == '"') {
            cell.append('"');
            i++;
          } else {
            quoted = false;
          }
        } else {
          cell.append(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        row.add(cell.toString());
        cell.setLength(0);
      } else if (c == '\n' || c == '\r') {
        if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') i++;
        row.add(cell.toString());
        cell.setLength(0);
        rows.add(row);
        row = new ArrayList<>();
      } else {
        cell.append(c);
      }
    }
    if (cell.length() > 0 || !row.isEmpty()) {
      row.add(cell.toString());
      rows.add(row);
    }
    return rows;
  }

  /** Event id to how many rows carry it, over the live answers of a class's results export (its CSV). */
  static Map<String, Integer> liveEventIds(String csv) {
    List<List<String>> rows = parse(csv);
    List<String> header = rows.get(0);
    int idColumn = header.indexOf("event_id");
    int sourceColumn = header.indexOf("source");
    if (idColumn < 0 || sourceColumn < 0) throw new IllegalStateException("the CSV has no event_id/source column: " + header);
    Map<String, Integer> counts = new HashMap<>();
    for (List<String> row : rows.subList(1, rows.size())) {
      if (row.size() > idColumn && "live".equals(row.get(sourceColumn))) counts.merge(row.get(idColumn), 1, Integer::sum);
    }
    return counts;
  }

  /** Of the answers with these event ids, how many an export lacks and how many it holds more than once. */
  record Tally(int lost, int doubled) {
    static Tally of(Map<String, Integer> onCsv, Collection<String> ids) {
      int lost = 0;
      int doubled = 0;
      for (String id : ids) {
        int times = onCsv.getOrDefault(id, 0);
        if (times == 0) lost++;
        if (times > 1) doubled++;
      }
      return new Tally(lost, doubled);
    }
  }
}
