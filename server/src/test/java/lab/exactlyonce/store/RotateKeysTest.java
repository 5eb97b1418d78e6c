package lab.exactlyonce.store;

import lab.exactlyonce.Config;
import lab.exactlyonce.CookieClient;
import lab.exactlyonce.TestClock;
import lab.exactlyonce.TestConfig;
import lab.exactlyonce.TestServer;
import lab.exactlyonce.learner.Learners;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The key rotation command on the embedded database: nobody is logged out by one rotation, a learner who comes back
 * between two keeps their id through both, and a cookie signed two rotations ago no longer names anyone.
 */
class RotateKeysTest {
  private static final String ADA = "{\"known\":true,\"displayName\":\"Ada\"}";
  private static final String NOBODY = "{\"known\":false,\"displayName\":null}";

  /** What one run of the command printed, and its exit status. */
  record Ran(int status, String out, String err) {}

  static Ran rotate(String... args) {
    return rotate(new TestClock(), args);
  }

  /** The command on the clock of the app whose keys it rotates: the new key signs from that clock's now. */
  static Ran rotate(Clock clock, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = RotateKeys.run(args, null, clock, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Ran(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private static CookieClient withCookie(TestServer app, String cookie) {
    CookieClient client = new CookieClient(app);
    client.cookies.put(Learners.COOKIE, cookie);
    return client;
  }

  @Test
  void a_rotation_logs_nobody_out_and_a_key_two_rotations_old_no_longer_verifies() {
    Config config = TestConfig.defaults();
    String dataDir = config.dataDir().toString();
    String original;
    try (TestServer app = TestServer.start(config)) {
      CookieClient ada = new CookieClient(app);
      assertEquals(200, ada.put("/api/me", "{\"displayName\":\"Ada\"}").statusCode());
      original = ada.cookies.get(Learners.COOKIE);

      Ran whileRunning = rotate(config.clock(), "--data-dir", dataDir);
      assertEquals(2, whileRunning.status());
      assertTrue(whileRunning.err().startsWith("rotate keys: the data dir " + dataDir + " is in use by "),
          whileRunning.err());
      assertTrue(whileRunning.err().contains("stop the app, rotate, and start it again"), whileRunning.err());
    }

    Ran first = rotate(config.clock(), "--data-dir", dataDir);
    assertEquals(0, first.status(), first.err());
    assertTrue(first.out().startsWith("rotated instructor-session to generation 2 and learner-cookie to generation 2."),
        first.out());

    String resigned;
    try (TestServer app = TestServer.startOnDataDirAsIs(config)) {
      CookieClient ada = withCookie(app, original);
      assertEquals(ADA, ada.get("/api/me").body(), "the cookie the old key signed still names Ada");
      resigned = ada.cookies.get(Learners.COOKIE);
      assertNotEquals(original, resigned, "and it came back signed with the new key");
      assertEquals(ADA, withCookie(app, resigned).get("/api/me").body());
    }

    assertEquals(0, rotate(config.clock(), "--data-dir", dataDir).status());
    try (TestServer app = TestServer.startOnDataDirAsIs(config)) {
      assertEquals(ADA, withCookie(app, resigned).get("/api/me").body(), "Ada came back in between: still Ada");
      assertEquals(NOBODY, withCookie(app, original).get("/api/me").body(),
          "a cookie signed two rotations ago names nobody");
    }
  }

  @Test
  void bad_invocations_are_refused_with_one_line() {
    String usage = "usage: java -cp exactly-once-lab.jar lab.exactlyonce.store.RotateKeys --data-dir DIR | --jdbc-url "
        + "URL [--jdbc-user USER] (the password in JDBC_PASSWORD)";
    assertEquals(new Ran(2, "", "rotate keys: " + usage + "\n"), rotate());
    assertEquals(new Ran(2, "", "rotate keys: " + usage + "\n"), rotate("--data-dir", "a", "--jdbc-url", "jdbc:x"));
    assertEquals(new Ran(2, "", "rotate keys: unknown option '--force'; " + usage + "\n"), rotate("--force"));
    assertEquals(new Ran(2, "", "rotate keys: option '--data-dir' needs a value; " + usage + "\n"), rotate("--data-dir"));
    assertEquals(new Ran(2, "", "rotate keys: --jdbc-url must start with 'jdbc:', got 'postgres://x'\n"),
        rotate("--jdbc-url", "postgres://x"));
    Path empty = TestConfig.defaults().dataDir();
    assertEquals(new Ran(2, "", "rotate keys: no database in " + empty + " (expected " + DataDirectory.DATABASE_FILE
        + ")\n"), rotate("--data-dir", empty.toString()));
  }
}
