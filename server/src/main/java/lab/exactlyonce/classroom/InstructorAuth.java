package lab.exactlyonce.classroom;

import io.javalin.http.Context;
import io.javalin.http.Cookie;
import io.javalin.http.SameSite;
import lab.exactlyonce.store.Database;
import lab.exactlyonce.store.SigningKeys;
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
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Who is the instructor. The secret comes from the settings or, failing that, from {@code <data dir>/instructor-secret}
 * (generated on the first start and announced once). Signing in with it sets {@value #COOKIE}:
 * {@code <issued epoch seconds>.<nonce>.<HMAC-SHA256>}, keyed by a key derived from the secret, so sessions survive a
 * restart and end when the secret changes, after {@link #LIFETIME}, or when the instructor signs out: a signed-out
 * session's nonce is kept in the database until it would have expired, so a copy of the cookie is worth nothing.
 * The key is also mixed with the database's {@code instructor-session} {@link SigningKeys}, so every node on one
 * database (all given the same secret) accepts every other's sessions, and rotating that key ends no session. It
 * also sets a long-lived device cookie {@value #DEVICE_COOKIE} that marks the browser as
 * one the instructor used, so that others' wrong guesses never lock it out ({@link SignInThrottle}).
 */
final class InstructorAuth {
  static final String COOKIE = "eolab_instructor";
  static final String SECRET_FILE = "instructor-secret";
  static final Duration LIFETIME = Duration.ofHours(12);
  static final String DEVICE_COOKIE = "eolab_device";
  static final Duration DEVICE_LIFETIME = Duration.ofDays(365);
  /** Where an earlier version kept the sign-outs; a session signed then no longer verifies, so it is removed. */
  static final String SIGNOUTS_FILE = "instructor-signouts";
  static final String PURPOSE = "instructor-session";
  private static final String ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

  private final byte[] secret;
  private final SigningKeys sessionKeys;
  private final Hmac deviceKey;
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();
  private final ClassStore store;

  private InstructorAuth(String secret, ClassStore store, SigningKeys sessionKeys, Clock clock) {
    this.secret = secret.getBytes(StandardCharsets.UTF_8);
    this.sessionKeys = sessionKeys;
    this.deviceKey = new Hmac(new Hmac(this.secret).of("exactly-once-lab instructor device v1"));
    this.clock = clock;
    this.store = store;
  }

  /** The session key of one shared key generation: only who knows both the secret and the key can sign. */
  private Hmac sessionKey(SigningKeys.Key key) {
    return new Hmac(new Hmac(secret).of("exactly-once-lab instructor session v2 " + Base64.getEncoder().encodeToString(key.secret())));
  }

  /**
   * @param announce told where the generated secret was written, the one time it is made (the app prints it on
   *     stdout, which ends up in container logs, so the secret itself is never in it); never called when the secret
   *     is configured or was generated on an earlier start
   */
  static InstructorAuth create(Optional<String> configured, Path dataDir, ClassStore store, Database db, Clock clock,
                               Consumer<String> announce) {
    SigningKeys keys = SigningKeys.load(db, PURPOSE, clock, SigningKeys::randomSecret);
    try {
      Files.deleteIfExists(dataDir.resolve(SIGNOUTS_FILE));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot remove " + dataDir.resolve(SIGNOUTS_FILE), e);
    }
    if (configured.isPresent()) return new InstructorAuth(configured.get(), store, keys, clock);
    Path file = dataDir.resolve(SECRET_FILE);
    try {
      if (Files.exists(file)) return new InstructorAuth(Files.readString(file).strip(), store, keys, clock);
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
      return new InstructorAuth(generated, store, keys, clock);
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
    return session(ctx).filter(s -> !store.signedOut(s.nonce(), clock.instant())).isPresent();
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
    if (!signedByAny(parts[0] + "." + parts[1], parts[2])) return Optional.empty();
    long now = clock.instant().getEpochSecond();
    boolean live = issued <= now + 60 && now - issued < LIFETIME.toSeconds();
    return live ? Optional.of(new Session(parts[1], issued)) : Optional.empty();
  }

  /** Whether a current or the previous session key signed the payload; a key rotated on another node is read. */
  private boolean signedByAny(String payload, String signature) {
    for (SigningKeys.Key key : sessionKeys.verifying()) if (signedBy(sessionKey(key), payload, signature)) return true;
    if (!sessionKeys.refreshIfStale()) return false;
    for (SigningKeys.Key key : sessionKeys.verifying()) if (signedBy(sessionKey(key), payload, signature)) return true;
    return false;
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
    String value = signed(sessionKey(sessionKeys.current()), clock.instant().getEpochSecond() + "." + randomId());
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
    session(ctx).ifPresent(s -> store.signOut(s.nonce(), Instant.ofEpochSecond(s.issued()).plus(LIFETIME), clock.instant()));
    ctx.cookie(new Cookie(COOKIE, "", "/", 0, RequestOrigin.isHttps(ctx), true, null, SameSite.STRICT));
  }

}
