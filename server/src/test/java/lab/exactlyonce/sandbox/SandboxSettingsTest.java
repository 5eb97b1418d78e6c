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
    assertEquals(2_000, s.limits().wallMillis());
    assertEquals(64 * 1024, s.limits().maxOutputBytes());
    assertEquals(64 * 1024, s.limits().maxSourceBytes());
    assertEquals(3_500, s.hardLimitMillis());
    assertEquals(SandboxSettings.Confinement.AUTO, s.confinement());
  }

  @Test
  void flags_win_over_environment_variables() {
    Config config = Config.from(new String[] {"--sandbox-workers", "4", "--sandbox-wall-ms", "3000",
            "--sandbox-confinement", "none", "--sandbox-worker-jvm-flags", "-XX:TieredStopAtLevel=1 -Xshare:auto"},
        Map.of("SANDBOX_WORKERS", "7", "SANDBOX_WORKER_HEAP", "128m", "SANDBOX_PER_CLIENT", "5"));
    SandboxSettings s = config.sandbox();
    assertEquals(4, s.workers());
    assertEquals("128m", s.workerHeap());
    assertEquals(5, s.perClientCap());
    assertEquals(3_000, s.limits().wallMillis());
    assertEquals(SandboxSettings.Confinement.NONE, s.confinement());
    assertEquals(List.of("-XX:TieredStopAtLevel=1", "-Xshare:auto"), s.workerJvmFlags());
  }

  @Test
  void confinement_takes_a_minimum_level_and_a_worker_uid() {
    SandboxSettings.Confinement hardened = Config.from(new String[] {"--sandbox-confinement", "hardened",
        "--sandbox-worker-uid", "61000"}, Map.of()).sandbox().confinement();
    assertEquals(new SandboxSettings.Confinement("hardened", ConfinementLevel.HARDENED, true, 61000), hardened);
    assertEquals(ConfinementLevel.NETWORK, Config.from(new String[] {"--sandbox-confinement", "network-namespace"},
        Map.of()).sandbox().confinement().minimum());
    assertEquals(ConfinementLevel.CONTAINED, Config.from(new String[0], Map.of("SANDBOX_CONFINEMENT", "contained"))
        .sandbox().confinement().minimum());
    assertEquals(64999, SandboxSettings.defaults().confinement().workerUid());
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
    assertEquals("--sandbox-worker-uid must be a uid between 1 and 2147483646, got 0",
        assertThrows(Config.ConfigException.class,
            () -> Config.from(new String[] {"--sandbox-worker-uid", "0"}, Map.of())).getMessage());
    assertEquals("--sandbox-worker-uid must be a uid between 1 and 2147483646, got 99999999999",
        assertThrows(Config.ConfigException.class,
            () -> Config.from(new String[] {"--sandbox-worker-uid", "99999999999"}, Map.of())).getMessage());
  }
}
