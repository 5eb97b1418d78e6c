package lab.exactlyonce.classroom;

import lab.exactlyonce.Config;
import lab.exactlyonce.TestClock;
import lab.exactlyonce.TestServer;
import lab.exactlyonce.ops.TrustedProxies;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Map;

import static lab.exactlyonce.classroom.Client.SECRET;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Instructor sign-in attacked as students would: guessing from many addresses at once, guessing from the
 * instructor's own network, replaying a cookie after sign-out. The app sits behind a trusted proxy on 127.0.0.1 so
 * each request can come from the address its X-Forwarded-For names.
 */
class InstructorSignInTest {

  private static Config proxied() {
    Config config = Client.config();
    return config.withOps(config.ops().withTrustedProxies(TrustedProxies.parse("127.0.0.1")));
  }

  private static TestServer start(Config config) {
    return TestServer.start(config);
  }

  /** A sign-in attempt from {@code address} (as the proxy reports it), with {@code client}'s cookies. */
  private static HttpResponse<String> signIn(Client client, String address, String secret) {
    String body = "secret=" + URLEncoder.encode(secret, StandardCharsets.UTF_8);
    HttpRequest.Builder request = client.request("/teach/login").header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (address != null) request.header("X-Forwarded-For", address);
    return client.send(request);
  }

  @Test
  void guesses_from_many_addresses_share_one_server_wide_limit() {
    Config config = proxied();
    TestClock.of(config).stop(); // on a busy machine the hundred guesses take seconds, in which the budget refills
    try (TestServer server = start(config)) {
      int checked = 0;
      int refused = 0;
      for (int round = 0; round < 10; round++) {
        for (int a = 1; a <= 10; a++) {
          int status = signIn(new Client(server), "203.0.113." + a, "guess-" + round + "-" + a).statusCode();
          if (status == 401) checked++;
          else if (status == 429) refused++;
        }
      }
      assertEquals(100, checked + refused);
      assertTrue(checked <= SignInThrottle.EVERYWHERE_PER_MINUTE + 1, "ten addresses made " + checked + " guesses");
    }
  }

  @Test
  void a_student_guessing_on_the_instructors_network_does_not_lock_the_instructor_out() {
    try (TestServer server = start(proxied())) {
      Client instructor = new Client(server);
      assertEquals(303, signIn(instructor, "198.51.100.7", SECRET).statusCode(), "signed in once: this browser is known");
      Client student = new Client(server);
      for (int i = 0; i < 20; i++) signIn(student, "198.51.100.7", "guess" + i);
      assertEquals(429, signIn(student, "198.51.100.7", "guess-more").statusCode(), "the student is held up");
      assertEquals(303, signIn(instructor, "198.51.100.7", SECRET).statusCode(), "the instructor's browser is not");
      for (int a = 1; a <= 40; a++) signIn(new Client(server), "203.0.113." + a, "spray" + a);
      assertEquals(303, signIn(new Client(server), null, SECRET).statusCode(),
          "the computer running the app signs in even while guesses lock out unknown browsers");
    }
  }

  @Test
  void signing_out_ends_the_session_for_every_copy_of_its_cookie_even_after_a_restart() throws Exception {
    Config config = proxied(); // the same data directory for both starts
    String copied;
    try (TestServer server = start(config)) {
      Client instructor = new Client(server);
      assertEquals(303, signIn(instructor, null, SECRET).statusCode());
      copied = instructor.cookie(InstructorAuth.COOKIE);
      assertEquals(200, instructor.get("/api/teach/classes").statusCode());
      assertEquals(303, instructor.form("/teach/logout", Map.of()).statusCode());
      assertEquals(401, replay(server, copied).statusCode(), "a copy of the cookie no longer works");
    }
    try (TestServer again = start(config)) {
      assertEquals(401, replay(again, copied).statusCode(), "nor after a restart");
    }
  }

  @Test
  void a_session_ends_after_its_lifetime() {
    Config config = proxied();
    try (TestServer server = start(config)) {
      Client instructor = new Client(server);
      assertEquals(303, signIn(instructor, null, SECRET).statusCode());
      String cookie = instructor.cookie(InstructorAuth.COOKIE);
      TestClock.of(config).advance(InstructorAuth.LIFETIME.minusMinutes(1));
      assertEquals(200, replay(server, cookie).statusCode(), "a minute before its end the session still counts");
      TestClock.of(config).advance(Duration.ofMinutes(1));
      assertEquals(401, replay(server, cookie).statusCode(), "at its end it no longer does");
    }
  }

  private static HttpResponse<String> replay(TestServer server, String cookie) {
    return server.send(HttpRequest.newBuilder(URI.create(server.url("/api/teach/classes"))).header("Cookie", cookie));
  }

  @Test
  void a_weak_secret_is_refused_at_start_and_a_generated_one_is_strong() {
    for (String weak : new String[] {"aaaaaaaaaaaa", "abcdefghijkl", "Password1234", "123456789012"}) {
      var e = assertThrows(Config.ConfigException.class,
          () -> Config.from(new String[] {"--instructor-secret", weak}, Map.of()), weak);
      assertTrue(e.getMessage().startsWith("--instructor-secret is too easy to guess (about "), e.getMessage());
      assertTrue(e.getMessage().endsWith("at least 60 are needed): use four or more unrelated words, or leave it out"
          + " and let the app generate one"), e.getMessage());
    }
    Config.from(new String[] {"--instructor-secret", "correct-horse-battery-staple"}, Map.of());
    SecureRandom random = new SecureRandom();
    for (int i = 0; i < 50; i++) {
      String generated = InstructorAuth.generate(random);
      assertTrue(SecretStrength.bits(generated) >= SecretStrength.MIN_BITS, generated);
    }
  }
}
