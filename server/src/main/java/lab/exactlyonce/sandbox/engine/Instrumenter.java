package lab.exactlyonce.sandbox.engine;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.commons.ClassRemapper;
import org.objectweb.asm.commons.SimpleRemapper;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Rewrites verified learner classes so they spend their {@link Budget}: a tick at every method entry and before
 * every backward jump, a check at every exception handler entry (so {@code catch (Throwable t)} and
 * {@code finally} cannot swallow a spent budget), and a charge before every array allocation (so one huge
 * allocation is refused before it happens). Calls that would draw from one of the JDK's JVM-wide generators of
 * random numbers draw from the run's own instead ({@link RunRandom}). The inserted code adds no branches, so the
 * compiler's stack map frames stay valid; only the maximum stack size is recomputed.
 */
final class Instrumenter {
  private static final int API = Opcodes.ASM9;
  private static final String BUDGET = Type.getInternalName(Budget.class);

  /**
   * Regular expression entry points, rewritten to {@link Budget}'s twins that match against a ticking view of the
   * input, so catastrophic backtracking spends the run's budget instead of hanging in the JDK. Key: the call as
   * written ("owner.name descriptor"); value: the static twin's descriptor (receiver first).
   */
  private static final Map<String, String> BUDGETED_REGEX = Map.of(
      "java/lang/String.matches(Ljava/lang/String;)Z", "(Ljava/lang/String;Ljava/lang/String;)Z",
      "java/lang/String.replaceAll(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;",
      "(Ljava/lang/String;Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;",
      "java/lang/String.replaceFirst(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;",
      "(Ljava/lang/String;Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;",
      "java/lang/String.split(Ljava/lang/String;)[Ljava/lang/String;",
      "(Ljava/lang/String;Ljava/lang/String;)[Ljava/lang/String;",
      "java/lang/String.split(Ljava/lang/String;I)[Ljava/lang/String;",
      "(Ljava/lang/String;Ljava/lang/String;I)[Ljava/lang/String;",
      "java/util/regex/Pattern.matcher(Ljava/lang/CharSequence;)Ljava/util/regex/Matcher;",
      "(Ljava/util/regex/Pattern;Ljava/lang/CharSequence;)Ljava/util/regex/Matcher;",
      "java/util/regex/Pattern.matches(Ljava/lang/String;Ljava/lang/CharSequence;)Z",
      "(Ljava/lang/String;Ljava/lang/CharSequence;)Z",
      "java/util/regex/Pattern.split(Ljava/lang/CharSequence;)[Ljava/lang/String;",
      "(Ljava/util/regex/Pattern;Ljava/lang/CharSequence;)[Ljava/lang/String;",
      "java/util/regex/Pattern.split(Ljava/lang/CharSequence;I)[Ljava/lang/String;",
      "(Ljava/util/regex/Pattern;Ljava/lang/CharSequence;I)[Ljava/lang/String;",
      "java/util/regex/Matcher.reset(Ljava/lang/CharSequence;)Ljava/util/regex/Matcher;",
      "(Ljava/util/regex/Matcher;Ljava/lang/CharSequence;)Ljava/util/regex/Matcher;");

  /**
   * Calls that draw from a generator the JDK keeps for the whole JVM, rewritten to {@link Budget}'s twins that draw
   * from the run's own. Key: the call as written; value: the twin's name (same descriptor).
   */
  private static final Map<String, String> RUN_RANDOM = Map.of(
      "java/lang/Math.random()D", "random",
      "java/lang/StrictMath.random()D", "random",
      "java/util/Collections.shuffle(Ljava/util/List;)V", "shuffle");

  private static final String RANDOM = "java/util/Random";
  /**
   * Read as {@link #RANDOM} throughout a learner's class (its instances are the run's generator, whose class has
   * every method the allowlist admits on it), so its per-thread state, seeded from a JVM-wide seeder, is never used.
   */
  private static final String THREAD_LOCAL_RANDOM = "java/util/concurrent/ThreadLocalRandom";
  /** {@code new Random()}, whose seed would come from a JVM-wide uniquifier and the clock. */
  private static final String UNSEEDED = RANDOM + ".<init>()V";

  private Instrumenter() {
  }

  /**
   * Whether a call to this method is rewritten here: a method reference to it would run the original, so the
   * bytecode check refuses those.
   */
  static boolean rewrites(String owner, String name, String descriptor) {
    String call = owner + "." + name + descriptor;
    return BUDGETED_REGEX.containsKey(call) || RUN_RANDOM.containsKey(call) || call.equals(UNSEEDED)
        || owner.equals(THREAD_LOCAL_RANDOM) && name.equals("current") || learnerFramesOnly(name, descriptor);
  }

  /**
   * {@code printStackTrace()}, {@code printStackTrace(PrintStream)}, {@code getStackTrace()}: Throwable's methods
   * that show the sandbox's frames. Matching by name and descriptor covers every call that may reach them, also
   * through an interface of the learner's that declares them; a method reference to one is refused, whatever
   * its owner.
   */
  private static boolean learnerFramesOnly(String name, String descriptor) {
    return name.equals("printStackTrace") && (descriptor.equals("()V") || descriptor.equals("(Ljava/io/PrintStream;)V"))
        || name.equals("getStackTrace") && descriptor.equals(STACK_TRACE);
  }

  private static final String STACK_TRACE = "()[Ljava/lang/StackTraceElement;";

  /**
   * The superclass of every class in {@code units} (internal names), so that a call's owner can be told a
   * Throwable or not: the learner's classes and the exercise's provided classes are not loadable here.
   */
  @SafeVarargs
  static Map<String, String> superclasses(Collection<byte[]>... units) {
    Map<String, String> superclasses = new HashMap<>();
    for (Collection<byte[]> unit : units) {
      for (byte[] classFile : unit) {
        ClassReader reader = new ClassReader(classFile);
        superclasses.put(reader.getClassName(), reader.getSuperName());
      }
    }
    return superclasses;
  }

  /** Instruments one class of a unit whose classes' superclasses are {@code superclasses}. */
  static byte[] instrument(byte[] classFile, Map<String, String> superclasses) {
    ClassReader reader = new ClassReader(classFile);
    ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    ClassVisitor budgeted = new ClassVisitor(API, writer) {
      @Override
      public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        return new BudgetedMethod(super.visitMethod(access, name, descriptor, signature, exceptions), superclasses);
      }
    };
    reader.accept(new ClassRemapper(budgeted, new SimpleRemapper(THREAD_LOCAL_RANDOM, RANDOM)), 0);
    return writer.toByteArray();
  }

  /**
   * Whether instances of the class {@code owner} are Throwables: up the unit's own classes, then the JDK's (the
   * verifier admitted the owner, so it is loadable). An owner that cannot be resolved counts as one, so the rewrite
   * fails the run's verification rather than show the sandbox's frames.
   */
  private static boolean isThrowable(String owner, Map<String, String> superclasses) {
    String name = owner;
    Set<String> seen = new HashSet<>();
    while (superclasses.containsKey(name)) {
      if (!seen.add(name)) return true;
      name = superclasses.get(name);
      if (name == null) return false;
    }
    try {
      return Throwable.class.isAssignableFrom(Class.forName(name.replace('/', '.'), false, Instrumenter.class.getClassLoader()));
    } catch (ClassNotFoundException | LinkageError e) {
      return true;
    }
  }

  private static final class BudgetedMethod extends MethodVisitor {
    private final Set<Label> handlers = new HashSet<>();
    private final Set<Label> seen = new HashSet<>();
    private final Map<String, String> superclasses;
    private boolean atHandler;
    /** The method-entry tick waits for the first instruction, so it carries the method's first line number. */
    private boolean atEntry;

    BudgetedMethod(MethodVisitor next, Map<String, String> superclasses) {
      super(API, next);
      this.superclasses = superclasses;
    }

    @Override
    public void visitCode() {
      super.visitCode();
      atEntry = true;
    }

    private void tick() {
      super.visitMethodInsn(Opcodes.INVOKESTATIC, BUDGET, "tick", "()V", false);
    }

    /** Before the first instruction of a handler (after its label and frame): rethrow a spent budget. */
    private void beforeInstruction() {
      if (atEntry) {
        atEntry = false;
        tick();
      }
      if (!atHandler) return;
      atHandler = false;
      super.visitInsn(Opcodes.DUP);
      super.visitMethodInsn(Opcodes.INVOKESTATIC, BUDGET, "caught", "(Ljava/lang/Throwable;)V", false);
    }

    @Override
    public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
      handlers.add(handler);
      super.visitTryCatchBlock(start, end, handler, type);
    }

    @Override
    public void visitLabel(Label label) {
      super.visitLabel(label);
      seen.add(label);
      if (handlers.contains(label)) atHandler = true;
    }

    @Override
    public void visitJumpInsn(int opcode, Label label) {
      beforeInstruction();
      if (seen.contains(label)) tick();
      super.visitJumpInsn(opcode, label);
    }

    @Override
    public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
      beforeInstruction();
      if (anySeen(dflt, labels)) tick();
      super.visitTableSwitchInsn(min, max, dflt, labels);
    }

    @Override
    public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
      beforeInstruction();
      if (anySeen(dflt, labels)) tick();
      super.visitLookupSwitchInsn(dflt, keys, labels);
    }

    private boolean anySeen(Label dflt, Label[] labels) {
      if (seen.contains(dflt)) return true;
      for (Label l : labels) if (seen.contains(l)) return true;
      return false;
    }

    @Override
    public void visitIntInsn(int opcode, int operand) {
      beforeInstruction();
      if (opcode == Opcodes.NEWARRAY) chargeArray(primitiveBytes(operand));
      super.visitIntInsn(opcode, operand);
    }

    @Override
    public void visitTypeInsn(int opcode, String type) {
      beforeInstruction();
      if (opcode == Opcodes.ANEWARRAY) chargeArray(4);
      super.visitTypeInsn(opcode, type);
    }

    @Override
    public void visitMultiANewArrayInsn(String descriptor, int numDimensions) {
      beforeInstruction();
      if (numDimensions == 1) {
        Type element = Type.getType(descriptor).getElementType();
        chargeArray(Type.getType(descriptor).getDimensions() == 1 ? Math.max(1, Math.min(8, element.getSize() * 4)) : 4);
        super.visitMultiANewArrayInsn(descriptor, numDimensions);
        return;
      }
      // verified: 2 to 4 dimensions. The helper charges the whole tree, then allocates it.
      super.visitLdcInsn(descriptor);
      StringBuilder helper = new StringBuilder("(");
      for (int i = 0; i < numDimensions; i++) helper.append('I');
      helper.append("Ljava/lang/String;)Ljava/lang/Object;");
      super.visitMethodInsn(Opcodes.INVOKESTATIC, BUDGET, "multiArray", helper.toString(), false);
      super.visitTypeInsn(Opcodes.CHECKCAST, descriptor);
    }

    /** Stack: [..., length] stays [..., length] after the charge. */
    private void chargeArray(int elementBytes) {
      super.visitIntInsn(Opcodes.BIPUSH, elementBytes);
      super.visitMethodInsn(Opcodes.INVOKESTATIC, BUDGET, "array", "(II)I", false);
    }

    private static int primitiveBytes(int type) {
      switch (type) {
        case Opcodes.T_LONG:
        case Opcodes.T_DOUBLE:
          return 8;
        case Opcodes.T_INT:
        case Opcodes.T_FLOAT:
          return 4;
        case Opcodes.T_SHORT:
        case Opcodes.T_CHAR:
          return 2;
        default:
          return 1;
      }
    }

    @Override
    public void visitInsn(int opcode) {
      beforeInstruction();
      super.visitInsn(opcode);
    }

    @Override
    public void visitVarInsn(int opcode, int varIndex) {
      beforeInstruction();
      super.visitVarInsn(opcode, varIndex);
    }

    @Override
    public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
      beforeInstruction();
      super.visitFieldInsn(opcode, owner, name, descriptor);
    }

    @Override
    public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
      beforeInstruction();
      if (learnerFramesOnly(name, descriptor) && learnerFrames(opcode, owner, name, descriptor, isInterface)) return;
      String call = owner + "." + name + descriptor;
      if (opcode == Opcodes.INVOKESPECIAL && call.equals(UNSEEDED)) {
        // [uninitialised Random] -> [uninitialised Random, seed] -> new Random(seed): the same object, seeded afresh
        super.visitMethodInsn(Opcodes.INVOKESTATIC, BUDGET, "randomSeed", "()J", false);
        super.visitMethodInsn(opcode, owner, name, "(J)V", false);
        return;
      }
      String twin = RUN_RANDOM.get(call);
      if (opcode == Opcodes.INVOKESTATIC && twin != null) {
        super.visitMethodInsn(Opcodes.INVOKESTATIC, BUDGET, twin, descriptor, false);
        return;
      }
      if (opcode == Opcodes.INVOKESTATIC && owner.equals(RANDOM) && name.equals("current")) {
        // ThreadLocalRandom.current(), renamed by the remapper: Random has no static method of that name
        super.visitMethodInsn(Opcodes.INVOKESTATIC, BUDGET, "threadLocalRandom", descriptor, false);
        return;
      }
      String budgeted = BUDGETED_REGEX.get(call);
      if (budgeted != null) {
        super.visitMethodInsn(Opcodes.INVOKESTATIC, BUDGET, "regex" + name.substring(0, 1).toUpperCase(Locale.ROOT)
            + name.substring(1), budgeted, false);
        return;
      }
      super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    }

    /**
     * The learner's frames only, like an uncaught exception, instead of the sandbox's own; false (nothing
     * written) for a call that cannot reach a Throwable. A virtual or super call is on a Throwable when its owner
     * is one. An interface call may reach a Throwable that implements the interface, or a class that is none, so
     * Budget decides by the receiver. A getStackTrace() call stays as written (a super call must not dispatch
     * again) and its result is filtered.
     */
    private boolean learnerFrames(int opcode, String owner, String name, String descriptor, boolean isInterface) {
      boolean anyReceiver = opcode == Opcodes.INVOKEINTERFACE;
      if (!anyReceiver && (isInterface || opcode == Opcodes.INVOKESTATIC || !isThrowable(owner, superclasses))) {
        return false;
      }
      if (name.equals("getStackTrace")) {
        if (anyReceiver) super.visitInsn(Opcodes.DUP);
        super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
        super.visitMethodInsn(Opcodes.INVOKESTATIC, BUDGET, "learnerFrames",
            anyReceiver ? "(Ljava/lang/Object;[Ljava/lang/StackTraceElement;)[Ljava/lang/StackTraceElement;"
                : "([Ljava/lang/StackTraceElement;)[Ljava/lang/StackTraceElement;", false);
      } else {
        String receiver = anyReceiver ? "(Ljava/lang/Object;" : "(Ljava/lang/Throwable;";
        super.visitMethodInsn(Opcodes.INVOKESTATIC, BUDGET, name, receiver + descriptor.substring(1), false);
      }
      return true;
    }

    @Override
    public void visitInvokeDynamicInsn(String name, String descriptor, Handle bootstrap, Object... arguments) {
      beforeInstruction();
      super.visitInvokeDynamicInsn(name, descriptor, bootstrap, arguments);
    }

    @Override
    public void visitLdcInsn(Object value) {
      beforeInstruction();
      super.visitLdcInsn(value);
    }

    @Override
    public void visitIincInsn(int varIndex, int increment) {
      beforeInstruction();
      super.visitIincInsn(varIndex, increment);
    }
  }
}
