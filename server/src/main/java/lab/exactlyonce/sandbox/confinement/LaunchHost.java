package lab.exactlyonce.sandbox.confinement;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What every launcher on this host shares: the tools, the JDK (and Debian's {@code /etc/java-N-openjdk}, which its
 * {@code conf} files link into), the worker's class path and the directory of JNA's native part staged beside it,
 * the seccomp program file (absent on an architecture without a syscall table here), and the uids workers switch to
 * (present only when the server runs as root), whether bubblewrap may be used, whether the server is root, and a
 * user database to mount over {@code /etc/passwd} in a launcher's own mount namespace (the engines', whose PostgreSQL
 * refuses to run as a uid without a name).
 */
record LaunchHost(HostTools tools, Path javaHome, Optional<Path> javaConfDir, List<ClassPathStage.Entry> classPath,
                  Optional<Path> jnaLibraryDir, Optional<Path> seccompFile, Optional<WorkerUids> workerUids,
                  boolean bubblewrap, boolean root, Optional<Path> passwd) {
  LaunchHost {
    classPath = List.copyOf(classPath);
  }
}
