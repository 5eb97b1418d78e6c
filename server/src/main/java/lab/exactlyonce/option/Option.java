package lab.exactlyonce.option;

import java.util.Locale;
import java.util.Optional;

/**
 * One start-up option, declared once beside the settings that read it: the parser reads its value through this
 * declaration ({@link OptionValues}), {@code --help} prints it and {@code docs/configuration.md} is rendered from it
 * ({@link OptionTable}), so the three cannot tell different stories.
 *
 * @param flag the command-line flag, such as {@code --port}
 * @param env the environment variable read when the flag is not given: the flag's name in capitals, {@code PORT}
 * @param defaultValue the value used when neither is given, exactly as one would type it; empty when the default is
 *     not a value one could type (something generated, found or worked out from other options)
 * @param defaultShown what the reference says about the default: the value, or what happens without one
 * @param accepted the values the option takes, in a few words
 * @param meaning what the option does, in one line
 */
public record Option(String flag, String env, Optional<String> defaultValue, String defaultShown, String accepted,
                     String meaning) {

  public Option {
    if (!flag.matches("--[a-z0-9]+(-[a-z0-9]+)*")) throw new IllegalArgumentException("not a flag: " + flag);
    String expectedEnv = flag.substring(2).toUpperCase(Locale.ROOT).replace('-', '_');
    if (!env.equals(expectedEnv)) {
      throw new IllegalArgumentException(flag + "'s environment variable must be " + expectedEnv + ", got " + env);
    }
    for (String text : new String[] {defaultShown, accepted, meaning}) {
      if (text.isBlank() || text.contains("|") || text.contains("\n")) {
        throw new IllegalArgumentException(flag + ": each text must be one non-blank line without '|', got '" + text
            + "'");
      }
    }
  }

  /** An option whose default is a value one could type. */
  public static Option of(String flag, String env, String defaultValue, String accepted, String meaning) {
    return new Option(flag, env, Optional.of(defaultValue), "`" + defaultValue + "`", accepted, meaning);
  }

  /** An option whose default is not a value one could type; {@code whatHappens} says what happens without it. */
  public static Option withoutDefault(String flag, String env, String whatHappens, String accepted, String meaning) {
    return new Option(flag, env, Optional.empty(), whatHappens, accepted, meaning);
  }
}
