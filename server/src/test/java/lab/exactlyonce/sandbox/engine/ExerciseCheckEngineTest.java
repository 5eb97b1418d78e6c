package lab.exactlyonce.sandbox.engine;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A check inside the engine: the checker, the provided code and the learner's code, each compiled and loaded apart. */
class ExerciseCheckEngineTest {
  private static final SnippetRunner RUNNER = new SnippetRunner();

  private static final String PROVIDED = String.join("\n",
      "public interface Counter { void add(int n); int total(); }",
      "public class Ledger {",
      "    private int writes;",
      "    public void wrote() { writes++; }",
      "    static final class View { static int writes(Ledger l) { return l.writes; } }",
      "}");

  private static final String CHECKER = String.join("\n",
      "import lab.exactlyonce.sandbox.engine.Check;",
      "public class CounterCheck {",
      "    public static void check(Check check) {",
      "        for (int n = 1; n <= 3; n++) {",
      "            java.util.List<String> verdicts = new java.util.ArrayList<String>();",
      "            Ledger ledger = new Ledger();",
      "            try {",
      "                Counter c = (Counter) check.create(\"MyCounter\", Counter.class, new Object[] {ledger});",
      "                for (int i = 0; i < n; i++) c.add(2);",
      "                if (c.total() != 2 * n) verdicts.add(\"total \" + c.total() + \" after \" + n + \" adds\");",
      "                if (Ledger.View.writes(ledger) != n) verdicts.add(\"ledger saw \" + Ledger.View.writes(ledger) + \" writes\");",
      "            } catch (Throwable t) {",
      "                verdicts.add(\"failed: \" + t);",
      "            }",
      "            check.scenario(n + \" adds\", verdicts);",
      "        }",
      "    }",
      "}");

  private static final CheckSpec SPEC = new CheckSpec(PROVIDED, CHECKER);

  /** One counter adds 2, its process crashes, and a counter made after the crash adds 3: it must hold 3. */
  private static final String CRASHING_CHECKER = String.join("\n",
      "import lab.exactlyonce.sandbox.engine.Check;",
      "public class CrashCheck {",
      "    public static void check(Check check) {",
      "        java.util.List<String> verdicts = new java.util.ArrayList<String>();",
      "        Ledger ledger = new Ledger();",
      "        try {",
      "            Counter before = (Counter) check.create(\"MyCounter\", Counter.class, new Object[] {ledger});",
      "            before.add(2);",
      "            check.crash();",
      "            Counter after = (Counter) check.create(\"MyCounter\", Counter.class, new Object[] {ledger});",
      "            after.add(3);",
      "            if (after.total() != 3) {",
      "                verdicts.add(\"total \" + after.total() + \" after the crash and an add of 3\");",
      "            }",
      "        } catch (Throwable t) {",
      "            verdicts.add(\"failed: \" + check.describe(t));",
      "        }",
      "        check.scenario(\"an add after a crash\", verdicts);",
      "    }",
      "}");

  private static RunResult check(String learner) {
    return RUNNER.run(learner, SandboxLimits.defaults(), SPEC);
  }

  private static String counter(String addBody) {
    return "class MyCounter implements Counter {\n"
        + "    private final Ledger ledger;\n"
        + "    private int total;\n"
        + "    MyCounter(Ledger ledger) { this.ledger = ledger; }\n"
        + "    public void add(int n) { " + addBody + " }\n"
        + "    public int total() { return total; }\n"
        + "}\n";
  }

  @Test
  void the_checkers_verdicts_come_back_apart_from_what_the_learner_printed() {
    RunResult right = check(counter("total += n; ledger.wrote(); System.out.println(\"added \" + n);"));
    assertEquals(Outcome.OK, right.status(), right.toString());
    assertEquals(List.of(new ScenarioVerdict("1 adds", true, List.of()), new ScenarioVerdict("2 adds", true, List.of()),
        new ScenarioVerdict("3 adds", true, List.of())), right.check().scenarios());
    assertEquals("added 2\n".repeat(6), right.stdout());

    RunResult wrong = check(counter("total += n + 1; ledger.wrote(); ledger.wrote();"));
    assertEquals(List.of("total 6 after 2 adds", "ledger saw 4 writes"), wrong.check().scenarios().get(1).verdicts());
  }

  @Test
  void a_crash_loads_the_learners_classes_afresh_so_a_static_field_starts_over() {
    String staticTotal = counter("total += n; ledger.wrote();")
        .replace("private int total;", "private static int total;");
    RunResult result = RUNNER.run(staticTotal, SandboxLimits.defaults(), new CheckSpec(PROVIDED, CRASHING_CHECKER));
    assertEquals(List.of(new ScenarioVerdict("an add after a crash", true, List.of())), result.check().scenarios(),
        result.toString());
  }

  @Test
  void a_scenario_lost_after_a_crash_names_the_static_fields_the_crash_cleared() {
    String wrong = counter("total += n; ADDS.add(Integer.valueOf(n));")
        .replace("private int total;", "private static int total;\n"
            + "    private static final java.util.List<Integer> ADDS = new java.util.ArrayList<Integer>();")
        .replace("return total;", "return total + ADDS.size();");
    RunResult result = RUNNER.run(wrong, SandboxLimits.defaults(), new CheckSpec(PROVIDED, CRASHING_CHECKER));
    assertEquals(List.of("total 4 after the crash and an add of 3", "a crash ends the process: your classes were loaded"
        + " afresh after it, so their static fields (MyCounter.ADDS, MyCounter.total) started over. A crash keeps only"
        + " what lives outside your objects and what the job restores from its checkpoint"),
        result.check().scenarios().get(0).verdicts());

    String inAnEnum = counter("Memory.ONLY.total += n;").replace("return total;", "return Memory.ONLY.total + 1;")
        + "enum Memory { ONLY; int total; }\n";
    RunResult lost = RUNNER.run(inAnEnum, SandboxLimits.defaults(), new CheckSpec(PROVIDED, CRASHING_CHECKER));
    assertEquals("a crash ends the process: your classes were loaded afresh after it, so their static fields "
        + "(Memory.ONLY) started over. A crash keeps only what lives outside your objects and what the"
        + " job restores from its checkpoint", lost.check().scenarios().get(0).verdicts().get(1), lost.toString());

    RunResult noCrash = check(counter("total += n + 1; ledger.wrote();").replace("private int total;",
        "private static int total;"));
    assertEquals(List.of("total 3 after 1 adds"), noCrash.check().scenarios().get(0).verdicts(), "no crash, no note");
    assertEquals(List.of("total 6 after 2 adds"), noCrash.check().scenarios().get(1).verdicts(),
        "each scenario starts a new process");
  }

  @Test
  void a_learner_class_that_makes_an_array_of_arrays_of_itself_runs_in_every_lifetime() {
    String grid = counter("MyCounter[][] grid = new MyCounter[2][2]; grid[1][1] = this; total += n; ledger.wrote();");
    RunResult result = RUNNER.run(grid, SandboxLimits.defaults(), new CheckSpec(PROVIDED, CRASHING_CHECKER));
    assertEquals(List.of(new ScenarioVerdict("an add after a crash", true, List.of())), result.check().scenarios(),
        result.toString());
  }

  @Test
  void a_plain_run_has_no_report_and_a_check_never_calls_the_learners_main() {
    assertNull(RUNNER.run("public class A { public static void main(String[] a) { System.out.println(1); } }",
        SandboxLimits.defaults()).check());
    RunResult result = check(counter("total += n; ledger.wrote();")
        + "public class Mine { public static void main(String[] a) { System.out.println(\"main ran\"); } }\n");
    assertEquals("", result.stdout());
    assertEquals(3, result.check().scenarios().size());
  }

  @Test
  void the_learner_cannot_reach_what_only_the_checker_may_use() {
    RunResult result = check(counter("total += n; ledger.wrote(); Ledger.View.writes(ledger);"));
    assertEquals(Outcome.OK, result.status(), result.toString());
    String verdict = result.check().scenarios().get(0).verdicts().get(0);
    assertTrue(verdict.startsWith("failed: java.lang.IllegalAccessError"), verdict);
  }

  @Test
  void a_learner_class_without_the_interface_or_the_constructor_is_named_once() {
    RunResult noInterface = check(counter("total += n;").replace(" implements Counter", ""));
    assertEquals(new RunResult(Outcome.COMPILE_ERROR, "", "", List.of(new Diagnostic(0, 0,
        "class MyCounter must implement Counter, as the starter does: write 'class MyCounter implements Counter'")),
        noInterface.elapsedMs()), noInterface);
    RunResult noConstructor = check(counter("total += n;").replace("MyCounter(Ledger ledger)", "MyCounter(String s)")
        .replace("this.ledger = ledger;", "this.ledger = null;"));
    assertEquals("class MyCounter needs the constructor MyCounter(Ledger), as the starter has",
        noConstructor.diagnostics().get(0).message());
    RunResult missing = check("class Other {}");
    assertEquals("your code must declare class MyCounter implements Counter, as the starter does",
        missing.diagnostics().get(0).message());
  }

  @Test
  void a_method_of_the_interface_left_package_private_is_a_compile_error_at_its_line() {
    RunResult result = check(counter("total += n;").replace("public void add", "void add"));
    assertEquals(Outcome.COMPILE_ERROR, result.status(), result.toString());
    assertEquals(List.of(new Diagnostic(5, 10, "the method add of MyCounter must be public: it implements Counter.add,"
        + " and every method of an interface is public")), result.diagnostics());
    RunResult plain = RUNNER.run("public class A { static class R implements Runnable { void run() { } }\n"
        + " public static void main(String[] a) { } }", SandboxLimits.defaults());
    assertEquals(List.of(new Diagnostic(1, 0, "the method run of A.R must be public: it implements Runnable.run, and"
        + " every method of an interface is public")), plain.diagnostics(), plain.toString());
  }

  @Test
  void declaring_a_provided_class_or_hiding_java_lang_is_refused_at_its_line() {
    RunResult own = check(counter("total += n;") + "class Ledger { void wrote() { } }\n");
    assertEquals(List.of(new Diagnostic(8, 0, "your code declares a class Ledger, which the exercise provides: remove "
        + "yours and use the exercise's Ledger")), own.diagnostics());
    RunResult system = check(counter("total += n;") + "class System { }\n");
    assertEquals(List.of(new Diagnostic(8, 0, "a class of yours named System would hide java.lang.System from all of "
        + "your code: give it another name")), system.diagnostics());
    RunResult record = RUNNER.run("public class A { static class Record { } public static void main(String[] a) {"
        + " System.out.println(new Record() != null); } }", SandboxLimits.defaults());
    assertEquals("true\n", record.stdout(), "names that suit the subject stay free: " + record);
  }

  @Test
  void a_learner_constructor_that_throws_reaches_the_checker_as_the_learners_exception() {
    RunResult result = check(counter("total += n;").replace("this.ledger = ledger;",
        "this.ledger = ledger; if (ledger != null) throw new IllegalStateException(\"no ledger today\");"));
    assertEquals("failed: java.lang.IllegalStateException: no ledger today",
        result.check().scenarios().get(0).verdicts().get(0));
  }

  @Test
  void a_learner_loop_in_a_check_stops_at_the_budget_and_reports_no_verdicts() {
    RunResult result = check(counter("while (true) { total++; }"));
    assertEquals(Outcome.TIMEOUT, result.status(), result.toString());
    assertNull(result.check());
  }
}
