package lab.exactlyonce.share;

import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The share links' start-up options.
 *
 * @param sharesPerMinutePerAddress how many share links one client address may ask for per minute
 *     ({@code --share-limit-per-address}, default 60): a class behind one NAT shares an address, and thirty students
 *     sharing at once must all get their link, while one client cannot fill the database at more than this many
 *     sources a minute
 */
public record ShareSettings(int sharesPerMinutePerAddress) {

  /** Flag name to environment variable name, merged into the app's option table. */
  public static final Map<String, String> FLAGS = Map.of("--share-limit-per-address", "SHARE_LIMIT_PER_ADDRESS");

  public ShareSettings {
    if (sharesPerMinutePerAddress < 1) {
      throw new IllegalArgumentException("--share-limit-per-address must be at least 1, got " + sharesPerMinutePerAddress);
    }
  }

  public static ShareSettings defaults() {
    return new ShareSettings(60);
  }

  public static ShareSettings from(Function<String, Optional<String>> option) {
    return option.apply("--share-limit-per-address").map(v -> {
      try {
        return new ShareSettings(Integer.parseInt(v.trim()));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--share-limit-per-address must be a number, got '" + v + "'");
      }
    }).orElseGet(ShareSettings::defaults);
  }
}
