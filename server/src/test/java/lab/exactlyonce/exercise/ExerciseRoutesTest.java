package lab.exactlyonce.exercise;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import lab.exactlyonce.Config;
import lab.exactlyonce.ServerTest;
import lab.exactlyonce.TestServer;
import lab.exactlyonce.sandbox.SandboxSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The fix-the-sink exercises over HTTP with real sandbox workers: each reference solution passes every scenario,
 * each starter and each wrong fix fails with the verdicts that name what went wrong, and bad requests are 4xx.
 */
class ExerciseRoutesTest extends ServerTest {
  static final ObjectMapper JSON = new ObjectMapper();

  @Override
  protected TestServer startServer() {
    return TestServer.start(Config.forTests().withSandbox(SandboxSettings.defaults().withWorkers(2))).awaitSandbox();
  }

  @Test
  void the_exercises_are_listed_with_their_titles() throws Exception {
    assertEquals(JSON.readTree("["
            + "{\"id\":\"dedupe-horizon\",\"title\":\"Make the dedupe survive a retry horizon\",\"lesson\":\"exactly-once\"},"
            + "{\"id\":\"exactly-once-append\",\"title\":\"Make the append sink exactly-once\",\"lesson\":\"exactly-once\"},"
            + "{\"id\":\"idempotent-payment\",\"title\":\"Make the payment call idempotent\",\"lesson\":\"exactly-once\"}]"),
        JSON.readTree(server.get("/api/exercises").body()));
  }

  @Test
  void an_exercise_has_its_description_and_starter_but_not_its_checker() throws Exception {
    JsonNode e = JSON.readTree(server.get("/api/exercises/exactly-once-append").body());
    assertEquals("exactly-once-append", e.get("id").asText());
    assertTrue(e.get("description").asText().startsWith("The job writes orders o1..o5 to an append-only table"));
    assertTrue(e.get("source").asText().startsWith("import java.util.*;\n"), "no header lines in the source");
    assertTrue(e.get("source").asText().contains("class AppendSink {"));
    assertFalse(e.get("source").asText().contains("ExerciseCheck"), "the checker stays on the server");
    assertFalse(e.has("harness"));
  }

  @Test
  void an_unknown_exercise_is_a_404() throws Exception {
    HttpResponse<String> res = server.get("/api/exercises/make-it-fast");
    assertEquals(404, res.statusCode());
    assertEquals("{\"error\":\"no exercise 'make-it-fast'\"}", res.body());
    res = server.postJson("/api/exercises/make-it-fast/check", "{\"source\":\"class A {}\"}");
    assertEquals(404, res.statusCode());
    assertEquals("{\"error\":\"no exercise 'make-it-fast'\"}", res.body());
  }

  /** Every exercise of every lesson: each must have a reference solution in the test resources. */
  static Stream<String> exerciseIds() {
    return ExerciseCatalog.load(java.nio.file.Path.of("snippets")).all().stream().map(Exercise::id);
  }

  @ParameterizedTest
  @MethodSource("exerciseIds")
  void the_reference_solution_passes_every_scenario(String id) throws Exception {
    JsonNode result = check(id, resource("/exercise-solutions/" + id + ".java"));
    assertEquals("ok", result.get("status").asText(), result.toString());
    for (JsonNode s : result.get("scenarios")) {
      assertTrue(s.get("passed").asBoolean(), s.toString());
      assertEquals(0, s.get("verdicts").size());
    }
    assertTrue(result.get("passed").asBoolean());
    assertTrue(result.get("scenarios").size() >= 9, "many crash points: " + result.get("scenarios").size());
    assertEquals("", result.get("stdout").asText());
  }

  @Test
  void the_append_starter_writes_duplicates_after_every_replay() throws Exception {
    JsonNode result = check("exactly-once-append", starter("exactly-once-append"));
    assertFalse(result.get("passed").asBoolean());
    Map<String, List<String>> verdicts = verdicts(result);
    assertEquals(21, verdicts.size(), verdicts.keySet().toString());
    assertEquals(List.of(), verdicts.get("no crash, checkpoints every 2"));
    assertEquals(List.of("duplicate write of o3 after replay from offset 2", "duplicate write of o4 after replay from offset 2"),
        verdicts.get("crash after o4, checkpoints every 2"));
    assertEquals(List.of("duplicate write of o1 after replay from offset 0", "duplicate write of o2 after replay from offset 0"),
        verdicts.get("crash during the checkpoint at offset 2, before it completed, checkpoints every 2"));
    assertEquals(List.of(), verdicts.get("crash after the checkpoint at offset 4 completed, before its commit, checkpoints every 2"));
    assertEquals(List.of("duplicate write of o4 after replay from offset 3", "duplicate write of o5 after replay from offset 3"),
        verdicts.get("crash after o5, checkpoints every 3"));
  }

  @Test
  void a_sink_that_never_finishes_its_transactions_on_recovery_leaves_them_open_and_loses_records() throws Exception {
    Map<String, List<String>> verdicts = verdicts(check("exactly-once-append", resource("/exercise-attempts/append-never-aborts.java")));
    assertEquals(List.of("transaction left open"), verdicts.get("crash after o4, checkpoints every 2"));
    assertEquals(List.of("record o3 lost", "record o4 lost", "transaction left open"),
        verdicts.get("crash after the checkpoint at offset 4 completed, before its commit, checkpoints every 2"));
    assertEquals(List.of(), verdicts.get("no crash, checkpoints every 2"));
  }

  @Test
  void a_sink_that_takes_rows_back_on_recovery_is_caught_by_the_consumer() throws Exception {
    Map<String, List<String>> verdicts = verdicts(check("exactly-once-append", resource("/exercise-attempts/append-deletes-on-recovery.java")));
    assertEquals(List.of("record o1 lost", "record o2 lost", "consumer saw aborted output"),
        verdicts.get("crash after o4, checkpoints every 2"));
  }

  @Test
  void the_payment_starter_charges_retries_and_replays_twice() throws Exception {
    Map<String, List<String>> verdicts = verdicts(check("idempotent-payment", starter("idempotent-payment")));
    assertEquals(List.of(), verdicts.get("no failures"));
    assertEquals(List.of("payment p2 charged twice"), verdicts.get("the answer to p2 is lost after the charge"));
    assertEquals(List.of(), verdicts.get("the request for p2 is lost before the charge"));
    assertEquals(List.of("payment p3 charged twice"), verdicts.get("crash after p3, replay from the checkpoint"));
    assertEquals(List.of("payment p3 charged twice", "payment p4 charged twice"),
        verdicts.get("crash after p4, replay from the checkpoint"));
  }

  @Test
  void a_payment_step_that_swallows_timeouts_loses_payments() throws Exception {
    Map<String, List<String>> verdicts = verdicts(check("idempotent-payment", resource("/exercise-attempts/payment-swallows-timeouts.java")));
    assertEquals(List.of("payment p3 never charged"), verdicts.get("the request for p3 is lost before the charge"));
    assertEquals(List.of(), verdicts.get("the answer to p3 is lost after the charge"));
  }

  @Test
  void the_dedupe_starter_forgets_too_soon_and_loses_its_seen_set_in_a_crash() throws Exception {
    Map<String, List<String>> verdicts = verdicts(check("dedupe-horizon", starter("dedupe-horizon")));
    assertEquals(List.of(), verdicts.get("e1 retried 59 s after its first send"));
    assertEquals(List.of("duplicate of e1 accepted at t=90 (a retry 90 s after the first send)"),
        verdicts.get("e1 retried 90 s after its first send"));
    assertEquals(List.of("duplicate of e1 accepted at t=20 (a retry 20 s after the first send) after the crash"),
        verdicts.get("crash after e2, then a retry of e1 at t=20"));
    assertEquals(List.of(), verdicts.get("100 events, then one at t=1000, long after every retry horizon"));
  }

  @Test
  void a_dedupe_that_never_forgets_is_exact_but_grows_forever() throws Exception {
    Map<String, List<String>> verdicts = verdicts(check("dedupe-horizon", resource("/exercise-attempts/dedupe-never-forgets.java")));
    assertEquals(List.of("the seen-set still holds 101 ids at t=1000: ids past the retry horizon are never forgotten"),
        verdicts.get("100 events, then one at t=1000, long after every retry horizon"));
    assertEquals(List.of(), verdicts.get("e1 retried 299 s after its first send"));
  }

  @Test
  void printing_a_fake_verdict_block_does_not_pass_the_check() throws Exception {
    String forged = starter("idempotent-payment").replace("void process(String payment, int amount) {",
        "void process(String payment, int amount) {\n"
            + "        System.out.println(\"@@verdicts 0000\\nscenario\\tno failures\\tpass\\n@@end 0000 1\");");
    JsonNode result = check("idempotent-payment", forged);
    assertEquals("ok", result.get("status").asText());
    assertFalse(result.get("passed").asBoolean());
    assertEquals(16, result.get("scenarios").size());
    assertTrue(result.get("stdout").asText().startsWith("@@verdicts 0000\nscenario\tno failures\tpass\n@@end 0000 1\n"),
        "the learner's own output is shown as theirs");
  }

  @Test
  void calling_the_checker_from_the_learners_code_fails_the_scenarios() throws Exception {
    String reentrant = resource("/exercise-solutions/idempotent-payment.java").replace("gateway.charge(payment, payment, amount);",
        "gateway.charge(payment, payment, amount);\n        ExerciseCheck.main(new String[0]);");
    JsonNode result = check("idempotent-payment", reentrant);
    assertFalse(result.get("passed").asBoolean());
    assertEquals(List.of("the payment step failed: java.lang.IllegalStateException: the checker runs once",
        "payment p2 never charged", "payment p3 never charged", "payment p4 never charged"), verdicts(result).get("no failures"));
  }

  @Test
  void a_compile_error_in_the_learners_code_is_reported_at_its_line() throws Exception {
    String broken = starter("idempotent-payment").replace("requests++;", "requests++ oops;");
    JsonNode result = check("idempotent-payment", broken);
    assertEquals("compile_error", result.get("status").asText());
    assertFalse(result.get("passed").asBoolean());
    assertEquals(0, result.get("scenarios").size());
    int line = broken.lines().toList().indexOf(broken.lines().filter(l -> l.contains("oops")).findFirst().orElseThrow()) + 1;
    assertEquals(line, result.get("diagnostics").get(0).get("line").asInt(), result.toString());
  }

  @Test
  void removing_the_class_the_checker_calls_is_reported_as_the_checkers_complaint() throws Exception {
    JsonNode result = check("idempotent-payment", "class Something {}");
    assertEquals("compile_error", result.get("status").asText());
    assertEquals(0, result.get("diagnostics").get(0).get("line").asInt());
    assertTrue(result.get("diagnostics").get(0).get("message").asText().startsWith("in the checker, which calls your code: "),
        result.toString());
  }

  @Test
  void a_main_method_of_the_learners_own_that_runs_instead_of_the_checker_does_not_pass() throws Exception {
    JsonNode result = check("dedupe-horizon", starter("dedupe-horizon")
        + "\npublic class Mine { public static void main(String[] a) { System.out.println(\"all good\"); } }\n");
    assertEquals("ok", result.get("status").asText());
    assertFalse(result.get("passed").asBoolean());
    assertEquals("all good\n", result.get("stdout").asText());
    assertEquals("the checker never ran: your code has its own public class with a main method, which ran instead;"
        + " remove that main method and check again", result.get("diagnostics").get(0).get("message").asText());
  }

  static Stream<Arguments> badChecks() {
    return Stream.of(
        arguments("no source", "application/json", "{}", 400, "'source' is missing: send {\"source\": \"...\"}"),
        arguments("a blank source", "application/json", "{\"source\":\" \"}", 400, "'source' is blank: there is nothing to check"),
        arguments("a numeric source", "application/json", "{\"source\":1}", 400, "'source' must be a string"),
        arguments("an unknown field", "application/json", "{\"source\":\"x\",\"harness\":\"y\"}", 400,
            "unknown field 'harness'; the only field is 'source'"),
        arguments("not JSON", "application/json", "class A {}", 400,
            "the request body is not valid JSON: Unrecognized token 'class': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')"),
        arguments("plain text", "text/plain", "{\"source\":\"x\"}", 415,
            "the request body must be JSON sent with 'Content-Type: application/json', got 'text/plain'"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badChecks")
  void a_bad_check_request_is_refused_naming_the_problem(String desc, String type, String body, int status, String message)
      throws Exception {
    HttpResponse<String> res = server.post("/api/exercises/exactly-once-append/check", type, body);
    assertEquals(status, res.statusCode(), res.body());
    assertEquals(message, JSON.readTree(res.body()).get("error").asText());
  }

  @Test
  void a_passed_exercise_is_recorded_as_a_progress_event_of_a_known_exercise() throws Exception {
    String id = UUID.randomUUID().toString();
    HttpResponse<String> ok = server.postJson("/api/events", "{\"id\":\"" + id + "\",\"type\":\"exercise.passed\","
        + "\"lesson\":\"exactly-once\",\"item\":\"exactly-once-append\",\"data\":{}}");
    assertEquals(200, ok.statusCode(), ok.body());
    assertEquals("exercise.passed", JSON.readTree(ok.body()).get("type").asText());

    HttpResponse<String> unknown = server.postJson("/api/events", "{\"id\":\"" + UUID.randomUUID() + "\",\"type\":\"exercise.passed\","
        + "\"lesson\":\"exactly-once\",\"item\":\"make-it-fast\",\"data\":{}}");
    assertEquals(400, unknown.statusCode());
    assertEquals("lesson 'exactly-once' has no exercise 'make-it-fast'", JSON.readTree(unknown.body()).get("error").asText());

    HttpResponse<String> withData = server.postJson("/api/events", "{\"id\":\"" + UUID.randomUUID() + "\",\"type\":\"exercise.passed\","
        + "\"lesson\":\"exactly-once\",\"item\":\"dedupe-horizon\",\"data\":{\"score\":100}}");
    assertEquals(400, withData.statusCode());
    assertEquals("'exercise.passed' events take no data fields, got 'data.score'", JSON.readTree(withData.body()).get("error").asText());
  }

  private JsonNode check(String id, String source) throws Exception {
    HttpResponse<String> res = server.postJson("/api/exercises/" + id + "/check", JSON.writeValueAsString(Map.of("source", source)));
    assertEquals(200, res.statusCode(), res.body());
    return JSON.readTree(res.body());
  }

  private String starter(String id) throws Exception {
    return JSON.readTree(server.get("/api/exercises/" + id).body()).get("source").asText();
  }

  /** Scenario name to its verdicts, in the checker's order. */
  private static Map<String, List<String>> verdicts(JsonNode result) {
    assertEquals("ok", result.get("status").asText(), result.toString());
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (JsonNode s : result.get("scenarios")) {
      List<String> v = new java.util.ArrayList<>();
      s.get("verdicts").forEach(x -> v.add(x.asText()));
      out.put(s.get("name").asText(), v);
    }
    return out;
  }

  private static String resource(String path) throws IOException {
    try (InputStream in = ExerciseRoutesTest.class.getResourceAsStream(path)) {
      if (in == null) throw new IOException("no resource " + path);
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
