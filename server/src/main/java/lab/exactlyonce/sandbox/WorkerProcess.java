package lab.exactlyonce.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import lab.exactlyonce.sandbox.confinement.Launcher;
import lab.exactlyonce.sandbox.engine.WorkerRequest;
import lab.exactlyonce.sandbox.engine.WorkerResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One worker JVM and the pipes to it. The worker prints {@code {"ready":true}} when it is warm, then answers one
 * {@link WorkerResponse} line for each {@link WorkerRequest} line, one run at a time. Two daemon threads read its
 * standard output (answers) and standard error (logged). Not thread-safe for sends: the pool gives a worker one
 * run at a time.
 */
final class WorkerProcess {
  private static final Logger log = LoggerFactory.getLogger(WorkerProcess.class);
  private static final int STDERR_TAIL_LINES = 20;

  private final String name;
  /** Set once, when a spare that warmed up at the server's priority joins the heavy lane. */
  private volatile boolean lowPriority;
  /** The nice value it is lowered to once warm, or 0 to leave its priority as it started. */
  private final int niceOnceWarm;
  private final Process process;
  private final ObjectMapper json;
  private final OutputStream stdin;
  private final CompletableFuture<WorkerProcess> ready = new CompletableFuture<>();
  private final Deque<String> stderrTail = new ArrayDeque<>();
  private volatile CompletableFuture<WorkerResponse> pending;
  private volatile long pendingId = -1;
  private volatile boolean killed;
  /** Set once the answer reader has read everything the worker wrote and reached the end of its output. */
  private volatile boolean answersEnded;
  private volatile boolean mayExit;
  private final AtomicBoolean replaced = new AtomicBoolean();

  private WorkerProcess(String name, Process process, ObjectMapper json, boolean lowPriority, int niceOnceWarm) {
    this.name = name;
    this.lowPriority = lowPriority;
    this.niceOnceWarm = niceOnceWarm;
    this.process = process;
    this.json = json;
    this.stdin = process.getOutputStream();
    Thread out = new Thread(this::readAnswers, name + "-out");
    out.setDaemon(true);
    out.start();
    Thread err = new Thread(this::readErrors, name + "-err");
    err.setDaemon(true);
    err.start();
  }

  /**
   * Starts the process; {@link #ready()} completes when it has said so and, where {@code niceOnceWarm} is above 0,
   * all its threads have been lowered to that nice value ({@link WorkerPriority}).
   */
  static WorkerProcess start(String name, List<String> command, ObjectMapper json, boolean lowPriority,
                             int niceOnceWarm) throws IOException {
    // whatever the launcher: the server's environment (its secrets) never reaches a worker
    Process process = Launcher.processBuilder(command).redirectInput(ProcessBuilder.Redirect.PIPE).start();
    return new WorkerProcess(name, process, json, lowPriority, niceOnceWarm);
  }

  /** A worker of the heavy lane, which runs at a lower priority. */
  boolean lowPriority() {
    return lowPriority;
  }

  /**
   * Moves a spare, warm at the server's priority, into the heavy lane, with all its threads lowered to {@code nice}
   * (0: at the server's priority, as the heavy lane's workers are then).
   */
  void joinHeavyLane(int nice) throws IOException {
    if (nice > 0) WorkerPriority.lower(process.toHandle(), nice);
    lowPriority = true;
  }

  /** True for the one caller that replaces this worker (it may retire and exit on its own at once). */
  boolean claimReplacement() {
    return replaced.compareAndSet(false, true);
  }

  String name() {
    return name;
  }

  long pid() {
    return process.pid();
  }

  CompletableFuture<WorkerProcess> ready() {
    return ready;
  }

  /** Completes with the exit code when the process has ended, for whatever reason. */
  CompletableFuture<Integer> exited() {
    return process.onExit().thenApply(Process::exitValue);
  }

  boolean alive() {
    return process.isAlive() && !killed;
  }

  /** Whether its last answer was one after which a worker may exit on its own (a limit was hit). */
  boolean mayExit() {
    return mayExit;
  }

  void mayExit(boolean value) {
    mayExit = value;
  }

  boolean wasKilled() {
    return killed;
  }

  /**
   * Sends one run. The answer completes the returned future; if the worker dies first it completes exceptionally
   * with a {@link WorkerDiedException}.
   */
  CompletableFuture<WorkerResponse> send(WorkerRequest request) {
    var answer = new CompletableFuture<WorkerResponse>();
    pendingId = request.id();
    pending = answer;
    try {
      byte[] line = (json.writeValueAsString(request) + "\n").getBytes(StandardCharsets.UTF_8);
      synchronized (stdin) {
        stdin.write(line);
        stdin.flush();
      }
    } catch (IOException e) {
      pending = null;
      answer.completeExceptionally(new WorkerDiedException(name + " did not take the run: " + e.getMessage()));
    }
    // A worker that ended before this run was sent never answers it. Whether it is alive says nothing here: one that
    // answers at once and then exits (as the engine does after a stuck call) is already gone while its answer still
    // waits in the pipe for the reader. Only the reader's reaching the end of the output means no answer is coming;
    // if it gets there after this check, it fails the run itself.
    if (answersEnded) failPending("exited with code " + exitCodeOrUnknown());
    return answer;
  }

  /** Kills the worker and everything it started, at once. */
  void kill() {
    killed = true;
    Launcher.kill(process);
  }

  /** Closes standard input (a worker exits when it ends), waits a little, then kills what is left. */
  void close(long graceMillis) {
    try {
      synchronized (stdin) {
        stdin.close();
      }
    } catch (IOException ignored) {
      // already gone
    }
    try {
      if (!process.waitFor(graceMillis, TimeUnit.MILLISECONDS)) kill();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      kill();
    }
  }

  /** The last lines the worker wrote to standard error, for the log when it dies. */
  String stderrTail() {
    synchronized (stderrTail) {
      return String.join("\n", stderrTail);
    }
  }

  private void readAnswers() {
    try (var reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        handle(line);
      }
    } catch (IOException e) {
      if (!killed) log.warn("{}: reading its answers failed: {}", name, e.getMessage());
    }
    answersEnded = true;
    String how = killed ? "was killed" : "exited with code " + exitCodeOrUnknown();
    ready.completeExceptionally(new WorkerDiedException(name + " " + how + " before it was ready"
        + (stderrTail().isEmpty() ? "" : "; its last words: " + stderrTail())));
    failPending(how);
  }

  private void becomeReady() {
    if (niceOnceWarm > 0) {
      try {
        WorkerPriority.lower(process.toHandle(), niceOnceWarm);
      } catch (IOException e) {
        ready.completeExceptionally(new WorkerDiedException(name + " could not be lowered to nice " + niceOnceWarm
            + ": " + e.getMessage()));
        return;
      }
    }
    ready.complete(this);
  }

  private void handle(String line) {
    if (line.isBlank()) return;
    JsonNode node;
    try {
      node = json.readTree(line);
    } catch (IOException e) {
      log.warn("{}: ignoring a line that is not JSON: {}", name, abbreviate(line));
      return;
    }
    if (!ready.isDone()) {
      if (node.path("ready").asBoolean(false)) {
        becomeReady();
      } else {
        log.warn("{}: ignoring a line before the ready line: {}", name, abbreviate(line));
      }
      return;
    }
    WorkerResponse response;
    try {
      response = json.treeToValue(node, WorkerResponse.class);
    } catch (IOException | IllegalArgumentException e) {
      log.error("{}: an answer the server cannot read: {} ({})", name, abbreviate(line), e.getMessage());
      failPending("answered something the server cannot read");
      return;
    }
    CompletableFuture<WorkerResponse> answer = pending;
    if (answer == null || response.id() != pendingId || response.result() == null) {
      log.error("{}: an answer for run {} while waiting for run {}: {}", name, response.id(), pendingId,
          abbreviate(line));
      return;
    }
    pending = null;
    answer.complete(response);
  }

  private void readErrors() {
    try (var reader = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        synchronized (stderrTail) {
          if (stderrTail.size() == STDERR_TAIL_LINES) stderrTail.removeFirst();
          stderrTail.addLast(abbreviate(line));
        }
        log.info("{}: {}", name, abbreviate(line));
      }
    } catch (IOException ignored) {
      // the process is gone; the answer reader reports it
    }
  }

  private void failPending(String how) {
    CompletableFuture<WorkerResponse> answer = pending;
    pending = null;
    if (answer != null) answer.completeExceptionally(new WorkerDiedException(name + " " + how));
  }

  private String exitCodeOrUnknown() {
    try {
      return process.waitFor(2, TimeUnit.SECONDS) ? String.valueOf(process.exitValue()) : "unknown";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }

  private static String abbreviate(String line) {
    return line.length() <= 300 ? line : line.substring(0, 300) + "...";
  }

  @Override
  public String toString() {
    return name + " (pid " + process.pid() + ")";
  }

  /** The worker ended (crashed, was killed, or broke the protocol) before answering. */
  static final class WorkerDiedException extends RuntimeException {
    WorkerDiedException(String message) {
      super(message, null, false, false);
    }
  }
}
