package lab.exactlyonce.quiz;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.ServerTest;
import lab.exactlyonce.TestConfig;
import lab.exactlyonce.TestServer;
import lab.exactlyonce.sandbox.RunRequest;
import lab.exactlyonce.sandbox.Sandbox;
import lab.exactlyonce.sandbox.engine.Outcome;
import lab.exactlyonce.sandbox.engine.RunResult;
import lab.exactlyonce.snippet.Knob;
import lab.exactlyonce.snippet.SnippetCatalog;
import lab.exactlyonce.snippet.SnippetIds;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Predict-the-output answers are what the real sandbox prints: each question's variant is run again here, through
 * the app's own sandbox, and answering with that output must be graded right.
 */
@Tag("sandbox")
class PredictOutputTest extends ServerTest {
  private static final Pattern VARIANT = Pattern.compile("exactly-once/(run-[a-z-]+)/(.+)-line-(\\d+)");
  private final Map<String, Path> snippets = SnippetIds.in(Path.of("snippets"), "exactly-once");

  /**
   * An app of its own: the bank builds its run questions once per app, and this class counts them, so a build that
   * lost a variant on a busy machine in an earlier class must not decide it; its many runs also stay off the worker
   * the shared app lends every other class.
   */
  @Override
  protected TestServer startServer() {
    return TestServer.startWithRealSandbox(TestConfig.defaults());
  }

  @Test
  void every_predict_answer_is_the_output_of_a_real_run() throws Exception {
    QuizClient learner = new QuizClient(server);
    JsonNode bank = learner.bankWhenRunsAreReady("exactly-once");
    List<JsonNode> predict = new ArrayList<>();
    bank.get("questions").forEach(q -> { if (VARIANT.matcher(q.get("id").asText()).matches()) predict.add(q); });
    List<String> ids = predict.stream().map(q -> q.get("id").asText()).toList();
    // All 13 variants normally run; a variant the loaded sandbox failed five times is left out, not guessed.
    assertTrue(ids.size() >= 10, "questions for both demos: " + ids);
    assertTrue(ids.stream().anyMatch(id -> id.startsWith("exactly-once/run-sink-demo/checkpoint-after-")), ids.toString());
    assertTrue(ids.stream().anyMatch(id -> id.startsWith("exactly-once/run-txn-dedupe-demo/ttl-seconds-")), ids.toString());

    for (JsonNode q : predict) {
      String id = q.get("id").asText();
      assertTrue(q.get("options").size() >= 3, id + ": a guess must not score a half: " + q.get("options"));
      String rule = id.contains("/run-sink-demo/") ? "checks for the crash before it takes the checkpoint at the same record"
          : "a retry exactly TTL_SECONDS later is accepted again";
      assertTrue(q.get("prompt").asText().contains(rule), id + " states the rule its answer depends on: " + q.get("prompt"));
    }
    assertTrue(ids.stream().noneMatch(id -> id.contains("/crash-after-6-")), "CRASH_AFTER stays in its knob range 1..5: " + ids);
    assertTrue(ids.stream().anyMatch(id -> id.contains("/crash-before-commit-true-")), "the boolean knob is varied too: " + ids);

    for (String topic : List.of("Crash recovery", "Kafka transactions")) {
      JsonNode session = learner.start("{\"lesson\":\"exactly-once\",\"length\":50,\"topic\":\"" + topic + "\"}");
      for (JsonNode q : session.get("questions")) {
        if (!q.get("kind").asText().equals("predict")) continue;
        String printed = runAgain(q.get("id").asText());
        int choice = -1;
        for (int i = 0; i < q.get("options").size(); i++) if (q.get("options").get(i).asText().equals(printed)) choice = i;
        assertTrue(choice >= 0, q.get("id").asText() + ": the sandbox printed '" + printed + "', not among " + q.get("options"));
        JsonNode result = QuizClient.json(learner.answer(session, q, "\"choice\":" + choice)).get("result");
        assertTrue(result.get("correct").asBoolean(), q.get("id").asText() + " graded " + result);
        assertEquals(printed, result.get("expected").asText());
      }
    }
  }

  @Test
  void the_demo_as_written_prints_what_its_header_promises() throws Exception {
    String source = Files.readString(snippets.get("sink-demo"));
    RunResult run = run(source);
    assertEquals(Outcome.OK, run.status(), run.stderr());
    assertEquals(List.of("AppendSink rows=7 sum=220 DUPLICATES", "UpsertSink rows=5 sum=150 OK", "TwoPhaseSink rows=5 sum=150 OK"),
        OutputQuestions.lines(run.stdout()));
  }

  /** Rebuilds the question's variant from its id, runs it in the sandbox, and returns the asked line's value. */
  private String runAgain(String questionId) throws Exception {
    Matcher m = VARIANT.matcher(questionId);
    assertTrue(m.matches(), questionId);
    String snippet = m.group(1).substring("run-".length());
    String source = Files.readString(snippets.get(snippet));
    List<Knob> knobs = SnippetCatalog.load(Path.of("snippets")).find(snippet).orElseThrow().knobs();
    SnippetVariants.Variant variant = SnippetVariants.of(source, knobs).stream().filter(v -> v.id().equals(m.group(2)))
        .findFirst().orElseThrow();
    RunResult run = run(variant.source());
    assertEquals(Outcome.OK, run.status(), questionId + ": " + run.stderr());
    String line = OutputQuestions.lines(run.stdout()).get(Integer.parseInt(m.group(3)) - 1);
    return OutputQuestions.split(line)[1];
  }

  /**
   * A run through the app's sandbox, tried again when the service (not the snippet) failed: on this shared
   * two-core machine a busy worker can time out or be replaced, as the quiz itself allows for. Each retry waits for
   * the workers to be ready and idle again, a replaced one included.
   */
  private RunResult run(String source) throws Exception {
    Sandbox sandbox = (Sandbox) server.app().sandbox();
    RunResult run = null;
    for (int attempt = 1; attempt <= 4; attempt++) {
      run = sandbox.submit(RunRequest.run("predict-test", source)).get(60, TimeUnit.SECONDS);
      if (run.status() != Outcome.TIMEOUT && run.status() != Outcome.INTERNAL_ERROR) return run;
      assertTrue(sandbox.awaitReady(Duration.ofSeconds(60)), "the sandbox's workers ready again after " + run);
    }
    return run;
  }
}
