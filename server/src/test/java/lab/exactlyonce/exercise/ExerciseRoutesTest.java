package lab.exactlyonce.exercise;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.CookieClient;
import lab.exactlyonce.ReferenceSolutions;
import lab.exactlyonce.ServerTest;
import lab.exactlyonce.TestServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import static lab.exactlyonce.CookieClient.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The fix-the-sink exercises over HTTP with real sandbox workers: each reference solution passes every scenario,
 * each starter fails with the verdicts that name what went wrong (KnownWrongSolutionsTest holds the wrong fixes), and
 * bad requests are 4xx.
 */
@Tag("sandbox")
class ExerciseRoutesTest extends ServerTest {

  @Override
  protected TestServer startServer() {
    return TestServer.startWithSandbox(2);
  }

  @Test
  void the_exercises_are_listed_with_their_titles() throws Exception {
    assertEquals(JSON.readTree("["
            + "{\"id\":\"dedupe-horizon\",\"title\":\"Make the dedupe survive a retry horizon\",\"lesson\":\"exactly-once\"},"
            + "{\"id\":\"exactly-once-append\",\"title\":\"Make the append sink exactly-once\",\"lesson\":\"exactly-once\"},"
            + "{\"id\":\"idempotent-payment\",\"title\":\"Make the payment call idempotent\",\"lesson\":\"exactly-once\"},"
            + "{\"id\":\"inbox-consumer\",\"title\":\"Make the payment consumer idempotent with an inbox\","
            + "\"lesson\":\"outbox\"}]"),
        JSON.readTree(server.get("/api/exercises").body()));
  }

  @Test
  void an_exercise_has_its_description_and_starter_but_not_its_checker() throws Exception {
    JsonNode e = JSON.readTree(server.get("/api/exercises/exactly-once-append").body());
    assertEquals("exactly-once-append", e.get("id").asText());
    assertTrue(e.get("description").asText().startsWith("The job writes orders o1..o5 to an append-only table"));
    assertTrue(e.get("source").asText().startsWith("import java.util.*;\n"), "no header lines in the source");
    assertTrue(e.get("source").asText().contains("class AppendSink implements CheckpointedSink {"));
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
    return ExerciseCatalog.load(Path.of("snippets")).all().stream().map(Exercise::id);
  }

  @ParameterizedTest
  @MethodSource("exerciseIds")
  void the_reference_solution_passes_every_scenario(String id) throws Exception {
    JsonNode result = check(id, ReferenceSolutions.of(id));
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
    assertEquals(27, verdicts.size(), verdicts.keySet().toString());
    assertEquals(List.of(), verdicts.get("a run without a crash, checkpoints every 2"));
    assertEquals(List.of("duplicate write of o3 after replay from offset 2", "duplicate write of o4 after replay from offset 2"),
        verdicts.get("crash after o4, checkpoints every 2"));
    assertEquals(List.of("duplicate write of o1 after replay from offset 0", "duplicate write of o2 after replay from offset 0"),
        verdicts.get("crash after the pre-commit at offset 2, before that checkpoint completed, checkpoints every 2"));
    assertEquals(List.of(), verdicts.get("crash after the checkpoint at offset 4 completed, before its notice, checkpoints every 2"));
    assertEquals(List.of("duplicate write of o4 after replay from offset 3", "duplicate write of o5 after replay from offset 3"),
        verdicts.get("crash after o5, checkpoints every 3"));

    // The digest leads with the earliest failed crash point, groups the failures under their one reason, and hints.
    long failed = verdicts.values().stream().filter(v -> !v.isEmpty()).count();
    assertEquals(JSON.readTree("{\"scenario\": \"crash after o1, checkpoints every 2\", \"seen\": [{\"reader\": "
        + "\"a reader saw an order twice\", \"verdict\": \"duplicate write of o1 after replay from offset 0\"}]}"),
        result.get("digest").get("first"));
    assertEquals(JSON.readTree("[{\"label\": \"a reader saw an order twice\", \"scenarios\": " + failed
            + ", \"example\": \"duplicate write of o1 after replay from offset 0\"}]"),
        result.get("digest").get("reasons"));
    assertEquals(failed, result.get("digest").get("failed").asLong());
    assertTrue(result.get("digest").get("hint").asText().startsWith("A replay writes again every order since the last "
        + "completed checkpoint."), result.get("digest").toString());
  }

  @Test
  void the_payment_starter_charges_retries_and_replays_twice() throws Exception {
    Map<String, List<String>> verdicts = verdicts(check("idempotent-payment", starter("idempotent-payment")));
    assertEquals(List.of(), verdicts.get("every answer arrives and nothing crashes"));
    assertEquals(List.of("payment p2 charged twice"), verdicts.get("the answer to p2 is lost after the charge"));
    assertEquals(List.of(), verdicts.get("the request for p2 is lost before the charge"));
    assertEquals(List.of("payment p3 charged twice"), verdicts.get("crash after p3, replay from the checkpoint"));
    assertEquals(List.of("payment p3 charged twice", "payment p4 charged twice"),
        verdicts.get("crash after p4, replay from the checkpoint"));
  }

  @Test
  void the_inbox_starter_charges_every_copy_that_reaches_it() throws Exception {
    Map<String, List<String>> verdicts = verdicts(check("inbox-consumer", starter("inbox-consumer")));
    assertEquals(List.of(), verdicts.get("every message delivered once, no crash"));
    assertEquals(List.of(), verdicts.get("crash inside o2's transaction, before it commits; a new consumer polls o2 again"));
    assertEquals(List.of("order o2 charged twice: no inbox row recorded that event e2 was already handled"),
        verdicts.get("crash after o2's transaction commits, before its offset is committed; a new consumer polls o2 again"));
    assertEquals(List.of("order o2 charged twice: no inbox row recorded that event e2 was already handled",
            "order o3 charged twice: no inbox row recorded that event e3 was already handled"),
        verdicts.get("the relay crashed after publishing e2 and e3 and publishes them again, at offsets 3 and 4"));
  }

  @Test
  void the_dedupe_starter_forgets_too_soon_and_loses_its_seen_set_in_a_crash() throws Exception {
    Map<String, List<String>> verdicts = verdicts(check("dedupe-horizon", starter("dedupe-horizon")));
    assertEquals(List.of(), verdicts.get("e1 retried 59 s after its first send"));
    assertEquals(List.of("duplicate of e1 accepted at t=90 (a retry 90 s after the first send)"),
        verdicts.get("e1 retried 90 s after its first send"));
    assertEquals(List.of("duplicate of e1 accepted at t=20 (a retry 20 s after the first send) after the crash"),
        verdicts.get("crash after e2, then a retry of e1 at t=20"));
    assertEquals(List.of(), verdicts.get("100 events at t=0..99, then one at t=699, when even the longest allowed TTL is over"));
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

  /**
   * The checker boundary, attacked as a student would: each row changes an unfixed starter (which must never pass)
   * or the reference solution in one hostile way. No row may be recorded as a pass, whatever the learner's code
   * prints, names or declares; {@code expected} is the status the learner is answered with, {@code says} a part of
   * the first diagnostic (or of the program's own output for a run that went through).
   */
  static Stream<Arguments> forgeries() {
    String fakeBlock = "@@verdicts 0000\\nscenario\\tno failures\\tpass\\n@@end 0000 1";
    return Stream.of(
        arguments("a main of its own prints a verdict block in the old report format", "dedupe-horizon",
            STARTER, "\npublic class Mine { public static void main(String[] a) { System.out.println(\"" + fakeBlock
                + "\"); } }\n", "ok", ""),
        arguments("the sink prints text that mimics the report on every call", "idempotent-payment",
            STARTER_PAYMENT_PRINTS, "", "ok", "@@verdicts 0000"),
        arguments("a class named System shadows java.lang.System", "exactly-once-append", STARTER,
            "\nclass System { static java.io.PrintStream out; }\n", "compile_error", "would hide java.lang.System"),
        arguments("a class named String shadows java.lang.String", "exactly-once-append", STARTER,
            "\nclass String { }\n", "compile_error", "would hide java.lang.String"),
        arguments("a class named Object shadows java.lang.Object", "idempotent-payment", STARTER,
            "\nclass Object { }\n", "compile_error", "would hide java.lang.Object"),
        arguments("a class named Math shadows java.lang.Math", "dedupe-horizon", STARTER,
            "\nclass Math { static int max(int a, int b) { return 0; } }\n", "compile_error", "would hide java.lang.Math"),
        arguments("a nested class named Integer shadows java.lang.Integer", "idempotent-payment", STARTER,
            "\nclass Outer { static class Integer { } }\n", "compile_error", "would hide java.lang.Integer"),
        arguments("its own class named like the checker, with the checker's entry point", "exactly-once-append", STARTER,
            "\npublic class ExerciseCheck { public static void check(Object c) { } public static void main(String[] a) { } }\n",
            "ok", ""),
        arguments("its own Table stands in for the exercise's", "exactly-once-append", STARTER,
            "\nclass Table { void append(String t, String k, int a) { } String begin() { return \"\"; } "
                + "void commit(String t) { } void abort(String t) { } }\n",
            "compile_error", "which the exercise provides"),
        arguments("names the engine's report handle", "idempotent-payment", STARTER,
            "\nclass Sneak { static lab.exactlyonce.sandbox.engine.Check c; }\n", "compile_error",
            "there is no class named Check in lab.exactlyonce.sandbox.engine"),
        arguments("calls the checker's own view of the table to read or fake it", "exactly-once-append",
            STARTER_APPEND_PEEKS, "", "ok", ""),
        arguments("drops the interface the checker calls it through", "exactly-once-append", SOLUTION_WITHOUT_INTERFACE,
            "", "compile_error", "class AppendSink must implement CheckpointedSink"),
        arguments("removes the class the checker drives", "idempotent-payment", NOTHING,
            "class Something {}", "compile_error", "your code must declare class PaymentStep implements PaymentProcessor"),
        arguments("an exception whose message is a verdict block", "idempotent-payment", STARTER_PAYMENT_THROWS_REPORT,
            "", "ok", ""));
  }

  private static final String STARTER = "starter";
  private static final String NOTHING = "nothing";
  private static final String STARTER_PAYMENT_PRINTS = "payment prints";
  private static final String STARTER_APPEND_PEEKS = "append peeks";
  private static final String SOLUTION_WITHOUT_INTERFACE = "solution without interface";
  private static final String STARTER_PAYMENT_THROWS_REPORT = "payment throws report";

  private String attack(String exercise, String base, String appended) throws Exception {
    String fake = "\"@@verdicts 0000\\nscenario\\tno failures\\tpass\\n@@end 0000 1\"";
    return switch (base) {
      case STARTER -> starter(exercise) + appended;
      case NOTHING -> appended;
      case STARTER_PAYMENT_PRINTS -> starter(exercise).replace("requests++;", "requests++;\n        System.out.println(" + fake + ");");
      case STARTER_PAYMENT_THROWS_REPORT -> starter(exercise).replace("requests++;",
          "requests++;\n        if (requests == 1) throw new IllegalStateException(" + fake + ");");
      case STARTER_APPEND_PEEKS -> starter(exercise).replace("table.append(null, key, amount);",
          "table.append(null, key, amount);\n        Table.View.count(table, key);");
      case SOLUTION_WITHOUT_INTERFACE -> ReferenceSolutions.of(exercise).replace(" implements CheckpointedSink", "");
      default -> throw new IllegalArgumentException(base);
    };
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("forgeries")
  void no_forgery_is_recorded_as_a_pass(String desc, String exercise, String base, String appended, String expected,
                                        String says) throws Exception {
    CookieClient learner = new CookieClient(server);
    String source = attack(exercise, base, appended);
    HttpResponse<String> res = learner.post("/api/exercises/" + exercise + "/check",
        JSON.writeValueAsString(Map.of("source", source, "attempt", UUID.randomUUID().toString())));
    assertEquals(200, res.statusCode(), res.body());
    JsonNode result = JSON.readTree(res.body());
    assertFalse(result.get("passed").asBoolean(), result.toString());
    assertEquals(expected, result.get("status").asText(), result.toString());
    if (expected.equals("ok")) {
      assertTrue(result.get("scenarios").size() >= 9, "the real checker ran: " + result);
      assertTrue(result.get("stdout").asText().contains(says), result.toString());
    } else {
      assertTrue(result.get("diagnostics").get(0).get("message").asText().contains(says), result.toString());
      assertEquals(0, result.get("scenarios").size());
    }
    assertEquals(JSON.readTree("{\"checks\":1,\"passed\":false,\"status\":\"" + expected + "\"}"),
        progress(learner).get("exercises").get(exercise), "what the dashboard and progress read");
  }

  @Test
  void a_sink_that_remembers_in_a_static_set_fails_and_is_told_that_a_crash_clears_statics() throws Exception {
    CookieClient learner = new CookieClient(server);
    String source = Files.readString(Path.of("snippets/exactly-once/exercises/wrong/ExactlyOnceAppend/"
        + "remembers-in-a-static-set.java"));
    HttpResponse<String> res = learner.post("/api/exercises/exactly-once-append/check",
        JSON.writeValueAsString(Map.of("source", source, "attempt", UUID.randomUUID().toString())));
    assertEquals(200, res.statusCode(), res.body());
    JsonNode result = JSON.readTree(res.body());
    assertFalse(result.get("passed").asBoolean(), result.toString());
    assertEquals(List.of("duplicate write of o3 after replay from offset 2", "duplicate write of o4 after replay from "
        + "offset 2", "a crash ends the process: your classes were loaded afresh after it, so their static fields "
        + "(AppendSink.APPENDED) started over. A crash keeps only what lives outside your objects and what the job "
        + "restores from its checkpoint"), verdicts(result).get("crash after o4, checkpoints every 2"));
    assertEquals(List.of(), verdicts(result).get("a run without a crash, checkpoints every 2"));
    assertEquals(JSON.readTree("{\"checks\":1,\"passed\":false,\"status\":\"ok\"}"),
        progress(learner).get("exercises").get("exactly-once-append"), "recorded as failed");

    // Two reasons; the hint is the one that explains the other: the set in a static did not survive the crash.
    List<String> reasons = new ArrayList<>();
    result.get("digest").get("reasons").forEach(r -> reasons.add(r.get("label").asText()));
    assertEquals(List.of("a reader saw an order twice", "the sink forgot, in the crash, what it kept in static fields"),
        reasons);
    assertTrue(result.get("digest").get("hint").asText().startsWith("A crash loads your classes afresh"),
        result.get("digest").toString());

    // A resent attempt is answered from the recorded verdicts, with the same digest.
    HttpResponse<String> again = learner.post("/api/exercises/exactly-once-append/check",
        JSON.writeValueAsString(Map.of("source", source, "attempt", result.get("attempt").asText())));
    assertEquals(result.get("digest"), JSON.readTree(again.body()).get("digest"));
  }

  @Test
  void a_learners_main_never_runs_in_a_check_and_its_output_is_the_learners_own() throws Exception {
    JsonNode result = check("idempotent-payment", ReferenceSolutions.of("idempotent-payment")
        + "\npublic class Mine { public static void main(String[] a) { System.out.println(\"all good\"); } }\n");
    assertTrue(result.get("passed").asBoolean(), result.toString());
    assertEquals("", result.get("stdout").asText(), "only the checker decides what runs");
    String printing = ReferenceSolutions.of("idempotent-payment").replace("gateway.charge(payment + \":charge\", payment, amount);",
        "gateway.charge(payment + \":charge\", payment, amount);\n        System.out.println(\"charged \" + payment);");
    JsonNode loud = check("idempotent-payment", printing);
    assertTrue(loud.get("passed").asBoolean(), loud.toString());
    assertTrue(loud.get("stdout").asText().startsWith("charged p1\ncharged p2\n"), loud.toString());
  }

  @Test
  void a_runtime_error_in_the_learners_code_names_the_learners_line_not_the_checkers() throws Exception {
    String source = starter("idempotent-payment").replace("requests++;", "requests++;\n        int[] none = new int[0];\n        none[requests] = 1;");
    JsonNode result = check("idempotent-payment", source);
    assertEquals("ok", result.get("status").asText(), result.toString());
    String verdict = verdicts(result).get("every answer arrives and nothing crashes").get(0);
    assertEquals("the payment step failed: java.lang.ArrayIndexOutOfBoundsException: Index 1 out of bounds for length 0",
        verdict);
  }

  static Stream<Arguments> badChecks() {
    return Stream.of(
        arguments("no source", "application/json", "{}", 400, "'source' is required"),
        arguments("a blank source", "application/json", "{\"source\":\" \"}", 400, "'source' is blank: there is nothing to check"),
        arguments("a numeric source", "application/json", "{\"source\":1}", 400, "'source' must be a string, got 1"),
        arguments("an unknown field", "application/json", "{\"source\":\"x\",\"harness\":\"y\"}", 400,
            "unknown field 'harness'; the fields are 'source' and 'attempt'"),
        arguments("a malformed attempt", "application/json", "{\"source\":\"x\",\"attempt\":\"again\"}", 400,
            "'attempt' must be a UUID such as 0b6f4ad2-9d1c-4e31-a6f5-2c8e0b7d9a10 (a new one for each Check), got \"again\""),
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
  void each_check_is_recorded_once_per_attempt_and_progress_shows_the_pass_after_a_reload() throws Exception {
    CookieClient learner = new CookieClient(server);
    String failing = UUID.randomUUID().toString();
    String body = JSON.writeValueAsString(Map.of("source", starter("exactly-once-append"), "attempt", failing));
    HttpResponse<String> first = learner.post("/api/exercises/exactly-once-append/check", body);
    assertEquals(200, first.statusCode(), first.body());
    JsonNode checked = JSON.readTree(first.body());
    assertEquals(failing, checked.get("attempt").asText());
    assertFalse(checked.get("repeated").asBoolean());
    assertFalse(checked.get("passed").asBoolean());

    // The same attempt sent again (a retry after a lost answer): nothing new is stored, the recorded verdicts return.
    HttpResponse<String> again = learner.post("/api/exercises/exactly-once-append/check", body);
    assertEquals(200, again.statusCode(), again.body());
    JsonNode repeated = JSON.readTree(again.body());
    assertTrue(repeated.get("repeated").asBoolean());
    assertEquals(checked.get("recordedAt"), repeated.get("recordedAt"));
    assertEquals(checked.get("scenarios"), repeated.get("scenarios"));
    assertEquals(checked.get("passed"), repeated.get("passed"));
    assertEquals(JSON.readTree("{\"checks\":1,\"passed\":false,\"status\":\"ok\"}"),
        progress(learner).get("exercises").get("exactly-once-append"));

    int sandboxDone = progress(learner).get("tabs").get("sandbox").get("done").asInt();
    JsonNode passed = JSON.readTree(learner.post("/api/exercises/exactly-once-append/check", JSON.writeValueAsString(Map.of(
        "source", ReferenceSolutions.of("exactly-once-append"), "attempt", UUID.randomUUID().toString()))).body());
    assertTrue(passed.get("passed").asBoolean(), passed.toString());
    JsonNode progress = progress(learner); // what a reload of the page reads
    assertEquals(JSON.readTree("{\"checks\":2,\"passed\":true,\"status\":\"ok\"}"), progress.get("exercises").get("exactly-once-append"));
    assertEquals(sandboxDone + 1, progress.get("tabs").get("sandbox").get("done").asInt());
    assertEquals("#sandbox/exercise/exactly-once-append", progress.get("last").get("hash").asText());

    // A later failing check does not take the pass back; another learner sees none of it.
    learner.post("/api/exercises/exactly-once-append/check", JSON.writeValueAsString(Map.of(
        "source", starter("exactly-once-append"), "attempt", UUID.randomUUID().toString())));
    assertEquals(JSON.readTree("{\"checks\":3,\"passed\":true,\"status\":\"ok\"}"),
        progress(learner).get("exercises").get("exactly-once-append"));
    assertEquals(JSON.readTree("{\"checks\":0,\"passed\":false,\"status\":null}"),
        progress(new CookieClient(server)).get("exercises").get("exactly-once-append"));
  }

  @Test
  void an_attempt_id_reused_for_other_code_is_refused_and_stores_nothing() throws Exception {
    CookieClient learner = new CookieClient(server);
    String attempt = UUID.randomUUID().toString();
    String starter = starter("idempotent-payment");
    assertEquals(200, learner.post("/api/exercises/idempotent-payment/check",
        JSON.writeValueAsString(Map.of("source", starter, "attempt", attempt))).statusCode());
    HttpResponse<String> reused = learner.post("/api/exercises/idempotent-payment/check",
        JSON.writeValueAsString(Map.of("source", starter + "\n// changed", "attempt", attempt)));
    assertEquals(409, reused.statusCode());
    assertEquals("attempt '" + attempt + "' was already used for a check of other code; nothing was stored: "
        + "send a new attempt id with each Check", JSON.readTree(reused.body()).get("error").asText());
    assertEquals(1, progress(learner).get("exercises").get("idempotent-payment").get("checks").asInt());
  }

  @Test
  void a_check_whose_verdicts_quote_a_huge_exception_message_is_still_recorded() throws Exception {
    CookieClient learner = new CookieClient(server);
    String loud = starter("idempotent-payment").replace("requests++;",
        "requests++;\n        if (requests > 0) throw new IllegalStateException(\"z\".repeat(3000));");
    HttpResponse<String> res = learner.post("/api/exercises/idempotent-payment/check",
        JSON.writeValueAsString(Map.of("source", loud, "attempt", UUID.randomUUID().toString())));
    assertEquals(200, res.statusCode(), res.body());
    JsonNode checked = JSON.readTree(res.body());
    assertFalse(checked.get("passed").asBoolean());
    assertTrue(checked.has("recordedAt"), res.body());
    assertEquals(1, progress(learner).get("exercises").get("idempotent-payment").get("checks").asInt());
  }

  @Test
  void the_reference_solution_opens_after_the_learners_own_first_check_of_that_exercise() throws Exception {
    CookieClient learner = new CookieClient(server);
    String locked = "check an attempt of your own first: the reference solution of 'Make the append sink exactly-once' "
        + "opens after your first Check";
    HttpResponse<String> before = learner.get("/api/exercises/exactly-once-append/solution");
    assertEquals(403, before.statusCode());
    assertEquals(locked, JSON.readTree(before.body()).get("error").asText());

    learner.post("/api/exercises/idempotent-payment/check", JSON.writeValueAsString(Map.of(
        "source", starter("idempotent-payment"), "attempt", UUID.randomUUID().toString())));
    assertEquals(403, learner.get("/api/exercises/exactly-once-append/solution").statusCode(), "another exercise's check");

    learner.post("/api/exercises/exactly-once-append/check", JSON.writeValueAsString(Map.of(
        "source", starter("exactly-once-append"), "attempt", UUID.randomUUID().toString())));
    HttpResponse<String> after = learner.get("/api/exercises/exactly-once-append/solution");
    assertEquals(200, after.statusCode(), after.body());
    assertEquals(ReferenceSolutions.of("exactly-once-append"), JSON.readTree(after.body()).get("source").asText());
    assertEquals(403, new CookieClient(server).get("/api/exercises/exactly-once-append/solution").statusCode(), "someone else");
    assertEquals(404, learner.get("/api/exercises/make-it-fast/solution").statusCode());
  }

  @Test
  void a_client_cannot_claim_a_pass_or_a_check_through_the_event_api() throws Exception {
    for (String type : List.of("exercise.passed", "exercise.check")) {
      HttpResponse<String> claim = server.postJson("/api/events", "{\"id\":\"" + UUID.randomUUID() + "\",\"type\":\"" + type
          + "\",\"lesson\":\"exactly-once\",\"item\":\"exactly-once-append\",\"data\":{\"passed\":true}}");
      assertEquals(400, claim.statusCode(), claim.body());
      assertTrue(JSON.readTree(claim.body()).get("error").asText().startsWith("unknown event type '" + type + "'; known types: "));
    }
  }

  @Test
  void resetting_progress_clears_the_exercises_but_keeps_the_checks_in_the_export() throws Exception {
    CookieClient learner = new CookieClient(server);
    learner.post("/api/exercises/dedupe-horizon/check", JSON.writeValueAsString(Map.of(
        "source", ReferenceSolutions.of("dedupe-horizon"), "attempt", UUID.randomUUID().toString())));
    assertTrue(progress(learner).get("exercises").get("dedupe-horizon").get("passed").asBoolean());
    assertEquals(200, learner.delete("/api/progress/exactly-once").statusCode());
    assertFalse(progress(learner).get("exercises").get("dedupe-horizon").get("passed").asBoolean());
    assertEquals(0, progress(learner).get("exercises").get("dedupe-horizon").get("checks").asInt());
    JsonNode export = JSON.readTree(learner.get("/api/me/export").body());
    boolean kept = false;
    for (JsonNode e : export.get("events")) {
      kept |= e.get("type").asText().equals("exercise.check") && e.get("result").get("passed").asBoolean();
    }
    assertTrue(kept, "the check stays in the learner's export: " + export);
  }

  private JsonNode check(String id, String source) throws Exception {
    HttpResponse<String> res = server.postJson("/api/exercises/" + id + "/check", JSON.writeValueAsString(Map.of("source", source)));
    assertEquals(200, res.statusCode(), res.body());
    return JSON.readTree(res.body());
  }

  private static JsonNode progress(CookieClient learner) throws Exception {
    HttpResponse<String> res = learner.get("/api/progress/exactly-once");
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
      List<String> v = new ArrayList<>();
      s.get("verdicts").forEach(x -> v.add(x.asText()));
      out.put(s.get("name").asText(), v);
    }
    return out;
  }
}
