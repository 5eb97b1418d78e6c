import java.util.*;

public class Main {
  static final class Resource implements AutoCloseable {
    private final String name;
    private final boolean failOnClose;

    Resource(String name, boolean failOnClose) {
      this.name = name;
      this.failOnClose = failOnClose;
      System.out.println("open " + name);
    }

    @Override
    public void close() {
      System.out.println("close " + name);
      if (failOnClose) throw new IllegalStateException("close failed: " + name);
    }
  }

  public static void main(String[] args) {
    try (Resource a = new Resource("a", true); Resource b = new Resource("b", true)) {
      throw new RuntimeException("body failed");
    } catch (RuntimeException e) {
      System.out.println("caught " + e.getMessage());
      for (Throwable s : e.getSuppressed()) System.out.println("  suppressed " + s.getMessage());
    }
    try (Resource c = new Resource("c", false)) {
      System.out.println("using c");
    }
    try (Resource d = new Resource("d", true)) {
      System.out.println("using d");
    } catch (IllegalStateException e) {
      System.out.println("caught " + e.getMessage() + " with " + e.getSuppressed().length + " suppressed");
    }
    try {
      Object o = "text";
      Integer i = (Integer) o;
    } catch (ClassCastException | ArithmeticException e) {
      System.out.println("multi-catch " + e.getClass().getSimpleName());
    } finally {
      System.out.println("finally once");
    }
    StackTraceElement[] frames = where();
    System.out.println(frames.length + " " + frames[0] + " " + frames[frames.length - 1]);
  }

  static StackTraceElement[] where() {
    return new Throwable().getStackTrace();
  }
}
