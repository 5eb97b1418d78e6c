package lab.exactlyonce.sandbox.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import lab.exactlyonce.sandbox.confinement.SelfConfinement;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A sandbox worker process: runs snippets one at a time for the server that started it.
 *
 * <p>Start: {@code java <flags> -cp <the server's class path> lab.exactlyonce.sandbox.engine.WorkerMain}.
 * Recommended flags: {@code -Xmx256m -XX:+UseSerialGC -XX:-OmitStackTraceInFastThrow -XX:+DisplayVMOutputToStderr
 * --limit-modules java.base,java.logging,java.management,jdk.management,jdk.unsupported,jdk.compiler} (the last
 * keeps AWT, java.net.http, JDBC and the like out of the worker JVM altogether; {@code jdk.compiler} is javac). Learner code runs on its own thread with a
 * 4 MB stack, so {@code -Xss} does not matter for it.
 *
 * <p>Protocol (JSON lines, UTF-8):
 * <ol>
 *   <li>The worker initialises the allowlisted JDK classes and warms up (runs a snippet that touches what they
 *       initialise lazily, then compiles and runs a small snippet a few times), then writes exactly one line
 *       {@code {"ready":true}} to standard output. If the warm-up fails it exits with status 2 instead.</li>
 *   <li>Then it reads one {@link WorkerRequest} per line from standard input,
 *       {@code {"id":1,"source":"...","limits":{"cpuMillis":2000,...}}} ({@code limits} may be null or absent:
 *       {@link SandboxLimits#defaults()}), and answers each with one {@link WorkerResponse} line,
 *       {@code {"id":1,"result":{"status":"ok","stdout":"...","stderr":"","diagnostics":[],"elapsedMs":4}}},
 *       flushed, before reading the next request. A line it cannot parse is answered with id -1 (or the id it
 *       could read) and status {@code internal_error}.</li>
 *   <li>When standard input closes it exits with status 0. After answering a run that left it unfit for other
 *       runs (a thread it could not stop, a compilation past its limit, a stack overflow, running out of heap, a
 *       JDK class whose initialisation failed) it exits with status 3 so the server replaces it; that answer
 *       carries {@code "retiring":true}, so the server sends it nothing more.</li>
 * </ol>
 * Nothing else ever reaches standard output: learner output is captured per run, and every other write to
 * {@code System.out} or {@code System.err} (logs, diagnostics) goes to standard error.
 */
public final class WorkerMain {
  /** The first line a worker writes once it is ready for requests. */
  public static final String READY_LINE = "{\"ready\":true}";
  /** Exit status of a worker that must be replaced. */
  public static final int EXIT_UNHEALTHY = 3;
  /** Exit status of a worker whose warm-up failed (it never wrote the ready line): the engine itself is broken. */
  public static final int EXIT_BROKEN = 2;

  /** What Janino keeps (see JaninoFit): primitives, calls, loops, a caught exception. */
  private static final String WARM_UP = String.join("\n",
      "public class WarmUp {",
      "  static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }",
      "  public static void main(String[] args) {",
      "    int total = 0;",
      "    for (int i = 0; i < 20; i++) total += fib(i % 12);",
      "    try { total += (new int[2])[%d + 1]; } catch (RuntimeException e) { total -= e.getClass().getSimpleName().length(); }",
      "    System.out.println(new StringBuilder().append(total).append(' ').append(fib(15)).append(Math.max(1, 2)));",
      "  }",
      "}");

  /**
   * Touches what the allowlisted classes initialise lazily on first use (the helpers of double printing, BigDecimal,
   * Scanner, String.format, date parsing, java.text's formats, regex, streams), at worker start with the whole stack
   * to spare.
   */
  private static final String COVERAGE = String.join("\n",
      "import java.util.*;",
      "import java.util.stream.*;",
      "import java.math.*;",
      "import java.time.*;",
      "public class Coverage {",
      "  public static void main(String[] args) {",
      "    StringBuilder sb = new StringBuilder();",
      "    sb.append(0.1 + 0.2).append(' ').append(1e-7).append(' ').append(Double.MAX_VALUE).append(' ').append(3.0f / 7)",
      "      .append(' ').append(Double.parseDouble(\"2.5e300\")).append(' ').append(Float.parseFloat(\"1.1\"));",
      "    sb.append(String.format(\"%d %5.2f %s %x %e %,d %b %c %10s%n\", 42, Math.PI, \"s\", 255, 1234.5, 1234567, true, 'c', \"r\"));",
      "    sb.append(String.format(Locale.ROOT, \"%.3f\", 2.0 / 3)).append(String.join(\",\", \"a\", \"b\"));",
      "    sb.append(new BigDecimal(\"1.10\").add(BigDecimal.ONE).multiply(new BigDecimal(0.1)).setScale(3, RoundingMode.HALF_UP));",
      "    sb.append(new BigDecimal(\"10\").divide(new BigDecimal(\"3\"), MathContext.DECIMAL64)).append(BigDecimal.valueOf(2.5).toPlainString());",
      "    sb.append(BigInteger.valueOf(2).pow(100).mod(BigInteger.TEN)).append(new BigInteger(\"123456789012345678901234567890\").sqrt());",
      "    Scanner in = new Scanner(\"3 4.5 word\\nline two\\n\");",
      "    sb.append(in.nextInt()).append(in.nextDouble()).append(in.next()).append(in.hasNextLine()).append(in.nextLine()).append(in.nextLine());",
      "    sb.append(LocalDate.of(2024, 2, 29).plusDays(1)).append(LocalDate.parse(\"2024-03-01\").getDayOfWeek())",
      "      .append(LocalDateTime.of(2024, 1, 1, 10, 0)).append(LocalTime.parse(\"10:15:30\")).append(Duration.ofMillis(90061001))",
      "      .append(Duration.between(Instant.EPOCH, Instant.ofEpochSecond(61))).append(Instant.now().isAfter(Instant.EPOCH))",
      "      .append(Month.MARCH).append(LocalDate.now().getYear() > 2000);",
      "    sb.append(new java.text.DecimalFormat(\"#,##0.00\").format(1234.5))",
      "      .append(java.text.NumberFormat.getPercentInstance().format(0.5))",
      "      .append(new java.text.SimpleDateFormat(\"yyyy-MM-dd HH:mm EEE\").format(new Date(0)))",
      "      .append(java.text.MessageFormat.format(\"{0,number,#.#}\", 1.25));",
      "    sb.append(\"a1b22c333\".replaceAll(\"[0-9]+\", \"#\")).append(Arrays.toString(\"x, y,z\".split(\",\\\\s*\")))",
      "      .append(java.util.regex.Pattern.compile(\"(\\\\w)(\\\\d)\").matcher(\"a1\").matches()).append(\"Abc\".toUpperCase()).append(\"ÄÖ\".toLowerCase());",
      "    List<Integer> xs = new ArrayList<Integer>(Arrays.asList(5, 3, 9, 1));",
      "    Collections.sort(xs); Collections.shuffle(xs, new Random(1)); Collections.reverse(xs);",
      "    sb.append(xs.stream().sorted().collect(Collectors.toList())).append(Stream.of(\"p\", \"q\").collect(Collectors.joining(\"-\"))).append(IntStream.range(0, 10).sum());",
      "    sb.append(java.util.concurrent.ThreadLocalRandom.current().nextInt(1, 7));",
      "    sb.append(UUID.randomUUID().version());",
      "    sb.append(Math.random() >= 0).append(new Random().nextInt(5) < 5).append(Math.sqrt(2)).append(Math.pow(2, 0.5)).append(Math.sin(1));",
      "    sb.append(Integer.toBinaryString(10)).append(Long.toHexString(255L)).append(Integer.parseInt(\"-12\")).append(Character.isLetter('x'));",
      "    sb.append(new TreeMap<String, Integer>(Collections.singletonMap(\"k\", 1))).append(Optional.of(1)).append(new StringJoiner(\";\").add(\"j\"));",
      "    sb.append(new PriorityQueue<Integer>(xs).peek()).append(new ArrayDeque<Integer>(xs).peekLast()).append(EnumSet.allOf(DayOfWeek.class).size());",
      "    try { Integer.parseInt(\"x\"); } catch (NumberFormatException e) { sb.append(e.getMessage()); }",
      "    try { Object o = \"s\"; Integer i = (Integer) o; } catch (ClassCastException e) { sb.append(e.getMessage()); }",
      "    try { xs.get(99); } catch (IndexOutOfBoundsException e) { sb.append(e.getMessage()); }",
      "    try { new ArrayList<Integer>().iterator().next(); } catch (NoSuchElementException e) { sb.append(e); }",
      "    try { throw new IllegalStateException(\"s\"); } catch (RuntimeException e) { sb.append(e.getStackTrace().length >= 0); }",
      "    if (sb.length() == 0) System.out.println(\"nothing\");",
      "  }",
      "}");

  /** What only javac compiles: lambdas, a record, a switch expression, string concatenation, generics. */
  private static final String WARM_UP_JAVAC = String.join("\n",
      "import java.util.*;",
      "import java.util.stream.*;",
      "public class WarmUp {",
      "  record Pair(String key, int value) { }",
      "  public static void main(String[] args) {",
      "    var pairs = List.of(new Pair(\"a\", %d), new Pair(\"b\", 2));",
      "    String joined = pairs.stream().map(p -> p.key() + \"=\" + p.value()).collect(Collectors.joining(\",\"));",
      "    int kind = switch (joined.length()) { case 0 -> 0; default -> { yield joined.length(); } };",
      "    Comparator<Pair> byValue = Comparator.comparingInt(Pair::value);",
      "    System.out.print(kind + \" \" + pairs.get(0) + byValue.compare(pairs.get(0), pairs.get(1)));",
      "  }",
      "}");

  private WorkerMain() {
  }

  /**
   * Initialises every allowlisted JDK class now, with the whole stack to spare, so that no run can be the first to
   * touch one near its stack limit (a static initialiser that fails leaves its class broken for the life of the JVM).
   * Each class is guarded on its own: one that does not initialise here is logged and left to the first run.
   */
  static void initialiseAllowedClasses(PrintStream log) {
    ClassLoader platform = ClassLoader.getPlatformClassLoader();
    for (String name : ApiPolicy.jdkClassNames()) {
      try {
        Class.forName(name, true, platform);
      } catch (Throwable e) {
        log.println("sandbox worker: could not initialise " + name + ": " + e);
      }
    }
  }

  public static void main(String[] args) throws IOException {
    SelfConfinement.applyIfAsked();   // before anything of a learner's can run
    PrivateTempDir tmp = PrivateTempDir.fromProperty();
    PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    PrintStream log = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
    OutputRouting.install(log, log);
    ObjectMapper json = new ObjectMapper();
    SnippetRunner runner = new SnippetRunner();
    warmUp(runner, log);
    JdkDefaults defaults = JdkDefaults.capture();
    protocol.print(READY_LINE + "\n");
    protocol.flush();

    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      if (line.isBlank()) continue;
      long start = System.nanoTime();
      List<String> changed = defaults.restore();
      if (!changed.isEmpty()) log.println("sandbox worker: an earlier run changed the " + changed + "; put back");
      WorkerResponse response = answer(json, runner, line, log);
      String unhealthy = runner.unhealthyBecause();
      if (unhealthy != null) response = response.asLast();
      response = response.took(System.nanoTime() - start);
      protocol.print(json.writeValueAsString(response) + "\n");
      protocol.flush();
      tmp.empty(log);
      if (unhealthy != null) {
        log.println("sandbox worker: " + unhealthy + "; exiting to be replaced");
        System.exit(EXIT_UNHEALTHY);
      }
    }
    System.exit(0);
  }

  private static WorkerResponse answer(ObjectMapper json, SnippetRunner runner, String line, PrintStream log) {
    WorkerRequest request;
    try {
      request = json.readValue(line, WorkerRequest.class);
    } catch (IOException | RuntimeException e) {
      log.println("sandbox worker: unreadable request: " + e.getMessage());
      return new WorkerResponse(idOf(json, line), new RunResult(Outcome.INTERNAL_ERROR, "", "",
          List.of(new Diagnostic(0, 0, "internal error: the worker could not read the request")), 0));
    }
    SandboxLimits limits = request.limits() == null ? SandboxLimits.defaults() : request.limits();
    return new WorkerResponse(request.id(), runner.run(request.source(), limits, request.check()));
  }

  private static long idOf(ObjectMapper json, String line) {
    try {
      JsonNode id = json.readTree(line).get("id");
      return id != null && id.canConvertToLong() ? id.asLong() : -1;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  private static final int JAVAC_WARM_UPS = 2;
  /**
   * The warm-up's code is trusted and small, so a host too busy to compile it within a learner's limits makes the
   * worker late, not broken: it gets a minute.
   */
  private static final SandboxLimits WARM_UP_LIMITS =
      new SandboxLimits(60_000, 50_000_000L, 256L * 1024 * 1024, 64 * 1024, 64 * 1024, 60_000);

  /**
   * Initialises the allowlisted JDK classes, runs {@link #COVERAGE} once, then compiles and runs a small snippet a
   * few times (each a different source, so the cache does not skip work).
   */
  private static void warmUp(SnippetRunner runner, PrintStream log) {
    long start = System.nanoTime();
    initialiseAllowedClasses(log);
    RunResult covered = runner.run(COVERAGE, WARM_UP_LIMITS);
    if (covered.status() != Outcome.OK) {
      log.println("sandbox worker: the coverage warm-up ended " + covered.status().id() + ": " + covered.diagnostics()
          + covered.stderr() + "; exiting without becoming ready");
      System.exit(EXIT_BROKEN);
    }
    // The coverage run is itself a large compilation, so ten small ones after it are enough to warm Janino up.
    // javac gets two: its first compile loads the compiler; later ones only get faster as the JIT catches up, which
    // the first learners' compiles pay a few milliseconds for, while every worker start (and every replacement of a
    // damaged worker) would pay for more warm-up runs in full.
    for (int i = 0; i < 12; i++) {
      String source = (i < JAVAC_WARM_UPS ? WARM_UP_JAVAC : WARM_UP).replace("%d", Integer.toString(i % 3));
      RunResult r = runner.run(source + "\n// warm-up run " + i, WARM_UP_LIMITS);
      if (r.status() != Outcome.OK) {
        log.println("sandbox worker: warm-up run " + i + " ended " + r.status().id() + ": " + r.diagnostics()
            + "; exiting without becoming ready");
        System.exit(EXIT_BROKEN);
      }
    }
    log.printf("sandbox worker: warmed up in %d ms%n", (System.nanoTime() - start) / 1_000_000);
  }
}
