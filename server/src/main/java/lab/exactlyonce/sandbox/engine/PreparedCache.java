package lab.exactlyonce.sandbox.engine;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A small LRU of compiled, verified and instrumented snippets by the SHA-256 of their source, bounded by count and
 * by bytes: the class files plus the diagnostics' text of all entries. A few hundred bytes of source can compile to
 * tens of kilobytes (Janino copies a finally block to every exit of its try), so without the byte budget what
 * earlier runs cached could take a large part of the heap every later run needs. An entry larger than the whole
 * budget is not kept.
 */
final class PreparedCache {
  /** What a cached entry costs besides its payload: the key, the map entry, the record and its collections. */
  static final int ENTRY_OVERHEAD = 512;

  private final int capacity;
  private final LinkedHashMap<String, Prepared> entries = new LinkedHashMap<>(16, 0.75f, true);
  private long bytes;

  PreparedCache(int capacity) {
    this.capacity = capacity;
  }

  static String key(String source) {
    return SourceHash.of(source);
  }

  synchronized Prepared get(String key) {
    return entries.get(key);
  }

  /** Keeps {@code prepared}, dropping the least recently used entries until both the count and {@code budget} hold. */
  synchronized void put(String key, Prepared prepared, long budget) {
    long size = sizeOf(prepared);
    Prepared before = entries.remove(key);
    if (before != null) bytes -= sizeOf(before);
    if (size <= budget) {
      entries.put(key, prepared);
      bytes += size;
    }
    Iterator<Prepared> eldest = entries.values().iterator();
    while ((entries.size() > capacity || bytes > budget) && eldest.hasNext()) {
      bytes -= sizeOf(eldest.next());
      eldest.remove();
    }
  }

  /** The bytes the entries hold now, by {@link #sizeOf}. */
  synchronized long bytes() {
    return bytes;
  }

  synchronized int size() {
    return entries.size();
  }

  static long sizeOf(Prepared prepared) {
    long size = ENTRY_OVERHEAD;
    for (Map.Entry<String, byte[]> e : prepared.classes().entrySet()) size += 2L * e.getKey().length() + e.getValue().length;
    for (Diagnostic d : prepared.diagnostics()) size += 64 + 2L * d.message().length();
    return size;
  }
}
