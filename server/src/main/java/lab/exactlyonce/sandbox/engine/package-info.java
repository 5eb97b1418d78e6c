/**
 * The sandbox engine: compiles and runs one learner snippet inside a worker JVM ({@link
 * lab.exactlyonce.sandbox.engine.WorkerMain}, protocol in its javadoc), with defence in depth instead of a
 * SecurityManager:
 * <ol>
 *   <li><b>Compile</b> ({@code Compilers}): Janino 3.1.12 ({@code SnippetCompiler}: target 8, debug info, only
 *       {@code java.base} and {@code jdk.unsupported} classes, never the application's) where it compiles the source
 *       as Java does ({@code JaninoFit}); everything else, and whatever Janino refuses, with javac in memory
 *       ({@code JavacCompiler}, {@code MemoryFileManager}: {@code -g}, no annotation processing, no file of the
 *       host), whose errors the learner sees ({@code JavacMessages}). A Janino bug that ran {@code finally} twice
 *       after a {@code catch} is rewritten away.</li>
 *   <li><b>Verify</b> ({@code BytecodeVerifier}, {@code ApiPolicy}): every class, method and field the
 *       bytecode names (owners, descriptors, generic signatures, class constants, super types, annotations,
 *       exception types) must be on the allowlist; a member denylist removes the dangerous parts of allowed
 *       classes; invokedynamic only with the bootstraps javac needs ({@code Bootstraps}), whose method handles are
 *       checked like calls; method handle constants, native methods and finalizers are refused. A refusal is
 *       {@code rejected} with "java.lang.System.exit is not allowed in the sandbox" at the line.</li>
 *   <li><b>Instrument</b> ({@code Instrumenter}): {@code Budget.tick()} at method entries and backward jumps,
 *       {@code Budget.caught(t)} at every handler (so {@code catch (Throwable)} and {@code finally} cannot keep
 *       a spent budget), array allocations charged before they happen, regular expressions matched against a
 *       ticking view of their input, {@code printStackTrace} limited to the learner's frames, and
 *       {@code Math.random()}, {@code new Random()}, {@code ThreadLocalRandom} and {@code Collections.shuffle}
 *       drawing from the run's own generator, seeded afresh ({@code RunRandom}), never from the JVM-wide ones.</li>
 *   <li><b>Run</b> ({@code SnippetRunner}): a fresh {@code SnippetLoader} (allowlisted JDK classes and
 *       {@code Budget} only) per run, the first public class with {@code main} on a fresh {@code RunThread}
 *       (4 MB stack) with its own budget and output capture; the caller waits the wall time plus a grace, and a
 *       thread stuck in a long library call makes the runner unhealthy (the worker then exits to be
 *       replaced).</li>
 * </ol>
 * <p><b>Exercise checks</b> ({@code CheckSpec}): the exercise's provided code and its checker are trusted, compiled
 * once per worker each on its own ({@code ExerciseHarness}), and defined per run in an {@code ExerciseLoader} that
 * never sees a learner class; the learner's source compiles against the provided classes alone, and its
 * {@code SnippetLoader} asks the exercise's loader for the provided names before anything else; a new one defines
 * the learner's classes again for every scenario and after every simulated crash ({@code Check.crash}), so a crash
 * takes the learner's static state with it. Both loaders share {@code ClassFileLoader}. The checker's
 * {@code check(Check)} runs instead of any {@code main}; it makes the learner's objects through {@link
 * lab.exactlyonce.sandbox.engine.Check}, sees them only through the provided interface, and its verdicts come back
 * in {@code RunResult.check} over the worker protocol, apart from the output the learner's code writes. Learner
 * classes that hide a provided name or a {@code java.lang} type the language leans on are refused
 * ({@code ShadowedNames}).
 * <p>Learner code may name exactly one class of ours, {@link lab.exactlyonce.sandbox.engine.Trace}: the allowlist,
 * the compile-time loader and the run's loader all admit it, and its events go to a bounded buffer of the run
 * thread that comes back as {@code RunResult.trace}.
 * Compiled, verified and instrumented class files are cached by source hash (64 entries), so an unchanged
 * snippet skips straight to the run.
 */
package lab.exactlyonce.sandbox.engine;
