package lab.exactlyonce.sandbox.engine;

import java.lang.reflect.Array;

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
    return multi(new int[] {d1, d2}, descriptor);
  }

  public static Object multiArray(int d1, int d2, int d3, String descriptor) {
    return multi(new int[] {d1, d2, d3}, descriptor);
  }

  public static Object multiArray(int d1, int d2, int d3, int d4, String descriptor) {
    return multi(new int[] {d1, d2, d3, d4}, descriptor);
  }

  private static Object multi(int[] dims, String descriptor) {
    RunThread thread = runThread();
    Class<?> component;
    try {
      component = Class.forName(descriptor.replace('/', '.'), false, thread.loader());
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

  private static RunBudget budget() {
    return runThread().budget();
  }

  private static RunThread runThread() {
    Thread t = Thread.currentThread();
    if (t instanceof RunThread) return (RunThread) t;
    throw new BudgetExceeded(Outcome.INTERNAL_ERROR, "sandboxed code ran outside its run thread: " + t.getName());
  }
}
