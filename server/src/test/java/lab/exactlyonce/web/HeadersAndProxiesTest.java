package lab.exactlyonce.web;

import lab.exactlyonce.Config;
import lab.exactlyonce.TestConfig;
import lab.exactlyonce.TestJvm;
import lab.exactlyonce.TestServer;
import lab.exactlyonce.ops.TrustedProxies;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * What every answer tells the browser (a policy the pages satisfy, no sniffing, no referrer, no framing), and what
 * a client may not make the server believe about the request: the scheme and host a proxy would report are taken
 * from trusted proxies only. The pages' compliance with the policy is checked by every browser test, which fails on
 * any console error, and a refused inline style or script is one.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("sandbox")
class HeadersAndProxiesTest {
  private static final String POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
      + "font-src 'self'; connect-src 'self'; media-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
      + "frame-ancestors 'none'";
  private TestServer server;

  @BeforeAll
  void start() {
    server = TestServer.start();
  }

  @AfterAll
  void stop() {
    server.close();
  }

  static Stream<Arguments> answers() {
    return Stream.of(
        arguments("a lesson page", "/lessons/exactly-once", 200),
        arguments("the home page", "/", 200),
        arguments("an API answer", "/api/exercises", 200),
        arguments("a style sheet", "/assets/css/app.css", 200),
        arguments("a script", "/assets/js/tabs.js", 200),
        arguments("a missing page", "/no/such/page", 404),
        arguments("a missing API", "/api/nothing", 404),
        arguments("a share link never made", "/s/AAAAAAAAAAAA", 404),
        arguments("a share link holding markup", "/s/%3Cscript%3Ealert(1)%3C%2Fscript%3E", 404),
        arguments("a share link far too long", "/s/" + "A".repeat(4000), 404),
        arguments("a share's JSON never made", "/api/shares/AAAAAAAAAAAA", 404),
        arguments("the health check", "/healthz", 200));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("answers")
  void every_answer_carries_the_security_headers(String desc, String path, int status) {
    HttpResponse<String> res = server.get(path);
    assertEquals(status, res.statusCode(), path);
    assertEquals(POLICY, res.headers().firstValue("Content-Security-Policy").orElse(null), path);
    assertEquals("nosniff", res.headers().firstValue("X-Content-Type-Options").orElse(null), path);
    assertEquals("no-referrer", res.headers().firstValue("Referrer-Policy").orElse(null), path);
    assertEquals("DENY", res.headers().firstValue("X-Frame-Options").orElse(null), path);
  }

  @Test
  void the_pages_have_no_inline_script_or_style_for_the_policy_to_refuse() {
    for (String path : List.of("/", "/lessons/exactly-once", "/lessons/exactly-once/quiz", "/join", "/teach/login")) {
      String html = server.get(path).body();
      assertFalse(html.matches("(?s).*<script(?![^>]*\\bsrc=)[^>]*>.*"), path + " has an inline script");
      assertFalse(html.matches("(?s).*\\sstyle=\".*"), path + " has an inline style attribute");
      assertFalse(html.matches("(?s).*<style[\\s>].*"), path + " has a style element");
      assertFalse(html.matches("(?s).*\\son[a-z]+=\".*"), path + " has an inline event handler");
    }
  }

  @Test
  void a_client_cannot_claim_https_or_another_host_without_a_trusted_proxy() {
    HttpResponse<String> res = server.send(HttpRequest.newBuilder(URI.create(server.url("/api/quiz/sessions")))
        .header("Content-Type", "application/json").header("X-Forwarded-Proto", "https")
        .header("X-Forwarded-Host", "evil.example").POST(HttpRequest.BodyPublishers.ofString("{\"lesson\":\"exactly-once\"}")));
    assertEquals(201, res.statusCode(), res.body());
    String cookie = res.headers().firstValue("Set-Cookie").orElseThrow();
    assertFalse(cookie.contains("Secure"), "the request came over plain HTTP: " + cookie);
  }

  @Test
  void a_trusted_proxy_is_believed_about_https() {
    Config config = TestConfig.defaults();
    try (TestServer proxied = TestServer.start(config.withOps(config.ops().withTrustedProxies(TrustedProxies.parse("127.0.0.1"))))) {
      HttpResponse<String> res = proxied.send(HttpRequest.newBuilder(URI.create(proxied.url("/api/quiz/sessions")))
          .header("Content-Type", "application/json").header("X-Forwarded-Proto", "https")
          .POST(HttpRequest.BodyPublishers.ofString("{\"lesson\":\"exactly-once\"}")));
      assertEquals(201, res.statusCode(), res.body());
      assertTrue(res.headers().firstValue("Set-Cookie").orElseThrow().contains("Secure"));
    }
  }

  @Test
  void sites_an_instructor_lets_embed_the_app_are_named_in_the_policy_and_nonsense_is_refused() {
    Config embedded = Config.from(new String[] {"--frame-ancestors", "https://lms.example.edu, 'self'"}, Map.of());
    assertEquals(List.of("https://lms.example.edu", "'self'"), embedded.ops().frameAncestors());
    assertTrue(SecurityHeaders.policy(embedded.ops().frameAncestors()).endsWith("frame-ancestors https://lms.example.edu 'self'"));
    var refused = assertThrows(Config.ConfigException.class,
        () -> Config.from(new String[] {"--frame-ancestors", "*; script-src *"}, Map.of()));
    assertEquals("--frame-ancestors takes origins such as https://lms.example.edu (or 'self'), comma-separated; got "
        + "'*; script-src *'", refused.getMessage());
  }

  @Test
  void a_busy_port_at_start_is_one_line_and_no_stack_trace() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
      Path data = Files.createTempDirectory("eolab-busy-port");
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      Process app = new ProcessBuilder(java, TestJvm.C1_ONLY, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
          "lab.exactlyonce.Main", "--host", "127.0.0.1", "--port", String.valueOf(taken.getLocalPort()),
          "--data-dir", data.toString(), "--sandbox-workers", "1", "--sandbox-confinement", "none")
          .redirectErrorStream(true).start();
      assertTrue(app.waitFor(60, TimeUnit.SECONDS), "the app gives up");
      String output = new String(app.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertEquals(2, app.exitValue(), output);
      assertTrue(output.contains("exactly-once-lab: port " + taken.getLocalPort() + " on 127.0.0.1 is already in use by"
          + " another program: stop it, or start with --port <another port> (0 picks a free one)\n"), output);
      assertFalse(output.contains("\tat "), "no stack trace: " + output);
    }
  }
}
