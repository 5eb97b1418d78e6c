package lab.exactlyonce.sandbox.confinement;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * One way to start a worker JVM under the operating system's confinement, and the paths the JVM sees from inside.
 * Every launcher starts its process with a cleared environment ({@link #environment()}): the server's secrets
 * never reach a worker, whatever else the host allows.
 */
public final class Launcher {
  /** Where bubblewrap mounts the class path entries inside the sandbox (not under /tmp, which is the worker's own). */
  static final String INSIDE_CLASS_PATH = "/eolab/classpath";
  /** Opens the seccomp program as fd 3 for {@code bwrap --seccomp 3} (a child gets only fds 0-2 from Java). */
  static final String FD3_SCRIPT = "exec 3<\"$0\" && exec \"$@\"";
  /** No core files: a crashing JVM would write its whole heap into the worker's directory. */
  static final String NO_CORE = "ulimit -c 0 && ";

  /**
   * Bubblewrap; util-linux's {@code unshare} with every namespace and a worker that confines itself
   * ({@link SelfConfinement}); {@code unshare} with a network namespace only; a plain child process.
   */
  enum Kind { BWRAP, UNSHARE_ALL, UNSHARE_NET, PLAIN }

  static final List<String> MULTIARCH_LIB_DIRS = List.of("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu");

  private final String name;
  private final ConfinementLevel target;
  private final Kind kind;
  private final boolean disableUserns;
  private final boolean freshProc;
  private final boolean seccomp;
  /**
   * The engine lab's variant: the network namespace gets its loopback up (the broker and the cluster talk over it) and
   * the filter lets internet sockets through, since the namespace alone is what keeps them off the host's network.
   */
  private final boolean loopback;
  private final LaunchHost host;

  Launcher(String name, ConfinementLevel target, Kind kind, boolean disableUserns, boolean freshProc,
           boolean seccomp, LaunchHost host) {
    this(name, target, kind, disableUserns, freshProc, seccomp, false, host);
  }

  Launcher(String name, ConfinementLevel target, Kind kind, boolean disableUserns, boolean freshProc,
           boolean seccomp, boolean loopback, LaunchHost host) {
    if (loopback && kind == Kind.BWRAP) throw new IllegalArgumentException("bubblewrap has no own-loopback variant");
    this.loopback = loopback;
    this.name = name;
    this.target = target;
    this.kind = kind;
    this.disableUserns = disableUserns;
    this.freshProc = freshProc;
    this.seccomp = seccomp;
    this.host = host;
  }

  /**
   * What it is, in words, for logs: such as {@code bwrap (all namespaces, seccomp, fresh /proc), a uid of its own
   * from 64000-64999}.
   */
  public String name() {
    return name + host.workerUids().map(uids -> uids.size() == 1 ? ", uid " + uids : ", a uid of its own from " + uids)
        .orElse("");
  }

  /** Whether it is bubblewrap (the variants differ in what the host refuses). */
  boolean bubblewrap() {
    return kind == Kind.BWRAP;
  }

  /** Whether the process gets the seccomp filter (loaded by bubblewrap or by the JVM itself). */
  boolean seccomp() {
    return seccomp;
  }

  /** The level this launcher is meant to reach. */
  ConfinementLevel target() {
    return target;
  }

  /** The environment of every worker: nothing of the server's. */
  public static Map<String, String> environment() {
    var env = new LinkedHashMap<String, String>();
    env.put("PATH", "/usr/bin:/bin");
    env.put("LANG", "C.UTF-8");
    return env;
  }

  /** A builder of {@code command} with {@link #environment()} only: the server's (its secrets) never reaches it. */
  public static ProcessBuilder processBuilder(List<String> command) {
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().clear();
    builder.environment().putAll(environment());
    return builder;
  }

  /** Kills a process a launcher started, at once, with its descendants: killing the tool alone leaves its child. */
  public static Process kill(Process process) {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    return process.destroyForcibly();
  }

  /** The JVM a launcher started: the java process among its descendants (the tools exec it or wait for it). */
  public static Optional<ProcessHandle> jvm(ProcessHandle launched) {
    return launched.descendants().filter(p -> p.info().command().map(c -> c.endsWith("/java")).orElse(false))
        .findFirst();
  }

  /**
   * The environment keys a worker may have, whatever the launcher: bubblewrap sets PWD after {@code --chdir}, and
   * LD_LIBRARY_PATH where it mounts no /proc.
   */
  static final Set<String> ALLOWED_ENV = Set.of("PATH", "LANG", "PWD", "LD_LIBRARY_PATH");

  /** The JVM executable (the same path inside and outside). */
  public String java() {
    return host.javaHome().resolve("bin").resolve("java").toString();
  }

  /** The worker's temporary directory as the worker sees it. */
  public String tmpInside(Path workerDir) {
    return kind == Kind.BWRAP ? "/tmp" : workerDir.toString();
  }

  /**
   * The JVM's command inside the confinement: {@link #java()}, {@code jvmFlags}, the cell's temp dir as the process
   * sees it, the staged class path, then {@code mainClass} and its {@code args}.
   */
  public List<String> javaCommand(Cell cell, List<String> jvmFlags, String mainClass, List<String> args) {
    var java = new ArrayList<String>(List.of(java()));
    java.addAll(jvmFlags);
    java.addAll(List.of("-Djava.io.tmpdir=" + tmpInside(cell.dir()), "-cp", classPath(), mainClass));
    java.addAll(args);
    return java;
  }

  /** The worker's {@code -cp} value as the worker sees it. */
  public String classPath() {
    return String.join(":", host.classPath().stream()
        .map(e -> kind == Kind.BWRAP ? INSIDE_CLASS_PATH + "/" + e.name() : e.outside().toString()).toList());
  }

  /**
   * Where one confined process lives: its directory (its temp dir, which only it may open) and, when the server runs
   * as root, the uid it runs as, which no other live process of this app has. {@link #close(Cell)} gives it back.
   */
  public record Cell(Path dir, OptionalInt uid) {}

  /** Takes a uid for a new process and makes {@code dir} its own: owned by that uid, closed to everyone else. */
  public Cell open(Path dir) throws IOException {
    OptionalInt uid = host.workerUids().map(uids -> OptionalInt.of(uids.take())).orElse(OptionalInt.empty());
    try {
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
      if (uid.isPresent()) {
        Files.setAttribute(dir, "unix:uid", uid.getAsInt());
        Files.setAttribute(dir, "unix:gid", uid.getAsInt());
      }
      return new Cell(dir, uid);
    } catch (IOException | RuntimeException e) {
      close(new Cell(dir, uid));
      throw e;
    }
  }

  /** Gives the cell's uid back once its process has ended (the directory is the caller's to remove). */
  public void close(Cell cell) {
    cell.uid().ifPresent(uid -> host.workerUids().ifPresent(uids -> uids.give(uid)));
  }

  /**
   * The full command: the confinement around {@code javaCommand}, which starts with {@link #java()}.
   *
   * @param cgroupProcs {@code cgroup.procs} files the first process moves itself into before anything else runs
   */
  public List<String> wrap(Cell cell, List<String> javaCommand, List<Path> cgroupProcs) {
    return wrap(cell, javaCommand, cgroupProcs, List.of());
  }

  /** As {@link #wrap(Cell, List, List)}, with more host files visible read-only inside (the probe's {@code unshare}). */
  List<String> wrap(Cell cell, List<String> javaCommand, List<Path> cgroupProcs, List<Path> extraReadOnly) {
    Path workerDir = cell.dir();
    var command = new ArrayList<String>();
    boolean fd3 = kind == Kind.BWRAP && seccomp;
    command.addAll(List.of(host.tools().shell().toString(), "-c", WorkerCgroups.joinScript(cgroupProcs) + NO_CORE
        + (fd3 ? FD3_SCRIPT : "exec \"$@\""), fd3 ? host.seccompFile().orElseThrow().toString() : "eolab-worker"));
    switch (kind) {
      case BWRAP -> {
        command.addAll(dropToUid(cell.uid()));
        command.addAll(bwrap(workerDir, extraReadOnly));
      }
      case UNSHARE_ALL -> {
        command.addAll(List.of(host.tools().unshare().toString(), "--mount", "--pid", "--fork", "--kill-child",
            "--mount-proc", "--propagation", "private", "--net", "--ipc", "--uts"));
        // an unprivileged server needs a user namespace for the others; its own uid stays its uid inside (root
        // there where the loopback must be brought up, which takes a capability that is dropped right after)
        if (!host.root()) command.add(loopback ? "--map-root-user" : "--map-current-user");
        command.addAll(loopbackUp());
        command.addAll(dropToUid(cell.uid()));
      }
      case UNSHARE_NET -> {
        command.add(host.tools().unshare().toString());
        command.add("--net");
        if (!host.root()) command.add("--map-root-user");   // an unprivileged server needs a user namespace for it
        command.addAll(loopbackUp());
        command.addAll(dropToUid(cell.uid()));
      }
      case PLAIN -> command.addAll(dropToUid(cell.uid()));
    }
    command.addAll(selfConfining(javaCommand));
    return command;
  }

  /**
   * Where the worker loads the filter itself (every launcher with a filter but bubblewrap, which loads it), the JVM
   * command with the flags that make it confine itself first and load JNA's staged native part; else unchanged.
   */
  private List<String> selfConfining(List<String> javaCommand) {
    if (kind == Kind.BWRAP || !seccomp) return javaCommand;
    String filter = loopback ? SelfConfinement.SECCOMP_INTERNET : SelfConfinement.SECCOMP;
    var flags = List.of("-D" + SelfConfinement.PROPERTY + "=" + filter,
        "-Djna.boot.library.path=" + host.jnaLibraryDir().orElseThrow(), "-Djna.nosys=true", "-Djna.noclasspath=true");
    var command = new ArrayList<String>(javaCommand.size() + flags.size());
    command.add(javaCommand.get(0));
    command.addAll(flags);
    command.addAll(javaCommand.subList(1, javaCommand.size()));
    return command;
  }

  /**
   * A new network namespace has its loopback down: brought up with iproute2's {@code ip} while the process still
   * holds the capability, before the uid and capabilities are dropped.
   */
  private List<String> loopbackUp() {
    if (!loopback) return List.of();
    return List.of(host.tools().shell().toString(), "-c",
        namedUser() + HostTools.find("ip") + " link set lo up && exec \"$@\"", "eolab-loopback");
  }

  /**
   * Where the launcher has a mount namespace of its own and the host cannot name the uid: the copy of the user
   * database that can, mounted over {@code /etc/passwd} for this namespace only.
   */
  private String namedUser() {
    if (kind != Kind.UNSHARE_ALL || host.passwd().isEmpty()) return "";
    String file = host.passwd().get().toString().replace("'", "'\\''");
    return HostTools.find("mount") + " --bind '" + file + "' /etc/passwd && ";
  }

  private List<String> dropToUid(OptionalInt uid) {
    if (uid.isEmpty() && loopback && kind != Kind.PLAIN && !host.root()) {
      // root of its own user namespace, which brought its loopback up: no capabilities left for the JVM
      return List.of(host.tools().setpriv().toString(), "--no-new-privs", "--inh-caps=-all", "--bounding-set=-all");
    }
    if (uid.isEmpty()) return List.of();
    String id = String.valueOf(uid.getAsInt());
    return List.of(host.tools().setpriv().toString(), "--reuid", id, "--regid", id, "--clear-groups",
        "--no-new-privs", "--inh-caps=-all", "--bounding-set=-all");
  }

  private List<String> bwrap(Path workerDir, List<Path> extraReadOnly) {
    var b = new ArrayList<String>(List.of(host.tools().bwrap().toString(), "--unshare-all", "--unshare-user"));
    if (disableUserns) b.add("--disable-userns");
    b.addAll(List.of("--die-with-parent", "--new-session"));
    // the shared libraries the JVM loads: the multiarch directory where there is one, else all of /usr/lib
    List<String> multiarch = MULTIARCH_LIB_DIRS.stream().filter(d -> Files.isDirectory(Path.of(d))).toList();
    for (String dir : multiarch.isEmpty() ? List.of("/usr/lib") : multiarch) b.addAll(List.of("--ro-bind", dir, dir));
    if (Files.isDirectory(Path.of("/usr/lib64"))) b.addAll(List.of("--ro-bind", "/usr/lib64", "/usr/lib64"));
    for (String dir : List.of("/lib", "/lib64")) {
      Path p = Path.of(dir);
      if (Files.isSymbolicLink(p)) {
        try {
          b.addAll(List.of("--symlink", Files.readSymbolicLink(p).toString(), dir));
        } catch (IOException e) {
          // unreadable link: leave it out
        }
      } else if (Files.isDirectory(p)) {
        b.addAll(List.of("--ro-bind", dir, dir));
      }
    }
    String javaHome = host.javaHome().toString();
    b.addAll(List.of("--ro-bind", javaHome, javaHome));
    host.javaConfDir().ifPresent(dir -> b.addAll(List.of("--ro-bind", dir.toString(), dir.toString())));
    for (var entry : host.classPath()) {
      b.addAll(List.of("--ro-bind", entry.outside().toString(), INSIDE_CLASS_PATH + "/" + entry.name()));
    }
    for (Path extra : extraReadOnly) b.addAll(List.of("--ro-bind", extra.toString(), extra.toString()));
    if (freshProc) b.addAll(List.of("--proc", "/proc"));
    b.addAll(List.of("--dev", "/dev", "--bind", workerDir.toString(), "/tmp", "--clearenv"));
    environment().forEach((k, v) -> b.addAll(List.of("--setenv", k, v)));
    // without /proc/self/exe the launcher cannot find libjli.so by itself
    if (!freshProc) b.addAll(List.of("--setenv", "LD_LIBRARY_PATH", javaHome + "/lib"));
    b.addAll(List.of("--chdir", "/tmp", "--cap-drop", "ALL"));
    if (seccomp) b.addAll(List.of("--seccomp", "3"));
    return b;
  }

  @Override
  public String toString() {
    return name();
  }
}
