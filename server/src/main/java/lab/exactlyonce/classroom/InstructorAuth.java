package lab.exactlyonce.classroom;

import io.javalin.http.Context;
import io.javalin.http.Cookie;
import io.javalin.http.SameSite;
import lab.exactlyonce.web.Hmac;

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
 * restart and end when the secret changes or after {@link #LIFETIME}.
 */
final class InstructorAuth {
  static final String COOKIE = "eolab_instructor";
  static final String SECRET_FILE = "instructor-secret";
  static final Duration LIFETIME = Duration.ofHours(12);
  private static final String ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

  private final byte[] secret;
  private final Hmac sessionKey;
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();

  private InstructorAuth(String secret, Clock clock) {
    this.secret = secret.getBytes(StandardCharsets.UTF_8);
    this.sessionKey = new Hmac(new Hmac(this.secret).of("exactly-once-lab instructor session v1"));
    this.clock = clock;
  }

  /**
   * @param announce told the generated secret the one time it is made (the app prints it on stdout); never called
   *     when the secret is configured or was generated on an earlier start
   */
  static InstructorAuth create(Optional<String> configured, Path dataDir, Clock clock, Consumer<String> announce) {
    if (configured.isPresent()) return new InstructorAuth(configured.get(), clock);
    Path file = dataDir.resolve(SECRET_FILE);
    try {
      if (Files.exists(file)) return new InstructorAuth(Files.readString(file).strip(), clock);
      String generated = generate(new SecureRandom());
      Files.createDirectories(file.toAbsolutePath().getParent());
      if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      } else {
        Files.createFile(file);
      }
      Files.writeString(file, generated + "\n");
      announce.accept("Instructor secret (shown only this once; it is kept in " + file.toAbsolutePath()
          + "): " + generated);
      return new InstructorAuth(generated, clock);
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
    String value = ctx.cookie(COOKIE);
    if (value == null) return false;
    String[] parts = value.split("\\.");
    if (parts.length != 3) return false;
    long issued;
    try {
      issued = Long.parseLong(parts[0]);
    } catch (NumberFormatException e) {
      return false;
    }
    byte[] given;
    try {
      given = Base64.getUrlDecoder().decode(parts[2]);
    } catch (IllegalArgumentException e) {
      return false;
    }
    if (!MessageDigest.isEqual(given, sessionKey.of(parts[0] + "." + parts[1]))) return false;
    long now = clock.instant().getEpochSecond();
    return issued <= now + 60 && now - issued < LIFETIME.toSeconds();
  }

  void signIn(Context ctx) {
    byte[] nonce = new byte[16];
    random.nextBytes(nonce);
    String payload = clock.instant().getEpochSecond() + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(nonce);
    String value = payload + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(sessionKey.of(payload));
    ctx.cookie(new Cookie(COOKIE, value, "/", (int) LIFETIME.toSeconds(), isHttps(ctx), true, null, SameSite.STRICT));
  }

  void signOut(Context ctx) {
    ctx.cookie(new Cookie(COOKIE, "", "/", 0, isHttps(ctx), true, null, SameSite.STRICT));
  }

  private static boolean isHttps(Context ctx) {
    return "https".equalsIgnoreCase(ctx.scheme()) || "https".equalsIgnoreCase(ctx.header("X-Forwarded-Proto"));
  }

}
