package lab.exactlyonce.sandbox.confinement;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** The generated program, evaluated by a small classic-BPF interpreter for sample syscalls. */
class SeccompFilterTest {
  static final SeccompFilter.Arch X86 = SeccompFilter.Arch.X86_64;
  static final int ALLOW = SeccompFilter.RET_ALLOW;
  static final int KILL = SeccompFilter.RET_KILL_PROCESS;
  static final int EPERM = SeccompFilter.RET_ERRNO | 1;
  static final int EACCES = SeccompFilter.RET_ERRNO | 13;
  static final int ENOSYS = SeccompFilter.RET_ERRNO | 38;
  static final int AF_INET = 2;
  static final int AF_INET6 = 10;
  static final int AF_NETLINK = 16;
  static final int CLONE_THREAD_FLAGS = 0x003d0f00;   // what glibc's pthread_create passes

  static Stream<Arguments> x86_64() {
    return Stream.of(
        arguments("read", 0, 0L, ALLOW),
        arguments("futex", 202, 0L, ALLOW),
        arguments("mmap", 9, 0L, ALLOW),
        arguments("ptrace", 101, 0L, EPERM),
        arguments("process_vm_readv", 310, 0L, EPERM),
        arguments("unshare", 272, 0L, EPERM),
        arguments("setns", 308, 0L, EPERM),
        arguments("mount", 165, 0L, EPERM),
        arguments("pivot_root", 155, 0L, EPERM),
        arguments("chroot", 161, 0L, EPERM),
        arguments("bpf", 321, 0L, EPERM),
        arguments("perf_event_open", 298, 0L, EPERM),
        arguments("keyctl", 250, 0L, EPERM),
        arguments("io_uring_setup", 425, 0L, EPERM),
        arguments("init_module", 175, 0L, EPERM),
        arguments("reboot", 169, 0L, EPERM),
        arguments("clock_settime", 227, 0L, EPERM),
        arguments("personality", 135, 0L, EPERM),
        arguments("clone3", 435, 0L, ENOSYS),
        arguments("clone for a thread", 56, (long) CLONE_THREAD_FLAGS, ALLOW),
        arguments("clone with CLONE_NEWUSER", 56, (long) SeccompFilter.CLONE_NEWUSER, EPERM),
        arguments("clone with CLONE_NEWNET", 56, (long) (SeccompFilter.CLONE_NEWNET | 17), EPERM),
        arguments("clone with CLONE_NEWNS", 56, (long) SeccompFilter.CLONE_NEWNS, EPERM),
        arguments("socket AF_UNIX", 41, 1L, ALLOW),
        arguments("socket AF_INET", 41, (long) AF_INET, EACCES),
        arguments("socket AF_INET6", 41, (long) AF_INET6, EACCES),
        arguments("socket AF_NETLINK", 41, (long) AF_NETLINK, EACCES),
        arguments("socketpair AF_UNIX", 53, 1L, ALLOW),
        arguments("socketpair AF_INET", 53, (long) AF_INET, EACCES),
        arguments("an x32 syscall", 0x4000_0000 | 41, (long) AF_INET, KILL));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("x86_64")
  void x86_64_syscalls_get_their_answer(String what, int nr, long arg0, int expected) {
    SeccompFilter filter = SeccompFilter.forArch("amd64").orElseThrow();
    assertEquals(expected, run(filter.bytes(), nr, X86.auditArch(), arg0), what);
  }

  /** The engine lab's variant: its JVM talks over the loopback of its own network namespace. */
  static Stream<Arguments> internet() {
    return Stream.of(arguments("socket AF_UNIX", 41, 1L, ALLOW),
        arguments("socket AF_INET", 41, (long) AF_INET, ALLOW),
        arguments("socket AF_INET6", 41, (long) AF_INET6, ALLOW),
        arguments("socket AF_NETLINK", 41, (long) AF_NETLINK, EACCES),
        arguments("socket AF_PACKET", 41, 17L, EACCES),
        arguments("socketpair AF_INET", 53, (long) AF_INET, ALLOW),
        arguments("ptrace", 101, 0L, EPERM),
        arguments("clone NEWNET", 56, (long) SeccompFilter.CLONE_NEWNET, EPERM),
        arguments("clone3", 435, 0L, ENOSYS));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("internet")
  void the_internet_variant_lets_internet_sockets_through_and_refuses_the_rest_as_ever(String what, int nr, long arg0,
                                                                                     int expected) {
    SeccompFilter filter = SeccompFilter.forArch("amd64", SeccompFilter.Sockets.INTERNET).orElseThrow();
    assertEquals(expected, run(filter.bytes(), nr, X86.auditArch(), arg0), what);
  }

  @Test
  void another_architecture_is_killed() {
    SeccompFilter filter = SeccompFilter.forArch("amd64").orElseThrow();
    int i386 = 0x4000_0003;
    assertEquals(KILL, run(filter.bytes(), 0, i386, 0));
  }

  @Test
  void aarch64_has_its_own_numbers_and_no_x32_check() {
    SeccompFilter filter = SeccompFilter.forArch("aarch64").orElseThrow();
    int arch = SeccompFilter.Arch.AARCH64.auditArch();
    assertEquals(EPERM, run(filter.bytes(), 117, arch, 0), "ptrace");
    assertEquals(EACCES, run(filter.bytes(), 198, arch, AF_INET), "socket AF_INET");
    assertEquals(ALLOW, run(filter.bytes(), 198, arch, 1), "socket AF_UNIX");
    assertEquals(ENOSYS, run(filter.bytes(), 435, arch, 0), "clone3");
    assertEquals(EPERM, run(filter.bytes(), 220, arch, SeccompFilter.CLONE_NEWUSER), "clone NEWUSER");
    assertEquals(ALLOW, run(filter.bytes(), 63, arch, 0), "read");
    assertEquals(KILL, run(filter.bytes(), 63, X86.auditArch(), 0), "an x86_64 call under the aarch64 filter");
  }

  @Test
  void an_unknown_architecture_has_no_filter() {
    assertTrue(SeccompFilter.forArch("riscv64").isEmpty());
  }

  @Test
  void every_denied_call_is_in_the_program_and_it_stays_small() {
    SeccompFilter filter = SeccompFilter.forArch("amd64").orElseThrow();
    for (String name : SeccompFilter.DENIED) {
      Integer nr = X86.numbers().get(name);
      if (nr != null) assertEquals(EPERM, run(filter.bytes(), nr, X86.auditArch(), 0), name);
    }
    assertTrue(filter.program().size() < 160, filter.program().size() + " instructions");
    assertEquals(filter.program().size() * 8, filter.bytes().length);
  }

  /** Runs a classic BPF seccomp program on one {@code struct seccomp_data}; only the opcodes the filter uses. */
  static int run(byte[] program, int nr, int arch, long arg0) {
    ByteBuffer data = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
    data.putInt(0, nr).putInt(4, arch).putLong(16, arg0);
    ByteBuffer code = ByteBuffer.wrap(program).order(ByteOrder.LITTLE_ENDIAN);
    int count = program.length / 8;
    int a = 0;
    int pc = 0;
    for (int steps = 0; steps < 10_000; steps++) {
      if (pc >= count) throw new AssertionError("ran off the end of the program");
      int op = code.getShort(pc * 8) & 0xffff;
      int jt = code.get(pc * 8 + 2) & 0xff;
      int jf = code.get(pc * 8 + 3) & 0xff;
      int k = code.getInt(pc * 8 + 4);
      switch (op) {
        case 0x20 -> { a = data.getInt(k); pc++; }
        case 0x15 -> pc += 1 + (a == k ? jt : jf);
        case 0x35 -> pc += 1 + (Integer.compareUnsigned(a, k) >= 0 ? jt : jf);
        case 0x45 -> pc += 1 + ((a & k) != 0 ? jt : jf);
        case 0x06 -> { return k; }
        default -> throw new AssertionError("unexpected opcode " + Integer.toHexString(op) + " at " + pc);
      }
    }
    throw new AssertionError("no return within 10000 steps");
  }

  @Test
  void the_interpreter_itself_follows_jumps() {
    var p = List.of(new SeccompFilter.Instruction((short) 0x20, 0, 0, 0),
        new SeccompFilter.Instruction((short) 0x15, 1, 0, 7),
        new SeccompFilter.Instruction((short) 0x06, 0, 0, 1),
        new SeccompFilter.Instruction((short) 0x06, 0, 0, 2));
    ByteBuffer b = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
    p.forEach(i -> b.putShort(i.code()).put((byte) i.jt()).put((byte) i.jf()).putInt(i.k()));
    assertEquals(2, run(b.array(), 7, 0, 0));
    assertEquals(1, run(b.array(), 8, 0, 0));
  }
}
