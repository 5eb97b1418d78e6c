package lab.exactlyonce.sandbox.confinement;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClassPathStageTest {
  Path root;

  @BeforeEach
  void dirs() throws IOException {
    root = Files.createTempDirectory("eolab-stage-test-");
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @AfterEach
  void clean() throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @Test
  void a_jar_everyone_may_read_is_used_in_place_and_a_private_one_is_staged_readable() throws IOException {
    Path open = Files.writeString(root.resolve("open.jar"), "jar");
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
    Path privateDir = Files.createDirectory(root.resolve("m2"));
    Path hidden = Files.writeString(privateDir.resolve("hidden.jar"), "jar");
    Files.setPosixFilePermissions(hidden, PosixFilePermissions.fromString("rw-r--r--"));
    Files.setPosixFilePermissions(privateDir, PosixFilePermissions.fromString("rwx------"));

    List<ClassPathStage.Entry> entries = ClassPathStage.stage(List.of(open, hidden), root.resolve("stage"));

    assertEquals(new ClassPathStage.Entry(open, "00-open.jar"), entries.get(0));
    assertEquals(new ClassPathStage.Entry(root.resolve("stage/01-hidden.jar"), "01-hidden.jar"), entries.get(1));
    assertTrue(ClassPathStage.readableByEveryone(entries.get(1).outside()));
    assertFalse(ClassPathStage.readableByEveryone(hidden));
  }

  /** The engine lab's entry: the confinement and JNA classes out of a jar (the app's shaded one) or a directory. */
  @Test
  void only_the_named_packages_classes_are_staged_out_of_a_jar_or_a_directory() throws IOException {
    Path jar = root.resolve("app.jar");
    try (var out = new java.util.zip.ZipOutputStream(Files.newOutputStream(jar))) {
      for (String entry : List.of("com/sun/jna/Native.class", "com/sun/jna/linux-x86-64/libjnidispatch.so",
          "com/fasterxml/jackson/databind/ObjectMapper.class", "lab/exactlyonce/App.class")) {
        out.putNextEntry(new java.util.zip.ZipEntry(entry));
        out.write(1);
        out.closeEntry();
      }
    }
    Path classes = root.resolve("classes");
    Files.createDirectories(classes.resolve("lab/exactlyonce/sandbox/confinement"));
    Files.writeString(classes.resolve("lab/exactlyonce/sandbox/confinement/ConfinedMain.class"), "x");
    Files.writeString(classes.resolve("lab/exactlyonce/Config.class"), "x");

    Path staged = ClassPathStage.stageClasses(List.of(jar, classes),
        List.of("lab/exactlyonce/sandbox/confinement", "com/sun/jna"), root.resolve("stage/confinement"));

    try (Stream<Path> files = Files.walk(staged)) {
      assertEquals(List.of("com/sun/jna/Native.class", "lab/exactlyonce/sandbox/confinement/ConfinedMain.class"),
          files.filter(Files::isRegularFile).map(f -> staged.relativize(f).toString()).sorted().toList());
    }
    assertTrue(ClassPathStage.readableByEveryone(staged.resolve("com/sun/jna/Native.class")));
  }

  @Test
  void from_a_class_directory_only_the_sandbox_classes_are_staged() throws IOException {
    Path classes = root.resolve("classes");
    Files.createDirectories(classes.resolve("lab/exactlyonce/sandbox/engine"));
    Files.createDirectories(classes.resolve("lab/exactlyonce/store"));
    Files.writeString(classes.resolve("lab/exactlyonce/sandbox/engine/WorkerMain.class"), "x");
    Files.writeString(classes.resolve("lab/exactlyonce/store/Database.class"), "x");
    Files.writeString(classes.resolve("application.properties"), "secret=1");

    Path staged = ClassPathStage.stage(List.of(classes), root.resolve("stage")).get(0).outside();

    try (Stream<Path> files = Files.walk(staged)) {
      assertEquals(List.of("lab/exactlyonce/sandbox/engine/WorkerMain.class"), files.filter(Files::isRegularFile)
          .map(p -> staged.relativize(p).toString()).toList());
    }
  }
}
