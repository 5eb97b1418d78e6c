package lab.exactlyonce.ops;

import lab.exactlyonce.Config;
import lab.exactlyonce.TestConfig;
import lab.exactlyonce.TestServer;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RequestLogTest {

  /** The request-log lines written while {@code action} ran against a server with the given log setting. */
  private static List<String> logLines(boolean on, Consumer<TestServer> action) {
    Config config = TestConfig.defaults();
    PrintStream original = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    try (TestServer server = TestServer.start(config.withOps(config.ops().withRequestLog(on)))) {
      System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
      try {
        action.accept(server);
      } finally {
        System.setErr(original);
      }
    }
    return captured.toString(StandardCharsets.UTF_8).lines()
        .filter(l -> l.contains("lab.exactlyonce.requests")).toList();
  }

  @Test
  void one_line_per_request_with_method_path_status_duration_and_address_but_no_query_or_cookie() {
    List<String> lines = logLines(true, server -> {
      server.send(HttpRequest.newBuilder(URI.create(server.url("/lessons/exactly-once?token=s3cr3t")))
          .header("Cookie", "eolab_learner=cookie-value-123").GET());
      server.get("/no/such/page");
    });
    assertEquals(2, lines.size(), String.join("\n", lines));
    Pattern lesson = Pattern.compile(".*lab\\.exactlyonce\\.requests - GET /lessons/exactly-once 200 \\d+\\.\\dms 127\\.0\\.0\\.1$");
    assertTrue(lesson.matcher(lines.get(0)).matches(), lines.get(0));
    assertTrue(lines.get(1).matches(".* - GET /no/such/page 404 \\d+\\.\\dms 127\\.0\\.0\\.1$"), lines.get(1));
    for (String line : lines) {
      assertFalse(line.contains("s3cr3t"), line);
      assertFalse(line.contains("cookie-value-123"), line);
    }
  }

  @Test
  void the_log_can_be_switched_off() {
    List<String> lines = logLines(false, server -> server.get("/lessons/exactly-once"));
    assertEquals(List.of(), lines);
  }
}
