package lab.exactlyonce.sandbox.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;

import static lab.exactlyonce.CookieClient.JSON;
import static lab.exactlyonce.sandbox.engine.Snippets.main;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** Every answer stays bounded whatever the snippet does: trace events, trace bytes, diagnostics, compile cache. */
class AnswerCapsTest {
  private static final SnippetRunner RUNNER = new SnippetRunner();
  private static final String IMPORT = "import lab.exactlyonce.sandbox.engine.Trace;\n";

  private static String traceJson(RunResult result) throws Exception {
    return JSON.writeValueAsString(result.trace());
  }

  @Test
  void the_trace_event_cap_is_an_option() {
    SandboxLimits limits = SandboxLimits.defaults().withAnswerCaps(3, SandboxLimits.DEFAULT_MAX_TRACE_BYTES, 50);

    RunResult result = RUNNER.run(IMPORT + main("for (int i = 0; i < 10; i++) Trace.read(i, \"k\", i);"), limits);

    assertEquals(4, result.trace().size(), result::toString);
    assertEquals("read", result.trace().get(2).type());
    assertEquals(new TraceEvent(4, "truncated", null, null, null, null, null, null, null, null, null,
        "the trace holds at most 3 events; later events were dropped"), result.trace().get(3));
  }

  /**
   * Each row: what every string of 5,000 events carries (cut to 200 characters each), and how much of the cap the
   * trace must at least fill (the estimate counts a lone surrogate as the six bytes of its escape, while the worker's
   * UTF-8 output writes it as one '?').
   */
  static Stream<Arguments> payloads() {
    return Stream.of(
        arguments("ASCII", "\"x\"", 0.5),
        arguments("control characters (escaped as six bytes each)", "\"\\u0001\"", 0.5),
        arguments("quotes and backslashes", "\"\\\"\\\\\"", 0.5),
        arguments("accented letters (two bytes each)", "\"\u00e9\"", 0.5),
        arguments("CJK (three bytes each)", "\"\u6f22\"", 0.5),
        arguments("emoji (surrogate pairs)", "\"\\uD83D\\uDE00\"", 0.5),
        arguments("lone surrogates", "\"\\uDE00\"", 0.1));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("payloads")
  void a_trace_never_serialises_past_its_byte_cap(String what, String unit, double minimumShare) throws Exception {
    String big = "String s = \"\"; for (int i = 0; i < 120; i++) s = s + " + unit + ";";
    String source = IMPORT + main(big + " for (int i = 0; i < 5000; i++) { Trace.write(s + i, s, s, s, true);"
        + " Trace.consume(s, s, s); }");

    RunResult uncapped = RUNNER.run(source, SandboxLimits.defaults().withAnswerCaps(5_000, Integer.MAX_VALUE, 50));
    RunResult capped = RUNNER.run(source, SandboxLimits.defaults());

    assertEquals(Outcome.OK, capped.status(), capped::toString);
    assertTrue(traceJson(uncapped).getBytes(StandardCharsets.UTF_8).length > 2_000_000,
        "without the byte cap this trace is megabytes");
    int bytes = traceJson(capped).getBytes(StandardCharsets.UTF_8).length;
    assertTrue(bytes <= SandboxLimits.DEFAULT_MAX_TRACE_BYTES, what + ": " + bytes + " bytes");
    assertTrue(bytes > SandboxLimits.DEFAULT_MAX_TRACE_BYTES * minimumShare, what + ": the cap is too cautious, " + bytes);
    TraceEvent last = capped.trace().get(capped.trace().size() - 1);
    assertEquals("the trace holds at most 524288 bytes; later events were dropped", last.note());
  }

  @Test
  void a_source_with_thousands_of_errors_gets_the_first_ones_and_a_count_of_the_rest() {
    StringBuilder body = new StringBuilder();
    for (int i = 0; i < 1000; i++) body.append("int v").append(i).append(" = \"s\";\n");
    String source = main(body.toString());
    // a generous compile limit: thousands of errors take Janino a while on a busy machine
    SandboxLimits patient = new SandboxLimits(2_000, 50_000_000L, 256L << 20, 65_536, 65_536, 30_000);
    List<Diagnostic> all = RUNNER.run(source, patient.withAnswerCaps(5_000, 524_288, Integer.MAX_VALUE)).diagnostics();

    RunResult result = RUNNER.run(source, patient.withAnswerCaps(5_000, 524_288, 20));

    assertEquals(Outcome.COMPILE_ERROR, result.status(), result::toString);
    assertTrue(all.size() >= 100, "javac lists the first 100 errors: " + all.size());
    assertEquals(all.subList(0, 20), result.diagnostics().subList(0, 20));
    assertEquals(new Diagnostic(0, 0, "and " + (all.size() - 20) + " more problems (only the first 20 are listed)"),
        result.diagnostics().get(20));
    assertEquals(21, result.diagnostics().size());
  }

  @Test
  void one_problem_over_the_cap_is_counted_in_the_singular() {
    RunResult result = RUNNER.run(main("int a = \"s\"; int b = \"t\";"),
        SandboxLimits.defaults().withAnswerCaps(5_000, 524_288, 1));

    assertEquals(List.of("incompatible types: String cannot be converted to int",
        "and 1 more problem (only the first 1 are listed)"),
        result.diagnostics().stream().map(Diagnostic::message).toList());
  }

  @Test
  void the_compile_cache_keeps_to_its_byte_budget_and_skips_an_entry_larger_than_it() {
    SnippetRunner runner = new SnippetRunner();
    long budget = 200_000;
    SandboxLimits limits = SandboxLimits.defaults().withCacheBytes(budget);
    long largest = 0;
    for (int i = 0; i < 12; i++) {
      RunResult result = runner.run(bigSource(i, 400), limits);
      assertEquals(Outcome.OK, result.status(), result::toString);
      assertTrue(runner.cache().bytes() <= budget, "after " + (i + 1) + " sources: " + runner.cache().bytes());
      largest = Math.max(largest, runner.cache().bytes());
    }
    assertTrue(runner.cache().size() >= 2 && runner.cache().size() < 12, "entries kept: " + runner.cache().size());
    assertTrue(largest > budget / 2, "the budget is used: " + largest);

    runner.run(bigSource(99, 4000), limits);   // one source whose classes alone are over the budget

    assertTrue(runner.cache().bytes() <= budget, runner.cache().bytes() + " bytes");
  }

  /** A distinct source whose class file is several times its own size (array initialisers). */
  static String bigSource(int salt, int elements) {
    String values = String.join(",", Collections.nCopies(elements, String.valueOf(salt % 7)));
    StringBuilder methods = new StringBuilder();
    for (int m = 0; m < 8; m++) methods.append("static int[] a").append(m).append("() { return new int[] {").append(values).append("}; }\n");
    return "public class Big" + salt + " {\n  public static void main(String[] args) { System.out.println(a0().length); }\n"
        + methods + "}\n";
  }
}
