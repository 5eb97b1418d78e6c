package lab.exactlyonce.enginelab;

import lab.exactlyonce.Config;
import lab.exactlyonce.option.OptionValues;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Starting the app with and without the engine lab: on by default where its jar is built and the host has the
 * memory, off with the reason otherwise, and a mistake is one line at start.
 */
class EngineLabSettingsTest {
  private static final OptionalLong PLENTY = OptionalLong.of(24_000);

  private static OptionValues flags(String... pairs) {
    Map<String, String> given = new HashMap<>();
    for (int i = 0; i < pairs.length; i += 2) given.put(pairs[i], pairs[i + 1]);
    return option -> Optional.ofNullable(given.get(option.flag()));
  }

  @Test
  void by_default_the_lab_is_on_where_the_jar_is_built_and_the_memory_is_there() throws Exception {
    Path jar = Files.createTempFile("engine-lab", ".jar");
    EngineLabSettings settings = EngineLabSettings.from(flags("--engine-lab-jar", jar.toString()), PLENTY);
    assertTrue(settings.enabled());
    assertEquals("", settings.offReason());
    assertTrue(EngineLabSettings.from(flags("--engine-lab-jar", jar.toString()), OptionalLong.empty()).enabled(),
        "a host that does not say how much memory it has is taken at its word");
  }

  @Test
  void by_default_the_lab_is_off_without_its_jar_and_says_how_to_build_it() {
    EngineLabSettings settings = EngineLabSettings.from(flags("--engine-lab-jar", "nowhere.jar"), PLENTY);
    assertFalse(settings.enabled());
    assertEquals("its jar nowhere.jar is not built; build it with mvn -q -B package -DskipTests (from the project's"
        + " folder), or name it with --engine-lab-jar", settings.offReason());
  }

  @Test
  void by_default_the_lab_is_off_where_the_memory_is_short_and_says_so() throws Exception {
    Path jar = Files.createTempFile("engine-lab", ".jar");
    EngineLabSettings settings = EngineLabSettings.from(flags("--engine-lab-jar", jar.toString(),
        "--engine-lab-heap-mb", "1024"), OptionalLong.of(1200));
    assertFalse(settings.enabled());
    assertEquals("the host has 1200 MB of memory available and the engines need 1280 MB; free some memory, or start"
        + " with --engine-lab on to run them anyway", settings.offReason());
    assertTrue(EngineLabSettings.from(flags("--engine-lab-jar", jar.toString(), "--engine-lab-heap-mb", "1024",
        "--engine-lab", "on"), OptionalLong.of(1200)).enabled(), "on means on");
  }

  @Test
  void off_means_off_whatever_the_host_offers() throws Exception {
    Path jar = Files.createTempFile("engine-lab", ".jar");
    EngineLabSettings off = EngineLabSettings.from(flags("--engine-lab", "off", "--engine-lab-jar", jar.toString()),
        PLENTY);
    assertFalse(off.enabled());
    assertEquals("", off.offReason(), "turned off on purpose: nothing to explain");
    assertFalse(EngineLabSettings.disabled().enabled(), "the apps the tests build keep the engines off");
  }

  @Test
  void available_memory_is_read_from_meminfo() {
    assertEquals(OptionalLong.of(23620), HostMemory.availableMb(List.of("MemTotal:       24683748 kB",
        "MemFree:         1000000 kB", "MemAvailable:   24187816 kB")));
    assertEquals(OptionalLong.empty(), HostMemory.availableMb(List.of("MemTotal:       24683748 kB")));
  }

  /** In a container /proc/meminfo is the whole host's: the container's own limit is what it may use. */
  @Test
  void a_containers_memory_limit_caps_what_is_available() {
    assertEquals(OptionalLong.of(1024), HostMemory.headroomMb("2147483648", "1073741824"));
    assertEquals(OptionalLong.empty(), HostMemory.headroomMb("max", "1073741824"), "cgroup v2 without a limit");
    assertEquals(OptionalLong.empty(), HostMemory.headroomMb("9223372036854771712", "1073741824"),
        "cgroup v1 without a limit");
    assertEquals(OptionalLong.empty(), HostMemory.headroomMb("", ""), "no cgroup files");
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
    assertEquals("--engine-lab-jar 'nowhere.jar' does not exist: build it with mvn package, or start with"
            + " --engine-lab off",
        assertThrows(Config.ConfigException.class, () -> Config.from(
            new String[] {"--engine-lab", "on", "--engine-lab-jar", "nowhere.jar"}, Map.of())).getMessage());
    assertEquals("--engine-lab must be auto, on or off, got 'maybe'", assertThrows(Config.ConfigException.class,
        () -> Config.from(new String[] {"--engine-lab", "maybe"}, Map.of())).getMessage());
    assertEquals("--engine-lab-heap-mb must be between 128 and 4096, got 64", assertThrows(Config.ConfigException.class,
        () -> Config.from(new String[] {"--engine-lab-heap-mb", "64"}, Map.of())).getMessage());
    assertEquals("--engine-lab-uid must be between 1 and 2147483646, got 0", assertThrows(Config.ConfigException.class,
        () -> Config.from(new String[] {"--engine-lab-uid", "0"}, Map.of())).getMessage());
    assertEquals("--engine-lab-queue must be a number, got 'x'", assertThrows(Config.ConfigException.class,
        () -> Config.from(new String[] {"--engine-lab-queue", "x"}, Map.of())).getMessage());
  }
}
