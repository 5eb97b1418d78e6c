package lab.exactlyonce.sandbox.engine;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** Standard output and standard error of one run, kept apart, sharing one byte limit. */
final class RunOutput {
  private final int limit;
  private final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
  private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
  private final RunBudget budget;
  private int total;

  RunOutput(int limit, RunBudget budget) {
    this.limit = limit;
    this.budget = budget;
  }

  OutputStream stdout() {
    return new Sink(stdout);
  }

  OutputStream stderr() {
    return new Sink(stderr);
  }

  synchronized String stdoutText() {
    return stdout.toString(StandardCharsets.UTF_8);
  }

  synchronized String stderrText() {
    return stderr.toString(StandardCharsets.UTF_8);
  }

  private synchronized void write(ByteArrayOutputStream to, byte[] b, int off, int len) {
    int room = limit - total;
    if (len <= room) {
      to.write(b, off, len);
      total += len;
      return;
    }
    if (room > 0) {
      to.write(b, off, room);
      total += room;
    }
    budget.outputExceeded(); // throws
  }

  private final class Sink extends OutputStream {
    private final ByteArrayOutputStream to;

    Sink(ByteArrayOutputStream to) {
      this.to = to;
    }

    @Override
    public void write(int b) {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
      RunOutput.this.write(to, b, off, len);
    }
  }
}
