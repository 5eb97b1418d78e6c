package lab.exactlyonce.snippet;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.ServerTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.http.HttpResponse;
import java.util.Map;
import java.util.stream.Stream;

import static lab.exactlyonce.CookieClient.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * {@code POST /api/snippets/{id}/set-knobs}: the page's editor gets the source with the knobs set by the rule a run
 * applies, and a knob it cannot set is a 400 naming it. Nothing runs, so no sandbox worker starts.
 */
class SetKnobsRoutesTest extends ServerTest {
  private String sinkDemo() throws Exception {
    return JSON.readTree(server.get("/api/snippets/sink-demo").body()).get("source").asText();
  }

  @Test
  void the_source_comes_back_with_each_knob_set_in_its_declaration_and_nothing_else_changed() throws Exception {
    String source = sinkDemo() + "\n// my note\n";
    HttpResponse<String> res = server.postJson("/api/snippets/sink-demo/set-knobs", JSON.writeValueAsString(
        Map.of("source", source, "params", Map.of("CRASH_AFTER", 5, "CRASH_BEFORE_COMMIT", true))));
    assertEquals(200, res.statusCode(), res.body());
    String rewritten = JSON.readTree(res.body()).get("source").asText();
    assertEquals(source.replace("static final int CRASH_AFTER = 4;", "static final int CRASH_AFTER = 5;")
        .replace("static final boolean CRASH_BEFORE_COMMIT = false;", "static final boolean CRASH_BEFORE_COMMIT = true;"),
        rewritten);
  }

  static Stream<Arguments> refused() {
    return Stream.of(
        arguments("a number above the range", "sink-demo", "{\"source\":\"%s\",\"params\":{\"CRASH_AFTER\":9}}", 400,
            "knob 'CRASH_AFTER' of snippet 'sink-demo' must be from 1 to 5, got 9"),
        arguments("a string for a number", "sink-demo", "{\"source\":\"%s\",\"params\":{\"CRASH_AFTER\":\"3\"}}", 400,
            "knob 'CRASH_AFTER' of snippet 'sink-demo' takes a whole number from 1 to 5, got \"3\""),
        arguments("no params", "sink-demo", "{\"source\":\"%s\"}", 400,
            "'params' is required: the knobs to set, by name"),
        arguments("null params", "sink-demo", "{\"source\":\"%s\",\"params\":null}", 400,
            "'params' is required: the knobs to set, by name"),
        arguments("no source", "sink-demo", "{\"params\":{\"CRASH_AFTER\":3}}", 400, "'source' is required"),
        arguments("an unknown field", "sink-demo", "{\"source\":\"%s\",\"params\":{},\"snippet\":\"x\"}", 400,
            "unknown field 'snippet'; the fields are 'source' and 'params'"),
        arguments("a source without the declaration", "sink-demo",
            "{\"source\":\"class A {}\",\"params\":{\"CRASH_AFTER\":3}}", 400,
            "the source no longer declares 'static final int CRASH_AFTER = ...;', which knob 'CRASH_AFTER' sets;"
                + " restore that line or reset the snippet"),
        arguments("an unknown snippet", "no-such-demo", "{\"source\":\"%s\",\"params\":{}}", 404,
            "no snippet 'no-such-demo'"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refused")
  void a_knob_that_cannot_be_set_is_refused_naming_it(String desc, String snippet, String body, int status,
                                                       String message) throws Exception {
    String source = JSON.writeValueAsString(sinkDemo());
    HttpResponse<String> res = server.postJson("/api/snippets/" + snippet + "/set-knobs",
        body.replace("\"%s\"", source));
    assertEquals(status, res.statusCode(), res.body());
    JsonNode error = JSON.readTree(res.body()).get("error");
    assertEquals(message, error.asText());
  }
}
