package lab.exactlyonce.sandbox.engine;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Locale;

/**
 * Replaces {@code System.out} and {@code System.err} once per JVM with streams that hand every call to the
 * current {@link RunThread}'s own stream, or to the previous stream on any other thread. Each run gets fresh
 * streams, so a run cut off mid-write leaves nothing behind for the next one, and concurrent runs never see each
 * other's output.
 */
final class OutputRouting {
  private OutputRouting() {
  }

  /** Installs the routers (idempotent); other threads keep writing to {@code outFallback}/{@code errFallback}. */
  static synchronized void install(PrintStream outFallback, PrintStream errFallback) {
    if (!(System.out instanceof Router)) System.setOut(new Router(outFallback, false));
    if (!(System.err instanceof Router)) System.setErr(new Router(errFallback, true));
  }

  /** Installs the routers keeping the current streams for every other thread. */
  static void install() {
    install(System.out, System.err);
  }

  static final class Router extends PrintStream {
    private final PrintStream fallback;
    private final boolean err;

    Router(PrintStream fallback, boolean err) {
      super(fallback, true);
      this.fallback = fallback;
      this.err = err;
    }

    private PrintStream target() {
      Thread t = Thread.currentThread();
      if (t instanceof RunThread) return err ? ((RunThread) t).err() : ((RunThread) t).out();
      return fallback;
    }

    @Override public void flush() { target().flush(); }
    @Override public void close() { /* System.out stays open */ }
    @Override public boolean checkError() { return target().checkError(); }
    @Override public void write(int b) { target().write(b); }
    @Override public void write(byte[] buf, int off, int len) { target().write(buf, off, len); }
    @Override public void write(byte[] buf) throws IOException { target().write(buf); }
    @Override public void writeBytes(byte[] buf) { target().writeBytes(buf); }
    @Override public void print(boolean b) { target().print(b); }
    @Override public void print(char c) { target().print(c); }
    @Override public void print(int i) { target().print(i); }
    @Override public void print(long l) { target().print(l); }
    @Override public void print(float f) { target().print(f); }
    @Override public void print(double d) { target().print(d); }
    @Override public void print(char[] s) { target().print(s); }
    @Override public void print(String s) { target().print(s); }
    @Override public void print(Object obj) { target().print(obj); }
    @Override public void println() { target().println(); }
    @Override public void println(boolean x) { target().println(x); }
    @Override public void println(char x) { target().println(x); }
    @Override public void println(int x) { target().println(x); }
    @Override public void println(long x) { target().println(x); }
    @Override public void println(float x) { target().println(x); }
    @Override public void println(double x) { target().println(x); }
    @Override public void println(char[] x) { target().println(x); }
    @Override public void println(String x) { target().println(x); }
    @Override public void println(Object x) { target().println(x); }
    @Override public PrintStream printf(String format, Object... args) { return target().printf(format, args); }
    @Override public PrintStream printf(Locale l, String format, Object... args) { return target().printf(l, format, args); }
    @Override public PrintStream format(String format, Object... args) { return target().format(format, args); }
    @Override public PrintStream format(Locale l, String format, Object... args) { return target().format(l, format, args); }
    @Override public PrintStream append(CharSequence csq) { return target().append(csq); }
    @Override public PrintStream append(CharSequence csq, int start, int end) { return target().append(csq, start, end); }
    @Override public PrintStream append(char c) { return target().append(c); }
  }
}
