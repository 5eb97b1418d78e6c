package lab.exactlyonce.enginelab;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The engine lab's start-up options: off unless asked for, since it starts a real Kafka broker and Flink cluster.
 *
 * @param enabled whether the Sandbox tab may run scenarios on the real engines ({@code --engine-lab on})
 * @param jar the engine lab's own jar, built by {@code mvn package} next to the app's ({@code --engine-lab-jar})
 * @param maxHeapMb the engine process's heap cap ({@code --engine-lab-heap-mb}, default 256: the seed's scenario
 *     runs in 128)
 * @param idleStop how long the engine process waits for the next run before it ends ({@code
 *     --engine-lab-idle-seconds}, default 300)
 * @param queueLength how many runs may wait behind the one running ({@code --engine-lab-queue}, default 8): the
 *     results are cached per scenario and knobs, so a class pressing the same button waits for one run
 * @param uid the uid the engine process runs as when the server is root ({@code --engine-lab-uid}, default
 *     {@value #DEFAULT_UID}): a uid of its own, outside the sandbox's {@code --sandbox-worker-uids} (64000-64999 by
 *     default), so no worker shares it and its directory is closed to them all
 */
public record EngineLabSettings(boolean enabled, Path jar, int maxHeapMb, Duration idleStop, int queueLength,
                                int uid) {
  /** Just above the sandbox's default worker uids. */
  public static final int DEFAULT_UID = 65000;

  /** Where {@code mvn package} puts the engine lab's jar. */
  public static final Path DEFAULT_JAR = Path.of("target", "engine-lab", "exactly-once-engine-lab.jar");

  /** Flag name to environment variable name, merged into the app's option table. */
  public static final Map<String, String> FLAGS = Map.of(
      "--engine-lab", "ENGINE_LAB",
      "--engine-lab-jar", "ENGINE_LAB_JAR",
      "--engine-lab-heap-mb", "ENGINE_LAB_HEAP_MB",
      "--engine-lab-idle-seconds", "ENGINE_LAB_IDLE_SECONDS",
      "--engine-lab-queue", "ENGINE_LAB_QUEUE",
      "--engine-lab-uid", "ENGINE_LAB_UID");

  public EngineLabSettings {
    if (jar == null) jar = DEFAULT_JAR;
    if (enabled && !Files.isRegularFile(jar)) {
      throw new IllegalArgumentException("--engine-lab-jar '" + jar + "' does not exist: build it with mvn package,"
          + " or start without --engine-lab on");
    }
    if (maxHeapMb < 128 || maxHeapMb > 4096) {
      throw new IllegalArgumentException("--engine-lab-heap-mb must be between 128 and 4096, got " + maxHeapMb);
    }
    if (idleStop.isNegative() || idleStop.isZero()) {
      throw new IllegalArgumentException("--engine-lab-idle-seconds must be at least 1, got " + idleStop.toSeconds());
    }
    if (queueLength < 0 || queueLength > 100) {
      throw new IllegalArgumentException("--engine-lab-queue must be between 0 and 100, got " + queueLength);
    }
    if (uid < 1 || uid > 2_147_483_646) {
      throw new IllegalArgumentException("--engine-lab-uid must be between 1 and 2147483646, got " + uid);
    }
  }

  public static EngineLabSettings disabled() {
    return new EngineLabSettings(false, DEFAULT_JAR, 256, Duration.ofMinutes(5), 8, DEFAULT_UID);
  }

  public EngineLabSettings enabledWith(Path builtJar) {
    return new EngineLabSettings(true, builtJar, maxHeapMb, idleStop, queueLength, uid);
  }

  public EngineLabSettings withQueueLength(int length) {
    return new EngineLabSettings(enabled, jar, maxHeapMb, idleStop, length, uid);
  }

  public static EngineLabSettings from(Function<String, Optional<String>> option) {
    EngineLabSettings d = disabled();
    boolean enabled = option.apply("--engine-lab").map(v -> switch (v.trim()) {
      case "on", "true" -> true;
      case "off", "false" -> false;
      default -> throw new IllegalArgumentException("--engine-lab must be on or off, got '" + v + "'");
    }).orElse(false);
    return new EngineLabSettings(enabled, option.apply("--engine-lab-jar").map(Path::of).orElse(d.jar()),
        number(option, "--engine-lab-heap-mb").orElse(d.maxHeapMb()),
        number(option, "--engine-lab-idle-seconds").map(Duration::ofSeconds).orElse(d.idleStop()),
        number(option, "--engine-lab-queue").orElse(d.queueLength()),
        number(option, "--engine-lab-uid").orElse(d.uid()));
  }

  private static Optional<Integer> number(Function<String, Optional<String>> option, String flag) {
    return option.apply(flag).map(v -> {
      try {
        return Integer.parseInt(v.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(flag + " must be a number, got '" + v + "'");
      }
    });
  }
}
