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
    add(kind, text, null);
  }

  /**
   * An event with its step for the Sandbox tab's replay timeline, in the simulation's trace format ({@code type},
   * {@code sink}, {@code offset}, {@code key}, {@code value}, {@code txn}, {@code visible}, {@code checkpoint},
   * {@code isolation}, {@code note}), so the real run is drawn the way the simulation is.
   */
  synchronized void add(String kind, String text, Map<String, Object> trace) {
    var event = new LinkedHashMap<String, Object>();
    event.put("ms", (System.nanoTime() - startNanos) / 1_000_000);
    event.put("kind", kind);
    event.put("text", text);
    if (trace != null) event.put("trace", trace);
    list.add(event);
  }

  /**
   * A scenario's answer as the app reads it: what each reader saw (by reader name), the events so far, and the
   * errors the engines raised.
   */
  synchronized Map<String, Object> result(Map<String, Object> readers, List<Map<String, Object>> errors) {
    var answer = new LinkedHashMap<String, Object>();
    answer.put("readers", readers);
    answer.put("events", all());
    answer.put("errors", errors);
    return answer;
  }

  /** A trace step: {@code type} and then name-value pairs. */
  static Map<String, Object> step(String type, Object... fields) {
    var step = new LinkedHashMap<String, Object>();
    step.put("type", type);
    for (int i = 0; i + 1 < fields.length; i += 2) step.put((String) fields[i], fields[i + 1]);
    return step;
  }

  synchronized List<Map<String, Object>> all() {
    return List.copyOf(list);
  }
}
