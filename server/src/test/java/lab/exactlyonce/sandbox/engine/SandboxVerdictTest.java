package lab.exactlyonce.sandbox.engine;

import org.codehaus.commons.compiler.InternalCompilerException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static lab.exactlyonce.sandbox.engine.Snippets.main;
import static lab.exactlyonce.sandbox.engine.Snippets.program;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * What the sandbox does not offer gets a verdict the learner can act on: a class outside the sandbox's modules is
 * {@code rejected} naming it, and a construct Janino mishandles is a compile problem at its line (or, where only
 * Janino's stack map frames were wrong, simply runs). Never a Janino puzzle, never {@code internal_error}.
 */
class SandboxVerdictTest {
  private static final SnippetRunner RUNNER = new SnippetRunner();

  private static String outside(String name, String module) {
    return name + " is not allowed in the sandbox (module " + module + " is not available here)";
  }

  private static Arguments refused(String shape, String source, String name, String module, int line, int column) {
    return arguments(shape, source, Outcome.REJECTED, List.of(new Diagnostic(line, column, outside(name, module))), "");
  }

  static Stream<Arguments> verdicts() {
    String voidAssign = "String s = System.out.println();";
    String whileAssign = "Iterator<String> it = Arrays.asList(\"a\").iterator(); String s;"
        + " while (it.hasNext() && (s = (String) it.next()) != null) { System.out.println(s); }";
    return Stream.of(
        refused("local variable type", main("java.util.logging.FileHandler h = null;"),
            "java.util.logging.FileHandler", "java.logging", 4, 5),
        refused("new", main("Object d = new java.beans.XMLDecoder(null);"), "java.beans.XMLDecoder", "java.desktop", 4, 20),
        refused("static call", main("Object c = java.net.http.HttpClient.newHttpClient();"),
            "java.net.http.HttpClient", "java.net.http", 4, 16),
        refused("static call on a java.management class", main("Object o = java.lang.management.ManagementFactory.getRuntimeMXBean();"),
            "java.lang.management.ManagementFactory", "java.management", 4, 16),
        refused("cast", main("Object o = (com.sun.management.OperatingSystemMXBean) null;"),
            "com.sun.management.OperatingSystemMXBean", "jdk.management", 4, 17),
        refused("new of a scripting class", main("Object e = new javax.script.ScriptEngineManager();"),
            "javax.script.ScriptEngineManager", "java.scripting", 4, 20),
        refused("JDBC", main("Object c = java.sql.DriverManager.getConnection(\"jdbc:x\");"),
            "java.sql.DriverManager", "java.sql", 4, 16),
        refused("AWT", main("Object r = new java.awt.Robot();"), "java.awt.Robot", "java.desktop", 4, 20),
        refused("type argument (erased, so it would even compile)", main("List<java.awt.Point> ps = null;"),
            "java.awt.Point", "java.desktop", 4, 10),
        refused("array type", main("java.awt.Point[] ps = null;"), "java.awt.Point", "java.desktop", 4, 5),
        refused("throws clause", program("", "static void f() throws java.sql.SQLException { }"),
            "java.sql.SQLException", "java.sql", 6, 26),
        refused("catch clause", main("try { } catch (java.sql.SQLException e) { }"), "java.sql.SQLException", "java.sql", 4, 20),
        refused("field type", program("", "static java.util.logging.Logger LOG;"), "java.util.logging.Logger", "java.logging", 6, 10),
        refused("superclass", program("", "static class H extends java.util.logging.Handler { }"),
            "java.util.logging.Handler", "java.logging", 6, 26),
        refused("interface", program("", "static class L implements java.awt.event.ActionListener { }"),
            "java.awt.event.ActionListener", "java.desktop", 6, 29),
        refused("nested class constant", main("int close = javax.swing.JFrame.EXIT_ON_CLOSE;"), "javax.swing.JFrame",
            "java.desktop", 4, 17),
        refused("class literal", main("Object c = java.sql.Connection.class;"), "java.sql.Connection", "java.sql", 4, 16),
        refused("single-type import", "import java.beans.XMLDecoder;\n" + main("XMLDecoder d = null;"),
            "java.beans.XMLDecoder", "java.desktop", 1, 8),
        refused("on-demand import", "import java.beans.*;\n" + main("XMLDecoder d = null;"), "java.beans.*", "java.desktop", 1, 8),
        refused("static import", "import static java.util.logging.Logger.getGlobal;\n" + main("Object o = getGlobal();"),
            "java.util.logging.Logger", "java.logging", 1, 15),
        arguments("a name in a comment or a string is no use of it",
            main("// java.awt.Robot\nSystem.out.println(\"java.sql.DriverManager\");"), Outcome.OK, List.of(),
            "java.sql.DriverManager\n"),
        arguments("a forbidden java.base class is still named by the bytecode check", main("new java.io.File(\"x\");"),
            Outcome.REJECTED, List.of(new Diagnostic(4, 0, "java.io.File is not allowed in the sandbox")), ""),
        arguments("a misspelt JDK class, fully qualified", main("java.util.Lisst x = null;"), Outcome.COMPILE_ERROR,
            List.of(new Diagnostic(4, 5, "java.util.Lisst: java.util has no class Lisst (check the spelling)")), ""),
        arguments("a misspelt JDK class after new", main("List<String> xs = new java.util.ArrayLis<String>();"),
            Outcome.COMPILE_ERROR, List.of(new Diagnostic(4, 27,
                "java.util.ArrayLis: java.util has no class ArrayLis (check the spelling)")), ""),
        // Janino 3.1.12's own failures
        arguments("Java that Janino's code generator fails on (an assignment inside a while condition): javac compiles it",
            main(whileAssign), Outcome.OK, List.of(), "a\n"),
        arguments("a real error that also trips Janino's code generator (Operand stack underflow): the real error",
            main(voidAssign), Outcome.COMPILE_ERROR, List.of(new Diagnostic(4, 4 + voidAssign.indexOf("()") + 1,
                "incompatible types: void cannot be converted to String")), ""),
        arguments("stack map frames Janino gets wrong: a do loop assigning a variable declared without a value",
            main("boolean done; int k = 0; do { k++; done = k > 2; } while (!done); System.out.println(k);"),
            Outcome.OK, List.of(), "3\n"),
        arguments("stack map frames Janino gets wrong: do { } while (false)",
            main("int x; do { x = 1; } while (false); System.out.println(x);"), Outcome.OK, List.of(), "1\n"),
        arguments("stack map frames Janino gets wrong: an assignment in the right operand of &&",
            main("boolean b; int x = 1; if (x > 0 && (b = true)) System.out.println(b);"), Outcome.OK, List.of(), "true\n"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("verdicts")
  void gets_a_verdict_the_learner_can_act_on(String shape, String source, Outcome status, List<Diagnostic> diagnostics,
                                             String stdout) {
    RunResult result = RUNNER.run(source, Snippets.testLimits());

    assertEquals(status, result.status(), result::toString);
    assertEquals(diagnostics, result.diagnostics());
    assertEquals(stdout, result.stdout());
  }

  @Test
  void any_other_failure_inside_janino_names_the_innermost_location_and_message() {
    RuntimeException janino = new InternalCompilerException("Compiling \"Main\" in Line 2, Column 8: Line 3, Column 22:"
        + " Compiling \"main(String[] args)\"", new RuntimeException("Line 4, Column 68",
        new InternalCompilerException("Line 4, Column 9: Compiling \"x\"", new ClassCastException("Operand stack underflow"))));

    Diagnostic d = SnippetCompiler.internalCompilerError(janino);

    assertEquals(new Diagnostic(4, 9, SnippetCompiler.couldNotHandle("Operand stack underflow")), d);
  }
}
