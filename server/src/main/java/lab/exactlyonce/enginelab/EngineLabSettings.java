package lab.exactlyonce.enginelab;

import lab.exactlyonce.option.Option;
import lab.exactlyonce.option.OptionValues;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The engine lab's start-up options. By default ({@code auto}) the lab is on where it can run: its jar is built and
 * the host has the memory the engine JVM needs; elsewhere it is off, and {@link #offReason} says why and what turns
 * it on.
 *
 * @param enabled whether the Sandbox tab may run scenarios on the real engines (what {@code --engine-lab} decided)
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
 * @param offReason why {@code auto} left the lab off, with the step that turns it on; empty when the lab is on or
 *     was turned off on purpose
 */
public record EngineLabSettings(boolean enabled, Path jar, int maxHeapMb, Duration idleStop, int queueLength,
                                int uid, String offReason) {
  /** Just above the sandbox's default worker uids. */
  public static final int DEFAULT_UID = 65000;

  /** Where {@code mvn package} puts the engine lab's jar. */
  public static final Path DEFAULT_JAR = Path.of("target", "engine-lab", "exactly-once-engine-lab.jar");

  /**
   * What the engine JVM needs beyond its heap: measured at 120 to 155 MB resident (metaspace 74 MB, code cache,
   * 114 to 123 threads; docs/engine-lab.md), with room left so the app and its workers are not squeezed out.
   */
  static final int NON_HEAP_MB = 256;

  private static final Option ENGINE_LAB = Option.of("--engine-lab", "ENGINE_LAB", "auto", "`auto`, `on`, `off`",
      "lets the Sandbox tab run the sink demo's crash on a real Kafka broker and Flink job"
      + " ([engine lab](engine-lab.md)); `auto` turns it on when its jar is built and the host's available memory"
      + " (`MemAvailable`) holds the engine JVM's heap plus " + NON_HEAP_MB + " MB (512 MB by default), `on`"
      + " refuses to start without the jar");
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
    if (offReason == null || enabled) offReason = "";
    if (enabled && !Files.isRegularFile(jar)) {
      throw new IllegalArgumentException("--engine-lab-jar '" + jar + "' does not exist: build it with mvn package,"
          + " or start with --engine-lab off");
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

  /** The lab off whatever the host offers: what every app gets that does not ask for it (the tests' apps too). */
  public static EngineLabSettings disabled() {
    return from(option -> option.equals(ENGINE_LAB) ? Optional.of("off") : Optional.empty());
  }

  public EngineLabSettings enabledWith(Path builtJar) {
    return new EngineLabSettings(true, builtJar, maxHeapMb, idleStop, queueLength, uid, "");
  }

  public EngineLabSettings withQueueLength(int length) {
    return new EngineLabSettings(enabled, jar, maxHeapMb, idleStop, length, uid, offReason);
  }

  /** The megabytes of available memory {@code auto} asks for: the engine JVM's heap and what it needs beside it. */
  public int neededMb() {
    return maxHeapMb + NON_HEAP_MB;
  }

  public static EngineLabSettings from(OptionValues values) {
    return from(values, HostMemory.availableMb());
  }

  /** The settings on a host with {@code availableMb} of memory available (empty: the host does not say). */
  static EngineLabSettings from(OptionValues values, OptionalLong availableMb) {
    String mode = values.orDefault(ENGINE_LAB).trim();
    Path jar = Path.of(values.orDefault(JAR));
    int heapMb = number(values, HEAP_MB);
    Duration idle = Duration.ofSeconds(number(values, IDLE_SECONDS));
    int queue = number(values, QUEUE);
    int uid = number(values, UID);
    String offReason = switch (mode) {
      case "on", "true", "off", "false" -> "";
      case "auto" -> autoOffReason(jar, heapMb, availableMb);
      default -> throw new IllegalArgumentException("--engine-lab must be auto, on or off, got '" + mode + "'");
    };
    boolean enabled = mode.equals("on") || mode.equals("true") || (mode.equals("auto") && offReason.isEmpty());
    return new EngineLabSettings(enabled, jar, heapMb, idle, queue, uid, offReason);
  }

  /** Why {@code auto} cannot turn the lab on here, with what would; empty when it can. */
  private static String autoOffReason(Path jar, int heapMb, OptionalLong availableMb) {
    if (!Files.isRegularFile(jar)) {
      return "its jar " + jar + " is not built; build it with mvn -q -B package -DskipTests (from the project's"
          + " folder), or name it with --engine-lab-jar";
    }
    long needed = heapMb + NON_HEAP_MB;
    if (availableMb.isPresent() && availableMb.getAsLong() < needed) {
      return "the host has " + availableMb.getAsLong() + " MB of memory available and the engines need " + needed
          + " MB; free some memory, or start with --engine-lab on to run them anyway";
    }
    return "";
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
