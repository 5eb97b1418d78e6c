package lab.exactlyonce.sandbox.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.TimeZone;

/**
 * The JVM-wide defaults a run could read (system properties, the default locales and time zone) as the worker had
 * them before any learner's run, put back before every run. The allowlist already refuses every way to change them
 * ({@code System.setProperty}, {@code Locale.setDefault}, {@code TimeZone}); this is the second line, so that a way
 * it missed still cannot hand one learner's change to the next.
 */
final class JdkDefaults {
  private final Properties properties;
  private final Locale locale;
  private final Locale displayLocale;
  private final Locale formatLocale;
  private final TimeZone timeZone;

  private JdkDefaults() {
    locale = Locale.getDefault();
    displayLocale = Locale.getDefault(Locale.Category.DISPLAY);
    formatLocale = Locale.getDefault(Locale.Category.FORMAT);
    // The first TimeZone.getDefault() sets user.timezone when it was not given: the properties come after it.
    timeZone = TimeZone.getDefault();
    properties = copy(System.getProperties());
  }

  /** The defaults now; to be taken before any learner's code has run. */
  static JdkDefaults capture() {
    return new JdkDefaults();
  }

  /** Puts back whatever differs from the captured defaults; returns what it put back (empty when nothing). */
  List<String> restore() {
    List<String> restored = new ArrayList<>();
    if (!System.getProperties().equals(properties)) {
      System.setProperties(copy(properties));
      restored.add("system properties");
    }
    if (!Locale.getDefault().equals(locale)) restored.add("default locale");
    if (!Locale.getDefault(Locale.Category.DISPLAY).equals(displayLocale)) restored.add("display locale");
    if (!Locale.getDefault(Locale.Category.FORMAT).equals(formatLocale)) restored.add("format locale");
    if (!restored.isEmpty() && !restored.equals(List.of("system properties"))) {
      // setDefault(Locale) sets all three, so the categories go back after it.
      Locale.setDefault(locale);
      Locale.setDefault(Locale.Category.DISPLAY, displayLocale);
      Locale.setDefault(Locale.Category.FORMAT, formatLocale);
    }
    if (!TimeZone.getDefault().equals(timeZone)) {
      TimeZone.setDefault((TimeZone) timeZone.clone());
      restored.add("default time zone");
    }
    return restored;
  }

  private static Properties copy(Properties from) {
    Properties to = new Properties();
    to.putAll(from);
    return to;
  }
}
