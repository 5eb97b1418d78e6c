package lab.exactlyonce.sandbox.confinement;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

import java.lang.ref.Reference;

/**
 * What a confined JVM does to itself before it runs anything of a learner's where no bubblewrap did it for it: no new
 * privileges, not dumpable (so no process of the same uid, such as one left behind where the host allows no pid
 * namespace, can read its memory through {@code /proc/<pid>/mem} or trace it), and {@link SeccompFilter}'s program
 * installed on every thread the JVM has started so far ({@code SECCOMP_FILTER_FLAG_TSYNC}: finalizer, cleaner,
 * compiler threads) and inherited by every later one. The launcher asks for it with {@value #PROPERTY}; a JVM that
 * was asked and cannot do it stops at once, so no worker ever runs less confined than the self-check found.
 *
 * <p>Under bubblewrap, not dumpable would add nothing: the worker's user namespace belongs to its uid, which holds
 * every capability there, ptrace's included; there its own pid namespace is what hides it.
 */
public final class SelfConfinement {
  /** Set by the launcher to {@value #SECCOMP} (a worker) or {@value #SECCOMP_INTERNET} (the engine lab). */
  public static final String PROPERTY = "eolab.confine";
  static final String SECCOMP = "seccomp";
  /** The filter with internet sockets allowed: for a JVM whose network namespace holds nothing but its loopback. */
  static final String SECCOMP_INTERNET = "seccomp-internet";

  private static final int PR_SET_DUMPABLE = 4;
  private static final int PR_SET_NO_NEW_PRIVS = 38;
  private static final int SECCOMP_SET_MODE_FILTER = 1;
  private static final int SECCOMP_FILTER_FLAG_TSYNC = 1;
  /** {@code struct sock_fprog} on a 64-bit kernel: a 16-bit length, padding, then the pointer. */
  private static final int FPROG_SIZE = 16;
  private static final int FPROG_FILTER_OFFSET = 8;

  /** The two C library calls, through JNA (its native part comes from the staged class path, never unpacked). */
  interface CLibrary extends Library {
    int prctl(int option, long arg2, long arg3, long arg4, long arg5);

    long syscall(long number, Object... args);
  }

  private SelfConfinement() {
  }

  /** Confines this JVM if its launcher asked for it; ends the JVM (exit code 3) if it was asked and cannot. */
  public static void applyIfAsked() {
    String asked = System.getProperty(PROPERTY);
    if (asked == null) return;
    try {
      apply(switch (asked) {
        case SECCOMP -> SeccompFilter.Sockets.LOCAL;
        case SECCOMP_INTERNET -> SeccompFilter.Sockets.INTERNET;
        default -> throw new IllegalStateException("unknown -D" + PROPERTY + " value: " + asked);
      });
    } catch (RuntimeException | LinkageError e) {
      System.err.println("cannot confine this JVM: " + e);
      System.err.flush();
      Runtime.getRuntime().halt(3);
    }
  }

  static void apply(SeccompFilter.Sockets sockets) {
    CLibrary libc = Native.load("c", CLibrary.class);
    check("prctl(PR_SET_NO_NEW_PRIVS)", libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0));
    check("prctl(PR_SET_DUMPABLE, 0)", libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0));
    var arch = SeccompFilter.Arch.of(System.getProperty("os.arch"))
        .orElseThrow(() -> new IllegalStateException("no seccomp program for " + System.getProperty("os.arch")));
    byte[] program = SeccompFilter.forArch(System.getProperty("os.arch"), sockets).orElseThrow().bytes();
    Memory filter = new Memory(program.length);
    filter.write(0, program, 0, program.length);
    Memory fprog = new Memory(FPROG_SIZE);
    fprog.clear();
    fprog.setShort(0, (short) (program.length / 8));
    fprog.setPointer(FPROG_FILTER_OFFSET, filter);
    long result = libc.syscall(arch.number("seccomp"), SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC,
        (Pointer) fprog);
    Reference.reachabilityFence(filter);   // the kernel read it through fprog, which Java cannot see
    // with TSYNC a positive result is the id of a thread that could not take the filter
    if (result != 0) {
      throw new IllegalStateException("seccomp(SET_MODE_FILTER, TSYNC) returned " + result
          + (result < 0 ? " (errno " + Native.getLastError() + ")" : " (thread " + result + " not synchronised)"));
    }
  }

  private static void check(String call, int result) {
    if (result != 0) throw new IllegalStateException(call + " failed (errno " + Native.getLastError() + ")");
  }
}
