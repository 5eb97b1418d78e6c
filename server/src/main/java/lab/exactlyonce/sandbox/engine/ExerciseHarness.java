package lab.exactlyonce.sandbox.engine;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The trusted half of an exercise check, compiled once per worker: the provided classes (as compiled, for compiling
 * learner code against them, and instrumented, for runs) and the checker (instrumented), each its own compilation,
 * and the checker's entry class. Every run defines them afresh in its own {@link ExerciseLoader}, which outlives the
 * learner's simulated crashes within the run. The provided classes are compiled by javac, so that they keep their
 * generic types for a learner's source that javac compiles against them (Janino writes none); the checker, which
 * only this class compiles against, by Janino.
 */
final class ExerciseHarness {
  private static final String ENTRY = "check";
  private static final String ENTRY_DESCRIPTOR = "(L" + Check.class.getName().replace('.', '/') + ";)V";

  private final Map<String, byte[]> providedAsCompiled;
  private final Map<String, byte[]> runClasses;
  private final String checkerClass;
  private final ClassLoader compileLibrary;

  private ExerciseHarness(Map<String, byte[]> providedAsCompiled, Map<String, byte[]> runClasses, String checkerClass) {
    this.providedAsCompiled = Map.copyOf(providedAsCompiled);
    this.runClasses = Map.copyOf(runClasses);
    this.checkerClass = checkerClass;
    this.compileLibrary = new ExerciseLoader(providedAsCompiled, SnippetCompiler.CompileLoader.INSTANCE);
  }

  /**
   * Compiles both halves. Trusted code that does not compile, or a checker without its entry point, is a broken
   * exercise, the service's fault.
   *
   * @throws IllegalStateException naming what is wrong with the exercise
   */
  static ExerciseHarness compile(CheckSpec spec, SnippetCompiler compiler) {
    SnippetCompiler.Compiled provided = JavacCompiler.compile("Provided.java", spec.provided());
    if (!provided.ok()) throw new IllegalStateException("the exercise's provided code does not compile: " + provided.errors());
    ClassLoader providedView = new ExerciseLoader(provided.classes(), SnippetCompiler.CompileLoader.INSTANCE);
    SnippetCompiler.Compiled checker = compiler.compile("ExerciseCheck.java", spec.checker(), providedView, Set.of());
    if (!checker.ok()) throw new IllegalStateException("the exercise's checker does not compile: " + checker.errors());
    for (String name : checker.classes().keySet()) {
      if (provided.classes().containsKey(name)) throw new IllegalStateException("the checker redeclares " + name);
    }
    String entry = entryClass(checker.classes());
    if (entry == null) {
      throw new IllegalStateException("the exercise's checker has no public class with public static void check(Check)");
    }
    Map<String, byte[]> run = new LinkedHashMap<>();
    Map<String, String> superclasses = Instrumenter.superclasses(provided.classes().values(), checker.classes().values());
    for (Map.Entry<String, byte[]> e : provided.classes().entrySet()) {
      run.put(e.getKey(), Instrumenter.instrument(e.getValue(), superclasses));
    }
    for (Map.Entry<String, byte[]> e : checker.classes().entrySet()) {
      run.put(e.getKey(), Instrumenter.instrument(e.getValue(), superclasses));
    }
    return new ExerciseHarness(provided.classes(), run, entry);
  }

  /** Learner code compiles against the JDK's view and the provided classes (never the checker). */
  ClassLoader compileLibrary() {
    return compileLibrary;
  }

  /** The provided classes as compiled: the bytecode check resolves the learner's references to them. */
  Map<String, byte[]> provided() {
    return providedAsCompiled;
  }

  Set<String> providedNames() {
    return providedAsCompiled.keySet();
  }

  /** A fresh loader of the provided and checker classes for one run. */
  ExerciseLoader newRunLoader() {
    return new ExerciseLoader(runClasses, ClassLoader.getPlatformClassLoader());
  }

  String checkerClass() {
    return checkerClass;
  }

  static String entryMethod() {
    return ENTRY;
  }

  private static String entryClass(Map<String, byte[]> classes) {
    for (Map.Entry<String, byte[]> e : classes.entrySet()) {
      ClassReader reader = new ClassReader(e.getValue());
      if ((reader.getAccess() & Opcodes.ACC_PUBLIC) == 0) continue;
      boolean[] found = new boolean[1];
      reader.accept(new ClassVisitor(Opcodes.ASM9) {
        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] ex) {
          int wanted = Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC;
          if (name.equals(ENTRY) && descriptor.equals(ENTRY_DESCRIPTOR) && (access & wanted) == wanted) found[0] = true;
          return null;
        }
      }, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
      if (found[0]) return e.getKey();
    }
    return null;
  }
}
