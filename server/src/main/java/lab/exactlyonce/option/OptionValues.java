package lab.exactlyonce.option;

import java.util.Optional;

/** Where the settings read their options' values: the command line and the environment, or a test's own. */
@FunctionalInterface
public interface OptionValues {

  /** The value given for {@code option} (its flag, else its environment variable), if a non-blank one was. */
  Optional<String> given(Option option);

  /** The value given, else the option's declared default. */
  default String orDefault(Option option) {
    return given(option).orElseGet(() -> option.defaultValue().orElseThrow(
        () -> new IllegalStateException(option.flag() + " has no default value to fall back on")));
  }

  /** No value for any option: every option takes its default. */
  static OptionValues none() {
    return option -> Optional.empty();
  }
}
