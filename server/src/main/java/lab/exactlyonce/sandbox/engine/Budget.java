package lab.exactlyonce.sandbox.engine;

import java.io.PrintStream;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The runtime the instrumented learner code calls: at every method entry and backward jump ({@link #tick}), at
 * every exception handler ({@link #caught}) and before every array allocation ({@link #array},
 * {@link #multiArray}). It is the only class of ours a snippet's class loader resolves. Learner source cannot name
 * it: the bytecode check runs before instrumentation and this class is not on the allowlist.
 */
public final class Budget {
  /** Bytes of an array header and of one reference (compressed oops), for estimates. */
  private static final long HEADER = 16;
  private static final long REFERENCE = 4;
  private static final StackWalker CALLERS = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

  private Budget() {
  }

  public static void tick() {
    budget().tick();
  }

  public static void caught(Throwable t) {
    budget().caught(t);
  }

  /** Charges a one-dimensional array of {@code length} elements of {@code elementBytes} each; returns length. */
  public static int array(int length, int elementBytes) {
    budget().chargeArray(HEADER + (long) length * elementBytes);
    return length;
  }

  public static Object multiArray(int d1, int d2, String descriptor) {
    return multi(new int[] {d1, d2}, descriptor, CALLERS.getCallerClass());
  }

  public static Object multiArray(int d1, int d2, int d3, String descriptor) {
    return multi(new int[] {d1, d2, d3}, descriptor, CALLERS.getCallerClass());
  }

  public static Object multiArray(int d1, int d2, int d3, int d4, String descriptor) {
    return multi(new int[] {d1, d2, d3, d4}, descriptor, CALLERS.getCallerClass());
  }

  /**
   * The array type is resolved where the allocating class resolves its names: a check has the checker's loader and
   * a learner loader per lifetime of the learner's classes, and each names its own classes.
   */
  private static Object multi(int[] dims, String descriptor, Class<?> caller) {
    RunThread thread = runThread();
    Class<?> component;
    try {
      component = Class.forName(descriptor.replace('/', '.'), false, caller.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("cannot resolve array type " + descriptor, e);
    }
    for (int i = 0; i < dims.length; i++) component = component.getComponentType();
    long bytes = 0;
    long arrays = 1;
    for (int i = 0; i < dims.length; i++) {
      long element = i < dims.length - 1 ? REFERENCE : elementBytes(component);
      bytes = saturatedAdd(bytes, saturatedMultiply(arrays, HEADER + Math.max(0, dims[i]) * element));
      arrays = saturatedMultiply(arrays, Math.max(0, dims[i]));
    }
    thread.budget().chargeArray(bytes);
    return Array.newInstance(component, dims);
  }

  private static long elementBytes(Class<?> type) {
    if (type == long.class || type == double.class) return 8;
    if (type == int.class || type == float.class) return 4;
    if (type == short.class || type == char.class) return 2;
    if (type == byte.class || type == boolean.class) return 1;
    return REFERENCE;
  }

  private static long saturatedAdd(long a, long b) {
    long r = a + b;
    return r < 0 ? Long.MAX_VALUE : r;
  }

  private static long saturatedMultiply(long a, long b) {
    if (a == 0 || b == 0) return 0;
    return a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
  }

  /** {@code t.printStackTrace()} with the learner's frames only, to the run's standard error. */
  public static void printStackTrace(Throwable t) {
    printStackTrace(t, System.err);
  }

  /** {@code t.printStackTrace(out)} with the learner's frames only. */
  public static void printStackTrace(Throwable t, PrintStream out) {
    out.print(LearnerStackTrace.trace(t));
  }

  /**
   * {@code receiver.printStackTrace()} through an interface of the learner's: a Throwable prints the learner's
   * frames only; any other class runs its own method, as the call would.
   */
  public static void printStackTrace(Object receiver) {
    if (receiver instanceof Throwable) printStackTrace((Throwable) receiver);
    else callOwn(receiver, new Class<?>[0]);
  }

  /** {@code receiver.printStackTrace(out)} through an interface of the learner's, likewise. */
  public static void printStackTrace(Object receiver, PrintStream out) {
    if (receiver instanceof Throwable) printStackTrace((Throwable) receiver, out);
    else callOwn(receiver, new Class<?>[] {PrintStream.class}, out);
  }

  /**
   * The receiver's public printStackTrace method, which implements the interface's: the same method the interface
   * call would run. Accessible because the learner's classes may be package-private.
   */
  private static void callOwn(Object receiver, Class<?>[] parameters, Object... arguments) {
    Method method;
    try {
      method = receiver.getClass().getMethod("printStackTrace", parameters);
      method.setAccessible(true);
    } catch (NoSuchMethodException e) {
      throw new AbstractMethodError(receiver.getClass().getName() + ".printStackTrace");
    }
    try {
      method.invoke(receiver, arguments);
    } catch (InvocationTargetException e) {
      throw Budget.<RuntimeException>rethrow(e.getCause());
    } catch (IllegalAccessException e) {
      throw new IllegalAccessError(e.getMessage());
    }
  }

  /** Throws the learner's own exception unwrapped, checked or not, as the direct call would have. */
  @SuppressWarnings("unchecked")
  private static <T extends Throwable> T rethrow(Throwable t) throws T {
    throw (T) t;
  }

  /** What {@code t.getStackTrace()} returned, reduced to the learner's frames, named as {@code java} names them. */
  public static StackTraceElement[] learnerFrames(StackTraceElement[] trace) {
    return trace == null ? null : LearnerStackTrace.learnerElements(trace);
  }

  /** The same for {@code receiver.getStackTrace()} through an interface: reduced only if it is a Throwable's. */
  public static StackTraceElement[] learnerFrames(Object receiver, StackTraceElement[] trace) {
    return receiver instanceof Throwable ? learnerFrames(trace) : trace;
  }

  // Randomness, drawn from the run's own generator rather than the JVM-wide ones (see RunRandom).

  /** {@code Math.random()} and {@code StrictMath.random()}. */
  public static double random() {
    return runThread().random().nextDouble();
  }

  /** The seed of a learner's {@code new Random()}, or of its subclass's {@code super()}. */
  public static long randomSeed() {
    return RunRandom.seed();
  }

  /** {@code ThreadLocalRandom.current()}: the class is read as {@code Random}, and this is the run's. */
  public static Random threadLocalRandom() {
    return runThread().random();
  }

  /** {@code Collections.shuffle(list)}. */
  public static void shuffle(List<?> list) {
    Collections.shuffle(list, runThread().random());
  }

  // Regular expressions, matched against a view of the input that ticks as the engine reads it.

  public static boolean regexMatches(String input, String regex) {
    return Pattern.compile(regex).matcher(new TickingChars(input)).matches();
  }

  public static String regexReplaceAll(String input, String regex, String replacement) {
    return Pattern.compile(regex).matcher(new TickingChars(input)).replaceAll(replacement);
  }

  public static String regexReplaceFirst(String input, String regex, String replacement) {
    return Pattern.compile(regex).matcher(new TickingChars(input)).replaceFirst(replacement);
  }

  public static String[] regexSplit(String input, String regex) {
    return regexSplit(input, regex, 0);
  }

  public static String[] regexSplit(String input, String regex, int limit) {
    return Pattern.compile(regex).split(new TickingChars(input), limit);
  }

  public static Matcher regexMatcher(Pattern pattern, CharSequence input) {
    return pattern.matcher(new TickingChars(input));
  }

  public static boolean regexMatches(String regex, CharSequence input) {
    return Pattern.compile(regex).matcher(new TickingChars(input)).matches();
  }

  public static String[] regexSplit(Pattern pattern, CharSequence input) {
    return pattern.split(new TickingChars(input));
  }

  public static String[] regexSplit(Pattern pattern, CharSequence input, int limit) {
    return pattern.split(new TickingChars(input), limit);
  }

  public static Matcher regexReset(Matcher matcher, CharSequence input) {
    return matcher.reset(new TickingChars(input));
  }

  /** A character sequence that spends one tick per 16 characters read. */
  private static final class TickingChars implements CharSequence {
    private final CharSequence text;
    private int reads;

    TickingChars(CharSequence text) {
      if (text == null) throw new NullPointerException("the input of a regular expression is null");
      this.text = text;
    }

    @Override
    public char charAt(int index) {
      if ((++reads & 15) == 0) tick();
      return text.charAt(index);
    }

    @Override
    public int length() {
      return text.length();
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      return text.subSequence(start, end).toString();
    }

    @Override
    public String toString() {
      return text.toString();
    }
  }

  private static RunBudget budget() {
    return runThread().budget();
  }

  private static RunThread runThread() {
    Thread t = Thread.currentThread();
    if (t instanceof RunThread) return (RunThread) t;
    throw new BudgetExceeded(Outcome.INTERNAL_ERROR, "sandboxed code ran outside its run thread: " + t.getName());
  }
}
