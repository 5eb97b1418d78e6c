package lab.exactlyonce.sandbox.engine;

/** Builds learner programs with known line numbers for tests. */
final class Snippets {
  private Snippets() {
  }

  /**
   * A program whose {@code main} body is line 4 and whose extra members start on line 6:
   * <pre>
   * 1 import java.util.*;
   * 2 public class Main {
   * 3   public static void main(String[] args) throws Exception {
   * 4     BODY
   * 5   }
   * 6   MEMBERS
   * 7 }
   * </pre>
   */
  static String program(String body, String members) {
    return "import java.util.*;\n"
        + "public class Main {\n"
        + "  public static void main(String[] args) throws Exception {\n"
        + "    " + body + "\n"
        + "  }\n"
        + "  " + members + "\n"
        + "}\n";
  }

  static String main(String body) {
    return program(body, "");
  }

  /**
   * Limits for tests: the defaults with a smaller step budget and live data limit so memory rows finish fast, and a
   * clock limit far off, so that a run's CPU budget decides on a test machine however busy (the clock limit has its
   * own test, RealSandboxTest, which stalls the worker on purpose).
   */
  static SandboxLimits testLimits() {
    return new SandboxLimits(3_000, 5_000_000L, 64L * 1024 * 1024, 64 * 1024, 64 * 1024, 5_000).withWallMillis(60_000);
  }
}
