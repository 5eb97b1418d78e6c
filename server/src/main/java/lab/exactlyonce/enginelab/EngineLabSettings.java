package lab.exactlyonce.enginelab;

import lab.exactlyonce.option.Option;
import lab.exactlyonce.option.OptionValues;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

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

  private static final Option ENGINE_LAB = Option.of("--engine-lab", "ENGINE_LAB", "off", "`on`, `off`",
      "`on` lets the Sandbox tab run the sink demo's crash on a real Kafka broker and Flink job"
      + " ([engine lab](engine-lab.md))");
  private static final Option JAR = Option.of("--engine-lab-jar", "ENGINE_LAB_JAR", DEFAULT_JAR.toString(),
      "an existing jar (needed when the lab is on)", "the engine lab's jar, which `mvn package` builds");
  private static final Option HEAP_MB = Option.of("--engine-lab-heap-mb", "ENGINE_LAB_HEAP_MB", "256", "128 to 4096",
      "the engine JVM's `-Xmx`, in MB");
  private static final Option IDLE_SECONDS = Option.of("--engine-lab-idle-seconds", "ENGINE_LAB_IDLE_SECONDS", "300",
      "1 or more", "the engine JVM ends after this long without a run (the next page that offers real runs starts it"
      + " again)");
  private static final Option QUEUE = Option.of("--engine-lab-queue", "ENGINE_LAB_QUEUE", "8", "0 to 100",
      "real runs that may wait behind the one running, at most half of them from one client address; more get 429"
      + " with `Retry-After`");
  private static final Option UID = Option.of("--engine-lab-uid", "ENGINE_LAB_UID", String.valueOf(DEFAULT_UID),
      "1 to 2147483646, outside `--sandbox-worker-uids`", "the uid the engine JVM runs as when the server is root");

  /** The engine lab's options. */
  public static final List<Option> OPTIONS = List.of(ENGINE_LAB, JAR, HEAP_MB, IDLE_SECONDS, QUEUE, UID);

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

  /** The defaults: the lab off. */
  public static EngineLabSettings disabled() {
    return from(OptionValues.none());
  }

  public EngineLabSettings enabledWith(Path builtJar) {
    return new EngineLabSettings(true, builtJar, maxHeapMb, idleStop, queueLength, uid);
  }

  public EngineLabSettings withQueueLength(int length) {
    return new EngineLabSettings(enabled, jar, maxHeapMb, idleStop, length, uid);
  }

  public static EngineLabSettings from(OptionValues values) {
    String enabled = values.orDefault(ENGINE_LAB);
    return new EngineLabSettings(switch (enabled.trim()) {
      case "on", "true" -> true;
      case "off", "false" -> false;
      default -> throw new IllegalArgumentException("--engine-lab must be on or off, got '" + enabled + "'");
    }, Path.of(values.orDefault(JAR)), number(values, HEAP_MB), Duration.ofSeconds(number(values, IDLE_SECONDS)),
        number(values, QUEUE), number(values, UID));
  }

  private static int number(OptionValues values, Option option) {
    String text = values.orDefault(option);
    try {
      return Integer.parseInt(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option.flag() + " must be a number, got '" + text + "'");
    }
  }
}
