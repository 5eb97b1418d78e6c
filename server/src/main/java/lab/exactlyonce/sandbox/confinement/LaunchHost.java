package lab.exactlyonce.sandbox.confinement;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What every launcher on this host shares: the tools, the JDK (and Debian's {@code /etc/java-N-openjdk}, which its
 * {@code conf} files link into), the worker's class path, the seccomp program file (absent on an architecture without
 * a syscall table here), and the uid workers switch to (present only when the server runs as root).
 */
record LaunchHost(HostTools tools, Path javaHome, Optional<Path> javaConfDir, List<ClassPathStage.Entry> classPath,
                  Optional<Path> seccompFile, OptionalInt workerUid, boolean root) {
  LaunchHost {
    classPath = List.copyOf(classPath);
  }
}
