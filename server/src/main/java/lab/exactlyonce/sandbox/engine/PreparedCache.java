package lab.exactlyonce.sandbox.engine;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
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
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(source.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing", e);
    }
  }

  synchronized Prepared get(String key) {
    return entries.get(key);
  }

  synchronized void put(String key, Prepared prepared) {
    entries.put(key, prepared);
  }
}
