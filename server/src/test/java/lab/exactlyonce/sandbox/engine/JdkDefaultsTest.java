package lab.exactlyonce.sandbox.engine;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Locale;
import java.util.TimeZone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** What a worker puts back before each run, should a run ever get past the allowlist's refusals. */
class JdkDefaultsTest {
  @Test
  void every_changed_default_is_put_back_and_named() {
    Locale locale = Locale.getDefault();
    TimeZone zone = TimeZone.getDefault();
    JdkDefaults defaults = JdkDefaults.capture();
    try {
      System.setProperty("eolab.left.by.an.earlier.run", "x");
      Locale.setDefault(Locale.Category.FORMAT, Locale.GERMANY);
      TimeZone.setDefault(TimeZone.getTimeZone("America/Los_Angeles"));

      assertEquals(List.of("system properties", "format locale", "default time zone"), defaults.restore());
      assertNull(System.getProperty("eolab.left.by.an.earlier.run"));
      assertEquals(locale, Locale.getDefault(Locale.Category.FORMAT));
      assertEquals(zone, TimeZone.getDefault());
    } finally {
      System.clearProperty("eolab.left.by.an.earlier.run");
      Locale.setDefault(locale);
      TimeZone.setDefault(zone);
    }
  }

  @Test
  void nothing_is_touched_when_nothing_changed() {
    assertEquals(List.of(), JdkDefaults.capture().restore());
  }
}
