package lab.exactlyonce.sandbox.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

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
 * --limit-modules java.base,java.logging,java.management,jdk.management,jdk.unsupported} (the last keeps AWT,
 * java.net.http, JDBC and the like out of the worker JVM altogether). Learner code runs on its own thread with a
 * 4 MB stack, so {@code -Xss} does not matter for it.
 *
 * <p>Protocol (JSON lines, UTF-8):
 * <ol>
 *   <li>The worker warms up (compiles and runs a small snippet a few times), then writes exactly one line
 *       {@code {"ready":true}} to standard output. If the warm-up fails it exits with status 2 instead.</li>
 *   <li>Then it reads one {@link WorkerRequest} per line from standard input,
 *       {@code {"id":1,"source":"...","limits":{"wallMillis":2000,...}}} ({@code limits} may be null or absent:
 *       {@link SandboxLimits#defaults()}), and answers each with one {@link WorkerResponse} line,
 *       {@code {"id":1,"result":{"status":"ok","stdout":"...","stderr":"","diagnostics":[],"elapsedMs":4}}},
 *       flushed, before reading the next request. A line it cannot parse is answered with id -1 (or the id it
 *       could read) and status {@code internal_error}.</li>
 *   <li>When standard input closes it exits with status 0. After answering a run that left a thread it could
 *       not stop (a long library call past the wall time, or a compilation past its limit) it exits with
 *       status 3 so the server replaces it.</li>
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

  private static final String WARM_UP = String.join("\n",
      "import java.util.*;",
      "public class WarmUp {",
      "  static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }",
      "  public static void main(String[] args) {",
      "    Map<String, Integer> counts = new HashMap<String, Integer>();",
      "    List<String> words = new ArrayList<String>(Arrays.asList(\"a\", \"b\", \"a\", \"c\"));",
      "    for (String w : words) counts.put(w, counts.containsKey(w) ? ((Integer) counts.get(w)).intValue() + 1 : 1);",
      "    StringBuilder sb = new StringBuilder();",
      "    try { int[] xs = new int[2]; xs[%d] = 1; } catch (RuntimeException e) { sb.append(e.getClass().getSimpleName()); }",
      "    System.out.println(new TreeMap<String, Integer>(counts) + \" \" + fib(15) + \" \" + sb);",
      "  }",
      "}");

  private WorkerMain() {
  }

  public static void main(String[] args) throws IOException {
    PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    PrintStream log = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
    OutputRouting.install(log, log);
    ObjectMapper json = new ObjectMapper();
    SnippetRunner runner = new SnippetRunner();
    warmUp(runner, log);
    protocol.print(READY_LINE + "\n");
    protocol.flush();

    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      if (line.isBlank()) continue;
      WorkerResponse response = answer(json, runner, line, log);
      protocol.print(json.writeValueAsString(response) + "\n");
      protocol.flush();
      if (!runner.healthy()) {
        log.println("sandbox worker: a run left a thread that cannot be stopped; exiting to be replaced");
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

  /** Compiles and runs a small snippet a few times (each a different source, so the cache does not skip work). */
  private static void warmUp(SnippetRunner runner, PrintStream log) {
    long start = System.nanoTime();
    for (int i = 0; i < 12; i++) {
      RunResult r = runner.run(WARM_UP.replace("%d", Integer.toString(i % 3)) + "\n// warm-up run " + i, SandboxLimits.defaults());
      if (r.status() != Outcome.OK) {
        log.println("sandbox worker: warm-up run " + i + " ended " + r.status().id() + ": " + r.diagnostics()
            + "; exiting without becoming ready");
        System.exit(EXIT_BROKEN);
      }
    }
    log.printf("sandbox worker: warmed up in %d ms%n", (System.nanoTime() - start) / 1_000_000);
  }
}
