package lab.exactlyonce.sandbox.engine;

import java.util.LinkedHashMap;
import java.util.Map;

/** A small LRU of compiled, verified and instrumented snippets by the SHA-256 of their source. */
final class PreparedCache {
  private final int capacity;
  private final LinkedHashMap<String, Prepared> entries;

  PreparedCache(int capacity) {
    this.capacity = capacity;
    this.entries = new LinkedHashMap<>(16, 0.75f, true) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Prepared> eldest) {
        return size() > PreparedCache.this.capacity;
      }
    };
  }

  static String key(String source) {
    return SourceHash.of(source);
  }

  synchronized Prepared get(String key) {
    return entries.get(key);
  }

  synchronized void put(String key, Prepared prepared) {
    entries.put(key, prepared);
  }
}
