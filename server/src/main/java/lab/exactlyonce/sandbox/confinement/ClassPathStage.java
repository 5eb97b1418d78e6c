package lab.exactlyonce.sandbox.confinement;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The worker's class path, staged once at start into one world-readable directory: only what a worker loads (the
 * app's sandbox classes, Janino, commons-compiler, ASM, Jackson, SLF4J), never the server's whole class path. A
 * worker running as another uid could not open the server's own copies (a build's local repository is private to
 * root), and bubblewrap binds this one directory read-only. Jars are hard-linked where the file system allows it,
 * copied otherwise; from a class directory only the {@code lab/exactlyonce/sandbox} classes are copied.
 */
final class ClassPathStage {
  static final String SANDBOX_PACKAGE_DIR = "lab/exactlyonce/sandbox";

  private ClassPathStage() {
  }

  /** The code sources a worker (or the probe) needs, plus that of {@code workerMain}'s class. */
  static List<Path> sources(String workerMain) {
    var classes = new ArrayList<Class<?>>(List.of(ConfinementProbe.class,
        lab.exactlyonce.sandbox.engine.WorkerMain.class,
        com.fasterxml.jackson.databind.ObjectMapper.class, com.fasterxml.jackson.core.JsonFactory.class,
        com.fasterxml.jackson.annotation.JsonValue.class, org.codehaus.janino.SimpleCompiler.class,
        org.codehaus.commons.compiler.CompileException.class, org.objectweb.asm.ClassReader.class,
        org.slf4j.LoggerFactory.class));
    try {
      classes.add(Class.forName(workerMain, false, ClassPathStage.class.getClassLoader()));
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("the worker main class " + workerMain + " is not on the class path", e);
    }
    Set<Path> sources = new LinkedHashSet<>();
    for (Class<?> c : classes) sources.add(location(c));
    return List.copyOf(sources);
  }

  /**
   * Copies (or links) {@code sources} into {@code stage} and returns the entries' file names there, in order.
   */
  static List<String> stage(List<Path> sources, Path stage) {
    try {
      Files.createDirectories(stage);
      Files.setPosixFilePermissions(stage, PosixFilePermissions.fromString("rwxr-xr-x"));
      var names = new ArrayList<String>();
      int n = 0;
      for (Path source : sources) {
        String name = String.format("%02d-%s", n++, source.getFileName());
        Path target = stage.resolve(name);
        if (Files.isDirectory(source)) {
          copySandboxClasses(source, target);
        } else {
          linkOrCopy(source, target);
        }
        names.add(name);
      }
      return List.copyOf(names);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot stage the sandbox workers' class path in " + stage, e);
    }
  }

  private static void copySandboxClasses(Path classes, Path target) throws IOException {
    Files.createDirectories(target);
    Path from = classes.resolve(SANDBOX_PACKAGE_DIR);
    if (!Files.isDirectory(from)) return;
    try (Stream<Path> files = Files.walk(from)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Path to = target.resolve(classes.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(to);
        } else if (file.toString().endsWith(".class")) {
          Files.createDirectories(to.getParent());
          Files.copy(file, to, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
    readableByAll(target);
  }

  private static void linkOrCopy(Path jar, Path target) throws IOException {
    try {
      Files.createLink(target, jar);
      if (PosixFilePermissions.toString(Files.getPosixFilePermissions(target)).charAt(6) == 'r') return;
      Files.delete(target);   // the shared inode is not world-readable: copy instead of changing the original
    } catch (FileSystemException | UnsupportedOperationException e) {
      // another file system, or links not allowed: copy
    }
    Files.copy(jar, target, StandardCopyOption.REPLACE_EXISTING);
    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-r--r--"));
  }

  private static void readableByAll(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : (Iterable<Path>) paths::iterator) {
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(Files.isDirectory(p) ? "rwxr-xr-x" : "rw-r--r--"));
      }
    }
  }

  private static Path location(Class<?> c) {
    CodeSource source = c.getProtectionDomain().getCodeSource();
    if (source == null || source.getLocation() == null) {
      throw new IllegalStateException("cannot tell where " + c.getName() + " was loaded from");
    }
    try {
      return Path.of(source.getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException("cannot tell where " + c.getName() + " was loaded from: " + source.getLocation(), e);
    }
  }
}
