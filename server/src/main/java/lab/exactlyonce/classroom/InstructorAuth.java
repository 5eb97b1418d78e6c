package lab.exactlyonce.classroom;

import io.javalin.http.Context;
import io.javalin.http.Cookie;
import io.javalin.http.SameSite;
import lab.exactlyonce.web.Hmac;
import lab.exactlyonce.web.RequestOrigin;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Who is the instructor. The secret comes from the settings or, failing that, from {@code <data dir>/instructor-secret}
 * (generated on the first start and announced once). Signing in with it sets {@value #COOKIE}:
 * {@code <issued epoch seconds>.<nonce>.<HMAC-SHA256>}, keyed by a key derived from the secret, so sessions survive a
 * restart and end when the secret changes, after {@link #LIFETIME}, or when the instructor signs out: a signed-out
 * session's nonce is kept in {@code <data dir>/instructor-signouts} until it would have expired, so a copy of the
 * cookie is worth nothing. It also sets a long-lived device cookie {@value #DEVICE_COOKIE} that marks the browser as
 * one the instructor used, so that others' wrong guesses never lock it out ({@link SignInThrottle}).
 */
final class InstructorAuth {
  static final String COOKIE = "eolab_instructor";
  static final String SECRET_FILE = "instructor-secret";
  static final Duration LIFETIME = Duration.ofHours(12);
  static final String DEVICE_COOKIE = "eolab_device";
  static final Duration DEVICE_LIFETIME = Duration.ofDays(365);
  static final String SIGNOUTS_FILE = "instructor-signouts";
  private static final String ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

  private final byte[] secret;
  private final Hmac sessionKey;
  private final Hmac deviceKey;
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();
  private final SignOuts signOuts;

  private InstructorAuth(String secret, Path dataDir, Clock clock) {
    this.secret = secret.getBytes(StandardCharsets.UTF_8);
    this.sessionKey = new Hmac(new Hmac(this.secret).of("exactly-once-lab instructor session v1"));
    this.deviceKey = new Hmac(new Hmac(this.secret).of("exactly-once-lab instructor device v1"));
    this.clock = clock;
    this.signOuts = new SignOuts(dataDir.resolve(SIGNOUTS_FILE), clock);
  }

  /**
   * @param announce told where the generated secret was written, the one time it is made (the app prints it on
   *     stdout, which ends up in container logs, so the secret itself is never in it); never called when the secret
   *     is configured or was generated on an earlier start
   */
  static InstructorAuth create(Optional<String> configured, Path dataDir, Clock clock, Consumer<String> announce) {
    if (configured.isPresent()) return new InstructorAuth(configured.get(), dataDir, clock);
    Path file = dataDir.resolve(SECRET_FILE);
    try {
      if (Files.exists(file)) return new InstructorAuth(Files.readString(file).strip(), dataDir, clock);
      String generated = generate(new SecureRandom());
      Files.createDirectories(file.toAbsolutePath().getParent());
      if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      } else {
        Files.createFile(file);
      }
      Files.writeString(file, generated + "\n");
      announce.accept("An instructor secret was generated into " + file.toAbsolutePath()
          + " (readable by this user only); sign in at /teach with its contents");
      return new InstructorAuth(generated, dataDir, clock);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read or create the instructor secret " + file, e);
    }
  }

  /** Four groups of four from an alphabet without 0/O/1/I/L: easy to read aloud and to type. */
  static String generate(SecureRandom random) {
    var out = new StringBuilder();
    for (int i = 0; i < 16; i++) {
      if (i > 0 && i % 4 == 0) out.append('-');
      out.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
    }
    return out.toString();
  }

  /** Compares in constant time. */
  boolean matches(String given) {
    if (given == null) return false;
    return MessageDigest.isEqual(given.strip().getBytes(StandardCharsets.UTF_8), secret);
  }

  boolean signedIn(Context ctx) {
    return session(ctx).filter(s -> !signOuts.contains(s.nonce())).isPresent();
  }

  /** A session cookie this server signed and that has not expired: its nonce and when it was issued. */
  private record Session(String nonce, long issued) {}

  private Optional<Session> session(Context ctx) {
    String value = ctx.cookie(COOKIE);
    if (value == null) return Optional.empty();
    String[] parts = value.split("\\.");
    if (parts.length != 3) return Optional.empty();
    long issued;
    try {
      issued = Long.parseLong(parts[0]);
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
    if (!signedBy(sessionKey, parts[0] + "." + parts[1], parts[2])) return Optional.empty();
    long now = clock.instant().getEpochSecond();
    boolean live = issued <= now + 60 && now - issued < LIFETIME.toSeconds();
    return live ? Optional.of(new Session(parts[1], issued)) : Optional.empty();
  }

  /** The id of this browser when it carries a device cookie this server signed, else null. */
  String device(Context ctx) {
    String value = ctx.cookie(DEVICE_COOKIE);
    if (value == null) return null;
    String[] parts = value.split("\\.");
    return parts.length == 2 && signedBy(deviceKey, parts[0], parts[1]) ? parts[0] : null;
  }

  private static boolean signedBy(Hmac key, String payload, String signature) {
    byte[] given;
    try {
      given = Base64.getUrlDecoder().decode(signature);
    } catch (IllegalArgumentException e) {
      return false;
    }
    return MessageDigest.isEqual(given, key.of(payload));
  }

  void signIn(Context ctx) {
    String value = signed(sessionKey, clock.instant().getEpochSecond() + "." + randomId());
    ctx.cookie(new Cookie(COOKIE, value, "/", (int) LIFETIME.toSeconds(), RequestOrigin.isHttps(ctx), true, null, SameSite.STRICT));
    if (device(ctx) == null) {
      ctx.cookie(new Cookie(DEVICE_COOKIE, signed(deviceKey, randomId()), "/teach", (int) DEVICE_LIFETIME.toSeconds(),
          RequestOrigin.isHttps(ctx), true, null, SameSite.STRICT));
    }
  }

  /** {@code payload.signature}, which {@link #signedBy} accepts. */
  private static String signed(Hmac key, String payload) {
    return payload + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(key.of(payload));
  }

  /** 128 random bits, URL-safe: a session's nonce, a device's id. */
  private String randomId() {
    byte[] id = new byte[16];
    random.nextBytes(id);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(id);
  }

  /** Ends the session for good: this cookie, and every copy of it, no longer signs anyone in. */
  void signOut(Context ctx) {
    session(ctx).ifPresent(s -> signOuts.add(s.nonce(), s.issued() + LIFETIME.toSeconds()));
    ctx.cookie(new Cookie(COOKIE, "", "/", 0, RequestOrigin.isHttps(ctx), true, null, SameSite.STRICT));
  }

}
