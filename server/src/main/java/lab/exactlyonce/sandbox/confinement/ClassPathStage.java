package lab.exactlyonce.sandbox.confinement;

import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import lab.exactlyonce.sandbox.engine.WorkerMain;
import org.codehaus.commons.compiler.CompileException;
import org.codehaus.janino.SimpleCompiler;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.commons.ClassRemapper;
import org.slf4j.LoggerFactory;
import org.slf4j.simple.SimpleServiceProvider;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The worker's class path, prepared once at start: only what a worker loads (the app's sandbox classes, Janino,
 * commons-compiler, ASM and asm-commons, Jackson, SLF4J and its simple logger, which prints the engine's log lines
 * to standard error, where the pool logs them), never the server's whole class path. A jar every user may read (the app
 * jar in the image) is used where it is; any other is staged in a world-readable directory, hard-linked where the
 * file system allows it and copied otherwise, because a worker running as another uid could not open it (a build's
 * local repository is private to root). From a class directory only the {@code lab/exactlyonce/sandbox} classes are
 * copied. Bubblewrap binds each entry read-only under one directory.
 */
final class ClassPathStage {
  /** One class path entry: the file or directory on the host, and its name under the sandbox's class path. */
  record Entry(Path outside, String name) {}

  static final String SANDBOX_PACKAGE_DIR = "lab/exactlyonce/sandbox";

  private ClassPathStage() {
  }

  /** The code sources a worker (or the probe) needs, plus that of {@code workerMain}'s class. */
  static List<Path> sources(String workerMain) {
    var classes = new ArrayList<Class<?>>(List.of(ConfinementProbe.class,
        WorkerMain.class,
        ObjectMapper.class, JsonFactory.class,
        JsonValue.class, SimpleCompiler.class,
        CompileException.class, ClassReader.class, ClassRemapper.class,
        LoggerFactory.class, SimpleServiceProvider.class, Native.class));
    try {
      classes.add(Class.forName(workerMain, false, ClassPathStage.class.getClassLoader()));
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("the worker main class " + workerMain + " is not on the class path", e);
    }
    Set<Path> sources = new LinkedHashSet<>();
    for (Class<?> c : classes) sources.add(location(c));
    return List.copyOf(sources);
  }

  /** The entries for {@code sources}, in order, staging in {@code stage} what the worker uid could not read. */
  static List<Entry> stage(List<Path> sources, Path stage) {
    try {
      Files.createDirectories(stage);
      Files.setPosixFilePermissions(stage, PosixFilePermissions.fromString("rwxr-xr-x"));
      var entries = new ArrayList<Entry>();
      int n = 0;
      for (Path source : sources) {
        String name = String.format("%02d-%s", n++, source.getFileName());
        Path target = stage.resolve(name);
        if (!Files.isDirectory(source) && readableByEveryone(source)) {
          entries.add(new Entry(source, name));
          continue;
        }
        if (!Files.exists(target)) {   // staged by an earlier check of this sandbox
          if (Files.isDirectory(source)) {
            Files.createDirectories(target);
            copyClasses(source, List.of(SANDBOX_PACKAGE_DIR), target);
            readableByAll(target);
          } else {
            linkOrCopy(source, target);
          }
        }
        entries.add(new Entry(target, name));
      }
      return List.copyOf(entries);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot stage the sandbox workers' class path in " + stage, e);
    }
  }

  /**
   * JNA's native part for this platform, copied out of its jar into {@code stage/jna} (readable by every uid): a
   * confined worker loads it from there and never unpacks anything into its own temp dir. Empty on a platform JNA
   * has no native part for.
   */
  static Optional<Path> stageJnaLibrary(Path stage) {
    Path dir = stage.resolve("jna");
    String name = System.mapLibraryName("jnidispatch");
    Path target = dir.resolve(name);
    try {
      if (Files.exists(target)) return Optional.of(dir);
      Files.createDirectories(dir);
      String resource = "/com/sun/jna/" + Platform.RESOURCE_PREFIX + "/" + name;
      try (var in = Native.class.getResourceAsStream(resource)) {
        if (in == null) return Optional.empty();
        Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
      }
      readableByAll(dir);
      return Optional.of(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot stage JNA's native part in " + dir, e);
    }
  }

  /**
   * The classes under {@code packageDirs} (such as {@code com/sun/jna}) copied out of {@code sources} (class
   * directories or jars, such as the app's shaded jar) into {@code target}, readable by every uid: a class path entry
   * with just those classes, for a JVM (the engine lab's) that must not see the app's other classes, such as the app
   * jar's own Jackson.
   */
  static Path stageClasses(List<Path> sources, List<String> packageDirs, Path target) {
    try {
      if (Files.isDirectory(target)) return target;   // staged by an earlier start in this directory
      Path partial = Files.createDirectories(target.resolveSibling(target.getFileName() + ".partial"));
      for (Path source : sources.stream().distinct().toList()) {
        if (Files.isDirectory(source)) {
          copyClasses(source, packageDirs, partial);
        } else {
          try (FileSystem jar = FileSystems.newFileSystem(source)) {
            copyClasses(jar.getPath("/"), packageDirs, partial);
          }
        }
      }
      readableByAll(partial);
      Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
      return target;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot stage classes in " + target, e);
    }
  }

  private static void copyClasses(Path root, List<String> packageDirs, Path target) throws IOException {
    for (String dir : packageDirs) {
      Path from = root.resolve(dir);
      if (!Files.isDirectory(from)) continue;
      try (Stream<Path> files = Files.walk(from)) {
        for (Path file : (Iterable<Path>) files::iterator) {
          if (Files.isDirectory(file) || !file.toString().endsWith(".class")) continue;
          Path to = target.resolve(root.relativize(file).toString());
          Files.createDirectories(to.getParent());
          Files.copy(file, to, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
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

  /** Whether any uid may open the file: readable by others, every directory above it searchable by others. */
  static boolean readableByEveryone(Path file) throws IOException {
    Path real = file.toRealPath();
    if (!Files.getPosixFilePermissions(real).contains(PosixFilePermission.OTHERS_READ)) {
      return false;
    }
    for (Path dir = real.getParent(); dir != null; dir = dir.getParent()) {
      if (!Files.getPosixFilePermissions(dir).contains(PosixFilePermission.OTHERS_EXECUTE)) {
        return false;
      }
    }
    return true;
  }

  private static void readableByAll(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : (Iterable<Path>) paths::iterator) {
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(Files.isDirectory(p) ? "rwxr-xr-x" : "rw-r--r--"));
      }
    }
  }

  /** The directory or jar a class was loaded from. */
  static Path location(Class<?> c) {
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
