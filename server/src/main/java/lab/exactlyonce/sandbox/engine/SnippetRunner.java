package lab.exactlyonce.sandbox.engine;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodTooLargeException;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compiles and runs one learner snippet inside this JVM, within its {@link SandboxLimits}. The stages:
 * <ol>
 *   <li>size check, then {@link OutsideSandbox} refuses names of JDK classes in modules the sandbox lacks
 *       ({@code rejected}), then {@link Compilers} compiles the source with Janino or javac (on a compiler thread, at
 *       most {@code compileMillis});</li>
 *   <li>{@link BytecodeVerifier} checks every class against the {@link ApiPolicy} allowlist ({@code rejected});</li>
 *   <li>{@link Instrumenter} adds budget checks; the JVM verifies the classes ({@link LinkCheck}, with
 *       {@link FrameRepair} for Janino's wrong stack map frames); the result is cached by source hash;</li>
 *   <li>a fresh {@link SnippetLoader} defines the classes and a fresh {@link RunThread} runs the first public
 *       class with {@code public static void main(String[])}, its output captured apart from the JVM's.</li>
 * </ol>
 * If the run thread is stuck in a long library call past the wall time plus a grace period, the result is
 * {@code timeout} and this runner becomes {@linkplain #healthy() unhealthy}: the thread cannot be stopped, so the
 * process that hosts this runner should be replaced. So does a run that may have changed the JVM for later runs
 * (see {@link WorkerDamage}); its own result stays what it was.
 *
 * <p>Installs routing {@code System.out}/{@code System.err} on construction: other threads keep writing where
 * they wrote before.
 */
public final class SnippetRunner {
  private static final Logger LOG = LoggerFactory.getLogger(SnippetRunner.class);
  private static final long GRACE_MILLIS = 250;
  private static final long COLD_COMPILE_MILLIS = 10_000;
  private static final long LINGER_SECONDS = 15;
  private static final Pattern PUBLIC_CLASS =
      Pattern.compile("\\bpublic\\s+(?:(?:final|abstract|static)\\s+)*class\\s+([A-Za-z_$][\\w$]*)");
  private static final String MAIN_DESCRIPTOR = "([Ljava/lang/String;)V";
  /** Compilations run here (a deep stack for Janino's recursion); concurrent runs compile side by side. */
  private static final ExecutorService COMPILER_THREADS = newCompilerThreads();

  private final Compilers compilers = new Compilers();
  private final PreparedCache cache = new PreparedCache(64);
  /** The trusted halves of exercise checks, by {@link CheckSpec#key()}: a lesson has a handful of exercises. */
  private final Map<String, ExerciseHarness> harnesses = Collections.synchronizedMap(
      new LinkedHashMap<String, ExerciseHarness>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ExerciseHarness> eldest) {
          return size() > 16;
        }
      });
  private volatile boolean healthy = true;
  /** Why this runner is unhealthy, for the worker's log; null while it is healthy. */
  private volatile String unhealthyBecause;
  /** How many sources were compiled (not found in the cache); for tests. */
  private final AtomicLong compiledSources = new AtomicLong();
  /** Compilations in progress, by start time (nanoTime). */
  private final Map<Object, Long> compilations = new ConcurrentHashMap<>();
  /** The first compilation of each compiler in a fresh JVM loads and JIT-compiles it: until then, a longer limit. */
  private volatile boolean janinoWarm;
  private volatile boolean javacWarm;

  public SnippetRunner() {
    OutputRouting.install();
  }

  /**
   * False once a run left a thread behind that could not be stopped, or a compilation that timed out is still
   * going {@value #LINGER_SECONDS} s after it started: replace the process.
   */
  public boolean healthy() {
    long now = System.nanoTime();
    for (long started : compilations.values()) {
      if (now - started > TimeUnit.SECONDS.toNanos(LINGER_SECONDS) && healthy) {
        retire("a timed-out compilation is still running after " + LINGER_SECONDS + " s");
      }
    }
    return healthy;
  }

  /** Why this runner is unhealthy ("a run ended in or went through a stack overflow"), or null while healthy. */
  public String unhealthyBecause() {
    return healthy() ? null : unhealthyBecause;
  }

  private void retire(String because) {
    if (unhealthyBecause == null) unhealthyBecause = because;
    healthy = false;
    LOG.warn("{}; this runner is now unhealthy", because);
  }

  long compiledSources() {
    return compiledSources.get();
  }

  public RunResult run(String source, SandboxLimits limits) {
    return run(source, limits, null);
  }

  /**
   * Runs {@code source}; with a {@code check}, its checker drives the learner's classes instead of their
   * {@code main}, and its verdicts come back in {@link RunResult#check()}.
   */
  public RunResult run(String source, SandboxLimits limits, CheckSpec check) {
    long start = System.nanoTime();
    try {
      return withDiagnosticsCapped(runChecked(source, limits, check, start), limits.maxDiagnostics());
    } catch (Throwable e) {
      LOG.error("sandbox failure while running a snippet", e);
      return new RunResult(Outcome.INTERNAL_ERROR, "", "",
          List.of(new Diagnostic(0, 0, "internal error: the sandbox failed; this is not a problem in your code")),
          elapsedMillis(start));
    }
  }

  private RunResult runChecked(String source, SandboxLimits limits, CheckSpec check, long start)
      throws InterruptedException {
    if (source == null || source.isBlank()) {
      return failure(Outcome.COMPILE_ERROR, List.of(new Diagnostic(0, 0, "there is no source to run")), start);
    }
    int bytes = source.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > limits.maxSourceBytes()) {
      return failure(Outcome.COMPILE_ERROR, List.of(new Diagnostic(0, 0,
          "the source is " + bytes + " bytes; at most " + limits.maxSourceBytes() + " bytes are allowed")), start);
    }
    String harnessKey = check == null ? null : check.key();
    ExerciseHarness harness = check == null ? null : harnesses.computeIfAbsent(harnessKey,
        k -> ExerciseHarness.compile(check, compilers.janino()));
    String key = harness == null ? PreparedCache.key(source) : PreparedCache.key(harnessKey + "\u0000" + source);
    Prepared prepared = cache.get(key);
    if (prepared == null) {
      prepared = prepare(source, limits, harness);
      // A compilation stopped at its limit says nothing lasting about the source: the next try compiles again.
      if (prepared.failure() != Outcome.TIMEOUT) cache.put(key, prepared, limits.cacheBytes());
    }
    if (!prepared.runnable()) return failure(prepared.failure(), prepared.diagnostics(), start);
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(limits.wallMillis());
    return execute(prepared, harness, limits, deadline, start);
  }

  /** Compile, verify, instrument; a {@link Outcome#TIMEOUT} failure when compiling went over its time. */
  private Prepared prepare(String source, SandboxLimits limits, ExerciseHarness harness) throws InterruptedException {
    List<Diagnostic> outside = OutsideSandbox.uses(source);
    if (!outside.isEmpty()) return Prepared.failed(Outcome.REJECTED, outside);
    String fileName = fileName(source);
    SnippetCompiler.Compiled compiled;
    compiledSources.incrementAndGet();
    Object compilation = new Object();
    compilations.put(compilation, System.nanoTime());
    AtomicReference<Thread> javacOn = new AtomicReference<>();
    CompileClock clock = new CompileClock();
    Future<Compilers.Result> task = COMPILER_THREADS.submit(() -> {
      clock.started();
      try {
        return compilers.compile(fileName, source, harness, javacOn);
      } finally {
        compilations.remove(compilation);
      }
    });
    boolean janinoFirst = JaninoFit.fits(source);
    boolean compilerWarm = janinoFirst ? janinoWarm : javacWarm;
    long allowed = compilerWarm ? limits.compileMillis() : Math.max(limits.compileMillis(), COLD_COMPILE_MILLIS);
    // The clock gets the same multiple of the compile limit as the limits give a run's clock of its CPU time.
    long clockAllowed = allowed * Math.max(1, limits.wallMillis() / limits.cpuMillis());
    try {
      Compilers.Result result = clock.await(task, allowed, clockAllowed);
      compiled = result.compiled();
      if (janinoFirst) janinoWarm = true;
      if (result.javac()) javacWarm = true;
    } catch (TimeoutException e) {
      // Neither compiler looks at interrupts. Janino's compilation goes on in the background: usually it ends soon
      // (a large source on a busy machine); one still going LINGER_SECONDS after it started retires this runner.
      // javac's type inference can take minutes for a few lines, so it is stopped now; a thread stopped at an
      // arbitrary point may leave javac's shared state inconsistent, so this runner retires.
      LOG.warn("a compilation outlived its limit of {} ms", allowed);
      Thread javac = javacOn.get();
      if (javac != null && compilations.containsKey(compilation)) {
        retire("a javac compilation was stopped at its time limit");
        stopHard(javac);
      }
      String why = clock.computedMillis() >= allowed
          ? "compiling took longer than " + limits.compileMillis() + " ms: is the source very large?"
          : "compiling was stopped after " + clockAllowed + " ms: the server is too busy to compile this now; try "
              + "again in a moment";
      return Prepared.failed(Outcome.TIMEOUT, List.of(new Diagnostic(0, 0, why)));
    } catch (ExecutionException e) {
      if (e.getCause() instanceof OutOfMemoryError) {
        // A few hundred bytes of source can make Janino build megabytes; the heap is shared with later runs.
        retire("a compilation ran out of heap");
        return Prepared.failed(Outcome.COMPILE_ERROR, List.of(new Diagnostic(0, 0,
            "compiling this source needs more memory than the sandbox has: make it smaller")));
      }
      throw new IllegalStateException("the compiler failed", e.getCause());
    }
    if (compiled.overflowed()) retire("a compilation ran out of stack");
    if (!compiled.ok()) return Prepared.failed(Outcome.COMPILE_ERROR, OutsideSandbox.clarified(source, compiled.errors()));
    Map<String, byte[]> provided = harness == null ? Map.of() : harness.provided();
    List<Diagnostic> shadowing = ShadowedNames.problems(compiled.classes().keySet(), provided.keySet(), source);
    if (!shadowing.isEmpty()) return Prepared.failed(Outcome.COMPILE_ERROR, shadowing);
    List<Diagnostic> weaker = WeakerAccess.problems(compiled.classes(), provided);
    if (!weaker.isEmpty()) return Prepared.failed(Outcome.COMPILE_ERROR, weaker);
    List<Diagnostic> violations = BytecodeVerifier.verify(compiled.classes(), provided, source);
    if (!violations.isEmpty()) return Prepared.failed(Outcome.REJECTED, violations);
    String mainClass = harness == null ? mainClass(compiled.classes()) : null;
    if (harness == null && mainClass == null) {
      return Prepared.failed(Outcome.COMPILE_ERROR, List.of(new Diagnostic(0, 0,
          "nothing to run: add a public class with public static void main(String[] args)")));
    }
    Map<String, byte[]> instrumented = new LinkedHashMap<>();
    try {
      Map<String, String> superclasses = Instrumenter.superclasses(compiled.classes().values(), provided.values());
      for (Map.Entry<String, byte[]> e : compiled.classes().entrySet()) {
        instrumented.put(e.getKey(), Instrumenter.instrument(e.getValue(), superclasses));
      }
    } catch (MethodTooLargeException e) {
      return Prepared.failed(Outcome.COMPILE_ERROR, List.of(new Diagnostic(0, 0, "the method " + e.getMethodName()
          + " of " + e.getClassName().replace('/', '.') + " is too large to run here (the sandbox adds checks to it):"
          + " split it into smaller methods")));
    }
    Map<String, byte[]> verified = verifiable(instrumented);
    if (verified == null) return Prepared.failed(Outcome.COMPILE_ERROR, List.of(LinkCheck.check(instrumented)));
    return Prepared.runnable(verified, mainClass);
  }

  /** The classes if the JVM verifies them, else the same with recomputed stack map frames if those verify, else null. */
  private static Map<String, byte[]> verifiable(Map<String, byte[]> classes) {
    if (LinkCheck.check(classes) == null) return classes;
    Map<String, byte[]> repaired = FrameRepair.repair(classes);
    return LinkCheck.check(repaired) == null ? repaired : null;
  }

  private static String fileName(String source) {
    Matcher m = PUBLIC_CLASS.matcher(source);
    return (m.find() ? m.group(1) : "Main") + ".java";
  }

  /** The first public top-level class with main, else the first public nested one, else any class with main. */
  static String mainClass(Map<String, byte[]> classes) {
    List<String> publicTop = new ArrayList<>();
    List<String> publicNested = new ArrayList<>();
    List<String> other = new ArrayList<>();
    for (Map.Entry<String, byte[]> e : classes.entrySet()) {
      ClassReader reader = new ClassReader(e.getValue());
      boolean[] hasMain = new boolean[1];
      reader.accept(new ClassVisitor(Opcodes.ASM9) {
        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] ex) {
          int wanted = Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC;
          if (name.equals("main") && descriptor.equals(MAIN_DESCRIPTOR) && (access & wanted) == wanted) hasMain[0] = true;
          return null;
        }
      }, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
      if (!hasMain[0]) continue;
      boolean isPublic = (reader.getAccess() & Opcodes.ACC_PUBLIC) != 0;
      boolean nested = e.getKey().indexOf('$') >= 0;
      (isPublic ? nested ? publicNested : publicTop : other).add(e.getKey());
    }
    for (List<String> candidates : List.of(publicTop, publicNested, other)) {
      if (!candidates.isEmpty()) return candidates.get(0);
    }
    return null;
  }

  private RunResult execute(Prepared prepared, ExerciseHarness harness, SandboxLimits limits, long deadline, long start)
      throws InterruptedException {
    RunBudget budget = new RunBudget(limits, deadline);
    RunOutput output = new RunOutput(limits.maxOutputBytes(), budget);
    Check check = null;
    MainCall call;
    if (harness == null) {
      SnippetLoader loader = new SnippetLoader(prepared.classes());
      call = new MainCall(loader, prepared.mainClass(), "main", String[].class, new String[0], budget);
    } else {
      ExerciseLoader exercise = harness.newRunLoader();
      check = new Check(new SnippetLoader(prepared.classes(), exercise, harness.providedNames()));
      call = new MainCall(exercise, harness.checkerClass(), ExerciseHarness.entryMethod(), Check.class, check, budget);
    }
    RunThread thread = new RunThread(call, budget, output);
    thread.start();
    RunBudget.Kind spent = budget.awaitEnd(thread, GRACE_MILLIS);
    StackTraceElement[] stuckAt = null;
    if (thread.isAlive()) {
      stuckAt = thread.getStackTrace();
      budget.stop(spent);
      thread.join(GRACE_MILLIS);
      if (thread.isAlive()) {
        retire("a snippet is stuck in a library call past its time limit, at "
            + (stuckAt.length > 0 ? stuckAt[0] : "no frames"));
        stopHard(thread);
      }
    }
    if (!thread.isAlive()) checkForDamage(call);
    RunResult result = call.result(output, stuckAt, elapsedMillis(start),
        thread.isAlive() ? List.of() : thread.trace().events());
    return check == null || thread.isAlive() ? result : withCheck(result, check);
  }

  /**
   * A check's answer: the checker's report when the run ended normally; when the learner's code lacks what the
   * exercise asks for (a class, its interface, its constructor), that one problem, as a compile error would be.
   */
  private static RunResult withCheck(RunResult run, Check check) {
    boolean ranThrough = run.status() == Outcome.OK || run.status() == Outcome.RUNTIME_ERROR;
    if (check.problem() != null && ranThrough) {
      return new RunResult(Outcome.COMPILE_ERROR, run.stdout(), run.stderr(),
          List.of(new Diagnostic(0, 0, check.problem())), run.elapsedMs(), run.trace());
    }
    return new RunResult(run.status(), run.stdout(), run.stderr(), run.diagnostics(), run.elapsedMs(), run.trace(),
        run.status() == Outcome.OK ? check.report() : null);
  }

  /**
   * Retires this runner after a run whose failure may have changed the JVM for later runs (see
   * {@link WorkerDamage}): one that escaped {@code main}, or one the learner's own handlers caught and went on.
   * The run's own result stays what it is.
   */
  private void checkForDamage(MainCall call) {
    for (Throwable t : call.thrown()) {
      String reason = WorkerDamage.reason(t);
      if (reason != null) {
        retire("a run ended in or went through " + reason);
        return;
      }
    }
  }

  /**
   * Best effort to stop a thread stuck in a library call so it stops burning a core until the process is replaced:
   * {@code Thread.stop} still works on Java 17 (it throws from Java 20 on). The runner stays unhealthy either way:
   * a thread killed at an arbitrary point may leave shared JDK state inconsistent.
   */
  @SuppressWarnings({"deprecation", "removal"})
  private static void stopHard(Thread thread) {
    try {
      thread.stop();
    } catch (UnsupportedOperationException e) {
      LOG.warn("cannot stop the stuck snippet thread on this JVM; it runs until the process is replaced");
    }
  }

  /** The first {@code max} diagnostics, then one that counts the rest ("and 3 more problems"). */
  static RunResult withDiagnosticsCapped(RunResult result, int max) {
    List<Diagnostic> all = result.diagnostics();
    if (all.size() <= max) return result;
    List<Diagnostic> kept = new ArrayList<>(all.subList(0, max));
    int more = all.size() - max;
    kept.add(new Diagnostic(0, 0, "and " + more + " more " + (more == 1 ? "problem" : "problems")
        + " (only the first " + max + " are listed)"));
    return new RunResult(result.status(), result.stdout(), result.stderr(), kept, result.elapsedMs(), result.trace(),
        result.check());
  }

  /** The compile cache, for tests. */
  PreparedCache cache() {
    return cache;
  }

  private static RunResult failure(Outcome outcome, List<Diagnostic> diagnostics, long start) {
    return new RunResult(outcome, "", "", diagnostics, elapsedMillis(start));
  }

  private static long elapsedMillis(long start) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
  }

  /**
   * A compilation is charged the CPU time its compiler thread computed (plus the collections it caused), as a run is,
   * not the clock a busy host kept it waiting; the clock ends it only at the multiple of its limit that the limits
   * allow a run's clock ({@link SandboxLimits#BUSY_HOST_FACTOR} by default). One compiler thread cannot compute faster than the clock runs, so its CPU time is read only once the
   * clock says the limit could be spent.
   */
  private static final class CompileClock {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private final long startNanos = System.nanoTime();
    private volatile long threadId = -1;
    private volatile long baseNanos;

    /** Called on the compiler thread as the compilation begins. */
    void started() {
      baseNanos = RunBudget.spentNanos(THREADS.getCurrentThreadCpuTime());
      threadId = Thread.currentThread().getId();
    }

    /** What the compilation has computed so far, in milliseconds. */
    long computedMillis() {
      long id = threadId;
      if (id < 0) return 0;
      return TimeUnit.NANOSECONDS.toMillis(RunBudget.spentNanos(THREADS.getThreadCpuTime(id)) - baseNanos);
    }

    /** The compilation's result, or a TimeoutException once it computed {@code cpuMillis} or the clock ran out. */
    <T> T await(Future<T> task, long cpuMillis, long clockMillis)
        throws InterruptedException, ExecutionException, TimeoutException {
      long clockEnd = startNanos + TimeUnit.MILLISECONDS.toNanos(clockMillis);
      long wait = cpuMillis;
      while (true) {
        long clockLeft = TimeUnit.NANOSECONDS.toMillis(clockEnd - System.nanoTime());
        try {
          return task.get(Math.max(1, Math.min(wait, clockLeft)), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
          long cpuLeft = cpuMillis - computedMillis();
          if (cpuLeft <= 0 || clockEnd - System.nanoTime() <= 0) throw e;
          wait = cpuLeft;
        }
      }
    }
  }

  private static ExecutorService newCompilerThreads() {
    return Executors.newCachedThreadPool(task -> {
      Thread t = new Thread(null, task, "snippet-compiler", 16L * 1024 * 1024);
      t.setDaemon(true);
      return t;
    });
  }
}
