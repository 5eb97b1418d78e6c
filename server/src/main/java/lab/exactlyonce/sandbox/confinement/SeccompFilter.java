package lab.exactlyonce.sandbox.confinement;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A seccomp program in classic BPF, built here so that no native library is needed: {@code bwrap --seccomp FD}
 * loads it into the worker. Default allow; a syscall of another architecture (or the x32 ABI) kills the process,
 * since its numbers would bypass the table; calls that only serve to escape or to spy on the host fail with EPERM;
 * {@code clone3} fails with ENOSYS (its flags sit in memory, out of BPF's reach, and glibc falls back to
 * {@code clone}); {@code clone} with a new user, network or mount namespace fails with EPERM; {@code socket} and
 * {@code socketpair} of any family but those {@link Sockets} allows fail with EACCES.
 */
final class SeccompFilter {
  static final int RET_ALLOW = 0x7fff_0000;
  static final int RET_ERRNO = 0x0005_0000;
  static final int RET_KILL_PROCESS = 0x8000_0000;
  static final int EPERM = 1;
  static final int EACCES = 13;
  static final int ENOSYS = 38;
  static final int AF_UNIX = 1;
  static final int AF_INET = 2;
  static final int AF_INET6 = 10;
  static final int CLONE_NEWNS = 0x0002_0000;
  static final int CLONE_NEWUSER = 0x1000_0000;
  static final int CLONE_NEWNET = 0x4000_0000;
  static final int X32_SYSCALL_BIT = 0x4000_0000;

  // classic BPF opcodes (linux/bpf_common.h)
  static final short LD_W_ABS = 0x20;
  static final short JEQ_K = 0x15;
  static final short JGE_K = 0x35;
  static final short JSET_K = 0x45;
  static final short RET_K = 0x06;

  // offsets into struct seccomp_data
  static final int OFFSET_NR = 0;
  static final int OFFSET_ARCH = 4;
  /** The low 32 bits of args[0] (little-endian). */
  static final int OFFSET_ARG0 = 16;

  /** Refused with EPERM wherever the architecture has them. */
  static final List<String> DENIED = List.of("ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
      "unshare", "setns", "mount", "umount2", "fsopen", "fsconfig", "fsmount", "fspick", "move_mount", "open_tree",
      "mount_setattr", "pivot_root", "chroot", "open_by_handle_at", "name_to_handle_at", "bpf", "perf_event_open",
      "userfaultfd", "add_key", "request_key", "keyctl", "io_uring_setup", "io_uring_enter", "io_uring_register",
      "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module", "create_module", "reboot",
      "swapon", "swapoff", "acct", "quotactl", "quotactl_fd", "syslog", "clock_settime", "clock_adjtime",
      "settimeofday", "adjtimex", "personality", "iopl", "ioperm", "lookup_dcookie", "vhangup");

  /** The socket families a filtered process may open. */
  enum Sockets {
    /** Local sockets only: a worker has no network, even where no namespace took it away. */
    LOCAL(List.of(AF_UNIX)),
    /**
     * Internet sockets too, for the engine lab's broker and cluster, which talk over loopback: there the network
     * namespace, with nothing but its own loopback, is what keeps them off the host's network.
     */
    INTERNET(List.of(AF_UNIX, AF_INET, AF_INET6));

    private final List<Integer> families;

    Sockets(List<Integer> families) {
      this.families = families;
    }

    List<Integer> families() {
      return families;
    }
  }

  /** One instruction: {@code struct sock_filter}. */
  record Instruction(short code, int jt, int jf, int k) {
    Instruction {
      if (jt < 0 || jt > 255 || jf < 0 || jf > 255) throw new IllegalArgumentException("jump out of range");
    }
  }

  private final List<Instruction> program;

  private SeccompFilter(List<Instruction> program) {
    this.program = List.copyOf(program);
  }

  /** The workers' filter for a JVM's {@code os.arch}, or empty where there is no syscall table here. */
  static Optional<SeccompFilter> forArch(String osArch) {
    return forArch(osArch, Sockets.LOCAL);
  }

  /** The filter for a JVM's {@code os.arch} that lets {@code sockets} through, or empty as above. */
  static Optional<SeccompFilter> forArch(String osArch, Sockets sockets) {
    return Arch.of(osArch).map(arch -> build(arch, sockets));
  }

  List<Instruction> program() {
    return program;
  }

  /** The program as the kernel reads it: 8 bytes per instruction in native (little-endian) order. */
  byte[] bytes() {
    ByteBuffer out = ByteBuffer.allocate(program.size() * 8).order(ByteOrder.LITTLE_ENDIAN);
    for (Instruction i : program) {
      out.putShort(i.code()).put((byte) i.jt()).put((byte) i.jf()).putInt(i.k());
    }
    return out.array();
  }

  void writeTo(Path file) throws IOException {
    Files.write(file, bytes());
  }

  private static SeccompFilter build(Arch arch, Sockets sockets) {
    var p = new ArrayList<Instruction>();
    p.add(load(OFFSET_ARCH));
    p.add(new Instruction(JEQ_K, 1, 0, arch.auditArch()));
    p.add(ret(RET_KILL_PROCESS));
    p.add(load(OFFSET_NR));
    if (arch.hasX32()) {
      p.add(new Instruction(JGE_K, 0, 1, X32_SYSCALL_BIT));
      p.add(ret(RET_KILL_PROCESS));
    }
    for (String name : DENIED) {
      Integer nr = arch.numbers().get(name);
      if (nr == null) continue;
      p.add(new Instruction(JEQ_K, 0, 1, nr));
      p.add(ret(RET_ERRNO | EPERM));
    }
    p.add(new Instruction(JEQ_K, 0, 1, arch.number("clone3")));
    p.add(ret(RET_ERRNO | ENOSYS));
    List<Integer> families = sockets.families();
    int n = families.size();
    for (String name : List.of("socket", "socketpair")) {
      p.add(new Instruction(JEQ_K, 0, n + 3, arch.number(name)));
      p.add(load(OFFSET_ARG0));
      // each allowed family jumps over the ones after it to the allow; the last one falls through to the refusal
      for (int i = 0; i < n; i++) p.add(new Instruction(JEQ_K, n - 1 - i, i == n - 1 ? 1 : 0, families.get(i)));
      p.add(ret(RET_ALLOW));
      p.add(ret(RET_ERRNO | EACCES));
    }
    p.add(new Instruction(JEQ_K, 0, 4, arch.number("clone")));
    p.add(load(OFFSET_ARG0));
    p.add(new Instruction(JSET_K, 0, 1, CLONE_NEWUSER | CLONE_NEWNET | CLONE_NEWNS));
    p.add(ret(RET_ERRNO | EPERM));
    p.add(ret(RET_ALLOW));
    p.add(ret(RET_ALLOW));
    return new SeccompFilter(p);
  }

  private static Instruction load(int offset) {
    return new Instruction(LD_W_ABS, 0, 0, offset);
  }

  private static Instruction ret(int value) {
    return new Instruction(RET_K, 0, 0, value);
  }

  /** An architecture this filter knows the syscall numbers of (from the kernel's unistd headers). */
  enum Arch {
    X86_64(0xC000_003E, true, Map.ofEntries(
        Map.entry("ptrace", 101), Map.entry("process_vm_readv", 310), Map.entry("process_vm_writev", 311),
        Map.entry("kcmp", 312), Map.entry("pidfd_getfd", 438), Map.entry("unshare", 272), Map.entry("setns", 308),
        Map.entry("mount", 165), Map.entry("umount2", 166), Map.entry("fsopen", 430), Map.entry("fsconfig", 431),
        Map.entry("fsmount", 432), Map.entry("fspick", 433), Map.entry("move_mount", 429),
        Map.entry("open_tree", 428), Map.entry("mount_setattr", 442), Map.entry("pivot_root", 155),
        Map.entry("chroot", 161), Map.entry("open_by_handle_at", 304), Map.entry("name_to_handle_at", 303),
        Map.entry("bpf", 321), Map.entry("perf_event_open", 298), Map.entry("userfaultfd", 323),
        Map.entry("add_key", 248), Map.entry("request_key", 249), Map.entry("keyctl", 250),
        Map.entry("io_uring_setup", 425), Map.entry("io_uring_enter", 426), Map.entry("io_uring_register", 427),
        Map.entry("kexec_load", 246), Map.entry("kexec_file_load", 320), Map.entry("init_module", 175),
        Map.entry("finit_module", 313), Map.entry("delete_module", 176), Map.entry("create_module", 174),
        Map.entry("reboot", 169), Map.entry("swapon", 167), Map.entry("swapoff", 168), Map.entry("acct", 163),
        Map.entry("quotactl", 179), Map.entry("quotactl_fd", 443), Map.entry("syslog", 103),
        Map.entry("clock_settime", 227), Map.entry("clock_adjtime", 305), Map.entry("settimeofday", 164),
        Map.entry("adjtimex", 159), Map.entry("personality", 135), Map.entry("iopl", 172),
        Map.entry("ioperm", 173), Map.entry("lookup_dcookie", 212), Map.entry("vhangup", 153),
        Map.entry("clone", 56), Map.entry("clone3", 435), Map.entry("socket", 41), Map.entry("socketpair", 53),
        Map.entry("seccomp", 317))),
    AARCH64(0xC000_00B7, false, Map.ofEntries(
        Map.entry("ptrace", 117), Map.entry("process_vm_readv", 270), Map.entry("process_vm_writev", 271),
        Map.entry("kcmp", 272), Map.entry("pidfd_getfd", 438), Map.entry("unshare", 97), Map.entry("setns", 268),
        Map.entry("mount", 40), Map.entry("umount2", 39), Map.entry("fsopen", 430), Map.entry("fsconfig", 431),
        Map.entry("fsmount", 432), Map.entry("fspick", 433), Map.entry("move_mount", 429),
        Map.entry("open_tree", 428), Map.entry("mount_setattr", 442), Map.entry("pivot_root", 41),
        Map.entry("chroot", 51), Map.entry("open_by_handle_at", 265), Map.entry("name_to_handle_at", 264),
        Map.entry("bpf", 280), Map.entry("perf_event_open", 241), Map.entry("userfaultfd", 282),
        Map.entry("add_key", 217), Map.entry("request_key", 218), Map.entry("keyctl", 219),
        Map.entry("io_uring_setup", 425), Map.entry("io_uring_enter", 426), Map.entry("io_uring_register", 427),
        Map.entry("kexec_load", 104), Map.entry("kexec_file_load", 294), Map.entry("init_module", 105),
        Map.entry("finit_module", 273), Map.entry("delete_module", 106), Map.entry("reboot", 142),
        Map.entry("swapon", 224), Map.entry("swapoff", 225), Map.entry("acct", 89), Map.entry("quotactl", 60),
        Map.entry("quotactl_fd", 443), Map.entry("syslog", 116), Map.entry("clock_settime", 112),
        Map.entry("clock_adjtime", 266), Map.entry("settimeofday", 170), Map.entry("adjtimex", 171),
        Map.entry("personality", 92), Map.entry("lookup_dcookie", 18), Map.entry("vhangup", 58),
        Map.entry("clone", 220), Map.entry("clone3", 435), Map.entry("socket", 198), Map.entry("socketpair", 199),
        Map.entry("seccomp", 277)));

    private final int auditArch;
    private final boolean hasX32;
    private final Map<String, Integer> numbers;

    Arch(int auditArch, boolean hasX32, Map<String, Integer> numbers) {
      this.auditArch = auditArch;
      this.hasX32 = hasX32;
      this.numbers = numbers;
    }

    static Optional<Arch> of(String osArch) {
      return switch (osArch) {
        case "amd64", "x86_64" -> Optional.of(X86_64);
        case "aarch64", "arm64" -> Optional.of(AARCH64);
        default -> Optional.empty();
      };
    }

    int auditArch() {
      return auditArch;
    }

    boolean hasX32() {
      return hasX32;
    }

    Map<String, Integer> numbers() {
      return numbers;
    }

    int number(String name) {
      Integer nr = numbers.get(name);
      if (nr == null) throw new IllegalStateException(this + " has no syscall " + name);
      return nr;
    }
  }
}
