package lab.exactlyonce.engines;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What happened during one scenario, in the order it happened: checkpoints, transactions, the crash and the restart,
 * and what each consumer read. Flink's task threads, the consumers' thread and the driver all append here.
 */
final class Events {
  private final long startNanos = System.nanoTime();
  private final List<Map<String, Object>> list = new ArrayList<>();

  synchronized void add(String kind, String text) {
    var event = new LinkedHashMap<String, Object>();
    event.put("ms", (System.nanoTime() - startNanos) / 1_000_000);
    event.put("kind", kind);
    event.put("text", text);
    list.add(event);
  }

  synchronized List<Map<String, Object>> all() {
    return List.copyOf(list);
  }
}
