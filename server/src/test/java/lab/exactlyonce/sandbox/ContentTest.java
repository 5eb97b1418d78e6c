package lab.exactlyonce.sandbox;

import lab.exactlyonce.TestJvm;
import lab.exactlyonce.sandbox.engine.Outcome;
import lab.exactlyonce.sandbox.engine.RunResult;
import lab.exactlyonce.snippet.Snippet;
import lab.exactlyonce.snippet.SnippetCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every snippet of every lesson, run through the real sandbox (real worker JVMs), prints its Expect lines. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("sandbox")
class ContentTest {
  Sandbox sandbox;

  @BeforeAll
  void start() throws InterruptedException {
    sandbox = new Sandbox(TestJvm.sandboxDefaults().withWorkers(2));
    assertTrue(sandbox.awaitReady(Duration.ofSeconds(60)), "workers ready");
  }

  @AfterAll
  void stop() {
    sandbox.close();
  }

  static List<Snippet> snippets() {
    return SnippetCatalog.load(Path.of("snippets")).all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("snippets")
  void prints_its_expected_output(Snippet snippet) throws Exception {
    RunResult result = sandbox.submit(RunRequest.run("content-test", snippet.source())).get(30, TimeUnit.SECONDS);
    assertEquals(Outcome.OK, result.status(), result.toString());
    assertEquals(snippet.expectedOutput(), result.stdout());
    assertEquals("", result.stderr());
  }

  @org.junit.jupiter.api.Test
  void every_lesson_has_snippets() {
    assertFalse(snippets().isEmpty());
  }
}
