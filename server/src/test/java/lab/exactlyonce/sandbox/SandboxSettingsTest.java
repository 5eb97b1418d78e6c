package lab.exactlyonce.sandbox;

import lab.exactlyonce.Config;
import lab.exactlyonce.sandbox.confinement.ConfinementLevel;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SandboxSettingsTest {

  @Test
  void defaults_are_the_documented_limits() {
    SandboxSettings s = SandboxSettings.defaults();
    assertEquals(3, s.workers());
    assertEquals("256m", s.workerHeap());
    assertEquals(2_000, s.limits().cpuMillis());
    assertEquals(192L * 1024 * 1024, s.limits().maxLiveBytes(), "three quarters of the heap");
    assertEquals(64 * 1024, s.limits().maxOutputBytes());
    assertEquals(64 * 1024, s.limits().maxSourceBytes());
    assertEquals(6_000, s.limits().wallMillis());
    assertEquals(7_500, s.hardLimitMillis());
    assertEquals(SandboxSettings.Confinement.AUTO, s.confinement());
  }

  @Test
  void flags_win_over_environment_variables() {
    Config config = Config.from(new String[] {"--sandbox-workers", "4", "--sandbox-cpu-ms", "3000",
            "--sandbox-confinement", "none", "--sandbox-worker-jvm-flags", "-XX:TieredStopAtLevel=1 -Xshare:auto"},
        Map.of("SANDBOX_WORKERS", "7", "SANDBOX_WORKER_HEAP", "128m", "SANDBOX_PER_CLIENT", "5"));
    SandboxSettings s = config.sandbox();
    assertEquals(4, s.workers());
    assertEquals("128m", s.workerHeap());
    assertEquals(5, s.perClientCap());
    assertEquals(3_000, s.limits().cpuMillis());
    assertEquals(SandboxSettings.Confinement.NONE, s.confinement());
    assertEquals(List.of("-XX:TieredStopAtLevel=1", "-Xshare:auto"), s.workerJvmFlags());
  }

  @Test
  void the_caps_on_answers_and_the_compile_cache_are_options() {
    SandboxSettings defaults = SandboxSettings.defaults();
    assertEquals(List.of(5_000, 524_288, 50), List.of(defaults.limits().maxTraceEvents(),
        defaults.limits().maxTraceBytes(), defaults.limits().maxDiagnostics()));
    assertEquals(8L * 1024 * 1024, defaults.limits().cacheBytes());

    SandboxSettings s = Config.from(new String[] {"--sandbox-max-trace-events", "100", "--sandbox-max-trace-bytes",
        "65536", "--sandbox-max-diagnostics", "10"}, Map.of("SANDBOX_CACHE_BYTES", "1048576")).sandbox();

    assertEquals(List.of(100, 65_536, 10), List.of(s.limits().maxTraceEvents(), s.limits().maxTraceBytes(),
        s.limits().maxDiagnostics()));
    assertEquals(1_048_576L, s.limits().cacheBytes());
    assertEquals("--sandbox-max-diagnostics must be at least 1, got 0", assertThrows(Config.ConfigException.class,
        () -> Config.from(new String[] {"--sandbox-max-diagnostics", "0"}, Map.of())).getMessage());
  }

  @Test
  void the_clock_limit_follows_the_cpu_limit_unless_set_and_is_never_below_it() {
    assertEquals(9_000, Config.from(new String[] {"--sandbox-cpu-ms", "3000"}, Map.of()).sandbox().limits().wallMillis());
    SandboxSettings s = Config.from(new String[] {"--sandbox-cpu-ms", "3000"}, Map.of("SANDBOX_WALL_MS", "4000")).sandbox();
    assertEquals(List.of(3_000L, 4_000L), List.of(s.limits().cpuMillis(), s.limits().wallMillis()));
    assertEquals(5_500, s.hardLimitMillis());
    assertEquals("--sandbox-wall-ms (1000) must be at least --sandbox-cpu-ms (2000)",
        assertThrows(Config.ConfigException.class,
            () -> Config.from(new String[] {"--sandbox-wall-ms", "1000"}, Map.of())).getMessage());
  }

  @Test
  void confinement_takes_a_minimum_level_a_range_of_worker_uids_and_bubblewrap_on_or_off() {
    SandboxSettings.Confinement hardened = Config.from(new String[] {"--sandbox-confinement", "hardened",
        "--sandbox-worker-uids", "61000-61099", "--sandbox-bubblewrap", "off"}, Map.of()).sandbox().confinement();
    assertEquals(new SandboxSettings.Confinement("hardened", ConfinementLevel.HARDENED, true, 61000, 61099, false),
        hardened);
    assertEquals(true, Config.from(new String[0], Map.of()).sandbox().confinement().bubblewrap());
    assertEquals(ConfinementLevel.NETWORK, Config.from(new String[] {"--sandbox-confinement", "network-namespace"},
        Map.of()).sandbox().confinement().minimum());
    assertEquals(ConfinementLevel.CONTAINED, Config.from(new String[0], Map.of("SANDBOX_CONFINEMENT", "contained"))
        .sandbox().confinement().minimum());
    assertEquals(List.of(64000, 64999), List.of(SandboxSettings.defaults().confinement().firstUid(),
        SandboxSettings.defaults().confinement().lastUid()));
    assertEquals(false, SandboxSettings.Confinement.NONE.probe());
  }

  @Test
  void bad_values_are_one_readable_line() {
    assertEquals("--sandbox-workers must be a whole number, got 'many'", assertThrows(Config.ConfigException.class,
        () -> Config.from(new String[] {"--sandbox-workers", "many"}, Map.of())).getMessage());
    assertEquals("--sandbox-workers must be at least 1, got 0", assertThrows(Config.ConfigException.class,
        () -> Config.from(new String[] {"--sandbox-workers", "0"}, Map.of())).getMessage());
    assertEquals("--sandbox-worker-heap must be a JVM memory size such as 256m, got 'lots'",
        assertThrows(Config.ConfigException.class,
            () -> Config.from(new String[] {"--sandbox-worker-heap", "lots"}, Map.of())).getMessage());
    assertEquals("--sandbox-confinement must be one of auto, network, contained, hardened, none "
            + "(network-namespace is network); got 'jail'",
        assertThrows(Config.ConfigException.class,
            () -> Config.from(new String[] {"--sandbox-confinement", "jail"}, Map.of())).getMessage());
    assertEquals("--sandbox-worker-jvm-flags takes -X... JVM flags only, got '-javaagent:x.jar'",
        assertThrows(Config.ConfigException.class,
            () -> Config.from(new String[] {"--sandbox-worker-jvm-flags", "-javaagent:x.jar"}, Map.of())).getMessage());
    assertEquals("--sandbox-worker-uids must be a range FIRST-LAST of uids between 1 and 2147483646, got '0-100'",
        assertThrows(Config.ConfigException.class,
            () -> Config.from(new String[] {"--sandbox-worker-uids", "0-100"}, Map.of())).getMessage());
    assertEquals("--sandbox-worker-uids must be a range FIRST-LAST such as 64000-64999, got '64999'",
        assertThrows(Config.ConfigException.class,
            () -> Config.from(new String[] {"--sandbox-worker-uids", "64999"}, Map.of())).getMessage());
    assertEquals("--sandbox-worker-uids must be a range FIRST-LAST of uids between 1 and 2147483646, got "
            + "'64000-99999999999'", assertThrows(Config.ConfigException.class,
            () -> Config.from(new String[] {"--sandbox-worker-uids", "64000-99999999999"}, Map.of())).getMessage());
    assertEquals("--sandbox-worker-uids must hold at least twice --sandbox-workers plus 2 uids (10), got 5",
        assertThrows(Config.ConfigException.class, () -> Config.from(new String[] {"--sandbox-workers", "4",
            "--sandbox-worker-uids", "61000-61004"}, Map.of())).getMessage());
    assertEquals("--sandbox-bubblewrap must be auto or off, got 'maybe'", assertThrows(Config.ConfigException.class,
        () -> Config.from(new String[] {"--sandbox-bubblewrap", "maybe"}, Map.of())).getMessage());
  }
}
