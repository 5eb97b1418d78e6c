package lab.exactlyonce.enginelab;

import lab.exactlyonce.Config;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Starting the app with and without the engine lab: off by default, and a mistake is one line at start. */
class EngineLabSettingsTest {

  @Test
  void the_lab_is_off_unless_asked_for() {
    assertFalse(Config.from(new String[0], Map.of()).engineLab().enabled());
  }

  @Test
  void on_with_a_built_jar_from_a_flag_or_the_environment() throws Exception {
    Path jar = Files.createTempFile("engine-lab", ".jar");
    Config flags = Config.from(new String[] {"--engine-lab", "on", "--engine-lab-jar", jar.toString(),
        "--engine-lab-heap-mb", "512", "--engine-lab-queue", "3"}, Map.of());
    assertTrue(flags.engineLab().enabled());
    assertEquals(EngineLabSettings.DEFAULT_UID, flags.engineLab().uid());
    assertEquals(512, flags.engineLab().maxHeapMb());
    assertEquals(3, flags.engineLab().queueLength());
    assertTrue(Config.from(new String[0], Map.of("ENGINE_LAB", "on", "ENGINE_LAB_JAR", jar.toString()))
        .engineLab().enabled());
  }

  /** A worker sharing the engines' uid could open their directory and signal them. */
  @Test
  void the_engines_uid_is_none_of_the_workers() throws Exception {
    Path jar = Files.createTempFile("engine-lab", ".jar");
    assertEquals(65001, Config.from(new String[] {"--engine-lab", "on", "--engine-lab-jar", jar.toString(),
        "--engine-lab-uid", "65001"}, Map.of()).engineLab().uid());
    assertEquals("--engine-lab-uid 64500 is one of --sandbox-worker-uids 64000-64999: give the engines a uid of their"
        + " own", assertThrows(Config.ConfigException.class, () -> Config.from(new String[] {"--engine-lab", "on",
        "--engine-lab-jar", jar.toString(), "--engine-lab-uid", "64500"}, Map.of())).getMessage());
  }

  @Test
  void a_mistake_is_named_with_what_to_do() {
    assertEquals("--engine-lab-jar 'nowhere.jar' does not exist: build it with mvn package, or start without"
            + " --engine-lab on",
        assertThrows(Config.ConfigException.class, () -> Config.from(
            new String[] {"--engine-lab", "on", "--engine-lab-jar", "nowhere.jar"}, Map.of())).getMessage());
    assertEquals("--engine-lab must be on or off, got 'maybe'", assertThrows(Config.ConfigException.class,
        () -> Config.from(new String[] {"--engine-lab", "maybe"}, Map.of())).getMessage());
    assertEquals("--engine-lab-heap-mb must be between 128 and 4096, got 64", assertThrows(Config.ConfigException.class,
        () -> Config.from(new String[] {"--engine-lab-heap-mb", "64"}, Map.of())).getMessage());
    assertEquals("--engine-lab-uid must be between 1 and 2147483646, got 0", assertThrows(Config.ConfigException.class,
        () -> Config.from(new String[] {"--engine-lab-uid", "0"}, Map.of())).getMessage());
    assertEquals("--engine-lab-queue must be a number, got 'x'", assertThrows(Config.ConfigException.class,
        () -> Config.from(new String[] {"--engine-lab-queue", "x"}, Map.of())).getMessage());
  }
}
