package lab.exactlyonce.share;

import lab.exactlyonce.option.Option;
import lab.exactlyonce.option.OptionValues;

import java.time.Duration;
import java.util.List;

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

  private static final Option LIMIT_PER_ADDRESS = Option.of("--share-limit-per-address", "SHARE_LIMIT_PER_ADDRESS",
      "300", "1 or more", "share links made per minute from one network (a class behind one NAT shares it; each"
      + " learner may make " + ShareRoutes.PER_LEARNER_PER_MINUTE + "); more get 429 with `Retry-After`");
  private static final Option STORAGE_MB = Option.of("--share-storage-mb", "SHARE_STORAGE_MB", "100", "1 or more",
      "how much code all share links together may hold, in MB; past it new links get 429 until old ones expire");
  private static final Option EXPIRY_DAYS = Option.of("--share-expiry-days", "SHARE_EXPIRY_DAYS", "90", "1 or more",
      "a share link nobody opens for this long is removed");

  /** The share links' options. */
  public static final List<Option> OPTIONS = List.of(LIMIT_PER_ADDRESS, STORAGE_MB, EXPIRY_DAYS);
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
    return from(OptionValues.none());
  }

  public ShareSettings withStorage(long bytes, Duration unopenedFor) {
    return new ShareSettings(sharesPerMinutePerAddress, bytes, unopenedFor);
  }

  public static ShareSettings from(OptionValues values) {
    return new ShareSettings(
        (int) number(values, LIMIT_PER_ADDRESS),
        Math.min(number(values, STORAGE_MB), Long.MAX_VALUE / MB) * MB,
        Duration.ofDays(Math.min(number(values, EXPIRY_DAYS), 1_000_000)));
  }

  private static long number(OptionValues values, Option option) {
    String text = values.orDefault(option);
    try {
      return Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option.flag() + " must be a number, got '" + text + "'");
    }
  }
}
