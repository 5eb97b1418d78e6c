package lab.exactlyonce.share;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The share links' start-up options.
 *
 * @param sharesPerMinutePerAddress how many share links one network may ask for per minute
 *     ({@code --share-limit-per-address}, default 300): a ceiling sized for a class behind one NAT address, of which
 *     each learner may use {@link ShareRoutes#PER_LEARNER_PER_MINUTE}
 * @param storageBytes how much code all share links together may hold ({@code --share-storage-mb}, default 100 MB):
 *     past it a new link is refused until old ones expire
 * @param unopenedFor how long a link nobody opens is kept ({@code --share-expiry-days}, default 90)
 */
public record ShareSettings(int sharesPerMinutePerAddress, long storageBytes, Duration unopenedFor) {

  /** Flag name to environment variable name, merged into the app's option table. */
  public static final Map<String, String> FLAGS = Map.of("--share-limit-per-address", "SHARE_LIMIT_PER_ADDRESS",
      "--share-storage-mb", "SHARE_STORAGE_MB", "--share-expiry-days", "SHARE_EXPIRY_DAYS");
  private static final long MB = 1024 * 1024;

  public ShareSettings {
    if (sharesPerMinutePerAddress < 1) {
      throw new IllegalArgumentException("--share-limit-per-address must be at least 1, got " + sharesPerMinutePerAddress);
    }
    if (storageBytes < MB) throw new IllegalArgumentException("--share-storage-mb must be at least 1, got " + storageBytes / MB);
    if (unopenedFor.compareTo(Duration.ofDays(1)) < 0) {
      throw new IllegalArgumentException("--share-expiry-days must be at least 1, got " + unopenedFor.toDays());
    }
  }

  /** These limits per minute, with the default storage and expiry. */
  public ShareSettings(int sharesPerMinutePerAddress) {
    this(sharesPerMinutePerAddress, defaults().storageBytes(), defaults().unopenedFor());
  }

  public static ShareSettings defaults() {
    return new ShareSettings(300, 100 * MB, Duration.ofDays(90));
  }

  public ShareSettings withStorage(long bytes, Duration unopenedFor) {
    return new ShareSettings(sharesPerMinutePerAddress, bytes, unopenedFor);
  }

  public static ShareSettings from(Function<String, Optional<String>> option) {
    ShareSettings d = defaults();
    return new ShareSettings(
        (int) number(option, "--share-limit-per-address", d.sharesPerMinutePerAddress()),
        Math.min(number(option, "--share-storage-mb", d.storageBytes() / MB), Long.MAX_VALUE / MB) * MB,
        Duration.ofDays(Math.min(number(option, "--share-expiry-days", d.unopenedFor().toDays()), 1_000_000)));
  }

  private static long number(Function<String, Optional<String>> option, String flag, long fallback) {
    return option.apply(flag).map(v -> {
      try {
        return Long.parseLong(v.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(flag + " must be a number, got '" + v + "'");
      }
    }).orElse(fallback);
  }
}
