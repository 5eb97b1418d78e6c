package lab.exactlyonce;

import lab.exactlyonce.classroom.ClassroomSettings;
import lab.exactlyonce.enginelab.EngineLabSettings;
import lab.exactlyonce.ops.OpsSettings;
import lab.exactlyonce.option.Option;
import lab.exactlyonce.option.OptionTable;
import lab.exactlyonce.option.OptionValues;
import lab.exactlyonce.sandbox.SandboxSettings;
import lab.exactlyonce.share.ShareSettings;
import lab.exactlyonce.store.StoreSettings;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Everything the app can be told at start, with the defaults a newcomer gets. Flags win over environment
 * variables, which win over defaults.
 *
 * @param lessonsDir folder holding one sub-folder per lesson; empty means the lessons bundled in the jar
 * @param snippetsDir folder holding one sub-folder of snippets per lesson; empty means the bundled ones
 * @param store the database; an empty JDBC URL means an embedded H2 file database under {@code dataDir}
 * @param classroom the instructor secret and the classroom's rate limits
 * @param share the share links' rate limit
 * @param ops request log, metrics access and the shutdown drain timeout
 * @param engineLab whether the real Kafka + Flink runs are on, and the engine process's limits
 * @param clock what every feature asks the time (rate limits, deadlines, expiries, "today"); the system's UTC clock
 */
public record Config(String host, int port, Path dataDir, Optional<Path> lessonsDir, Optional<Path> snippetsDir,
                     SandboxSettings sandbox, StoreSettings store, ClassroomSettings classroom,
                     ShareSettings share, OpsSettings ops, EngineLabSettings engineLab, Clock clock) {

  public static final int DEFAULT_PORT = 7070;

  public Config {
    if (port < 0 || port > 65535) throw new ConfigException("--port must be between 0 and 65535, got " + port);
    lessonsDir.ifPresent(dir -> requireDirectory(dir, "--lessons-dir"));
    snippetsDir.ifPresent(dir -> requireDirectory(dir, "--snippets-dir"));
    if (dataDir == null) throw new ConfigException("--data-dir must not be empty");
    if (store == null) store = StoreSettings.embedded();
    if (classroom == null) classroom = ClassroomSettings.defaults();
    if (share == null) share = ShareSettings.defaults();
    if (ops == null) ops = OpsSettings.defaults();
    if (engineLab == null) engineLab = EngineLabSettings.disabled();
    if (clock == null) clock = Clock.systemUTC();
    if (engineLab.enabled() && sandbox != null && engineLab.uid() >= sandbox.confinement().firstUid()
        && engineLab.uid() <= sandbox.confinement().lastUid()) {
      // a worker with the engines' uid could open their directory and signal them
      throw new ConfigException("--engine-lab-uid " + engineLab.uid() + " is one of --sandbox-worker-uids "
          + sandbox.confinement().firstUid() + "-" + sandbox.confinement().lastUid() + ": give the engines a uid of"
          + " their own");
    }
  }

  /** Without the engine lab (it is off unless asked for), on the system's clock. */
  public Config(String host, int port, Path dataDir, Optional<Path> lessonsDir, Optional<Path> snippetsDir,
                SandboxSettings sandbox, StoreSettings store, ClassroomSettings classroom, ShareSettings share,
                OpsSettings ops) {
    this(host, port, dataDir, lessonsDir, snippetsDir, sandbox, store, classroom, share, ops,
        EngineLabSettings.disabled(), Clock.systemUTC());
  }

  /**
   * The JDBC URL to use: the configured one, or the embedded H2 file database {@code <dataDir>/eolab.mv.db} (its
   * settings are explained where the URL is built, {@code store.DataDirectory}). The app opens the embedded database
   * with the password kept in the data directory ({@code store.LocalData}); this URL alone names no password.
   */
  public String jdbcUrl() {
    return store.jdbcUrl().orElseGet(() -> StoreSettings.embeddedJdbcUrl(dataDir));
  }

  public Config withLessonsDir(Path dir) {
    return new Config(host, port, dataDir, Optional.of(dir), snippetsDir, sandbox, store, classroom, share, ops, engineLab, clock);
  }

  public Config withSandbox(SandboxSettings settings) {
    return new Config(host, port, dataDir, lessonsDir, snippetsDir, settings, store, classroom, share, ops, engineLab, clock);
  }

  /** The same app on another port, for a test that restarts it where it was. */
  public Config withPort(int newPort) {
    return new Config(host, newPort, dataDir, lessonsDir, snippetsDir, sandbox, store, classroom, share, ops, engineLab, clock);
  }

  public Config withClassroom(ClassroomSettings settings) {
    return new Config(host, port, dataDir, lessonsDir, snippetsDir, sandbox, store, settings, share, ops, engineLab, clock);
  }

  public Config withShare(ShareSettings settings) {
    return new Config(host, port, dataDir, lessonsDir, snippetsDir, sandbox, store, classroom, settings, ops, engineLab, clock);
  }

  public Config withOps(OpsSettings settings) {
    return new Config(host, port, dataDir, lessonsDir, snippetsDir, sandbox, store, classroom, share, settings, engineLab, clock);
  }

  public Config withEngineLab(EngineLabSettings settings) {
    return new Config(host, port, dataDir, lessonsDir, snippetsDir, sandbox, store, classroom, share, ops, settings, clock);
  }

  public Config withStore(StoreSettings settings) {
    return new Config(host, port, dataDir, lessonsDir, snippetsDir, sandbox, settings, classroom, share, ops, engineLab, clock);
  }

  /** The same settings, reading the time from {@code other}. */
  public Config withClock(Clock other) {
    return new Config(host, port, dataDir, lessonsDir, snippetsDir, sandbox, store, classroom, share, ops, engineLab, other);
  }

  static final Option PORT = Option.of("--port", "PORT", String.valueOf(DEFAULT_PORT), "0 to 65535",
      "HTTP port (`0` picks a free one)");
  static final Option HOST = Option.of("--host", "HOST", "0.0.0.0", "an address of this host",
      "interface to listen on");
  static final Option DATA_DIR = Option.of("--data-dir", "DATA_DIR", "data", "a folder the app's user may write",
      "where the app keeps its data (made at the first start)");
  static final Option LESSONS_DIR = Option.withoutDefault("--lessons-dir", "LESSONS_DIR", "the bundled lessons",
      "an existing folder", "a folder of lessons to serve instead of the bundled ones");
  static final Option SNIPPETS_DIR = Option.withoutDefault("--snippets-dir", "SNIPPETS_DIR", "the bundled snippets",
      "an existing folder", "a folder of snippets to serve instead of the bundled ones");

  /** Every option the app reads, in the order {@code --help} and {@code docs/configuration.md} list them. */
  static final List<Option> OPTIONS = Stream.of(List.of(PORT, HOST, DATA_DIR, LESSONS_DIR, SNIPPETS_DIR),
      StoreSettings.OPTIONS, ClassroomSettings.OPTIONS, ShareSettings.OPTIONS, OpsSettings.OPTIONS,
      SandboxSettings.OPTIONS, EngineLabSettings.OPTIONS).flatMap(List::stream).toList();

  /** What {@code --help} prints. */
  public static String help() {
    return OptionTable.help(OPTIONS);
  }

  /** Reads {@code --name value} flags, then {@code NAME} environment variables, then defaults. */
  public static Config from(String[] args, Map<String, String> env) {
    Map<String, Option> byFlag = OPTIONS.stream().collect(Collectors.toMap(Option::flag, o -> o));
    var flags = new HashMap<Option, String>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      Option option = byFlag.get(arg);
      if (option == null) {
        throw new ConfigException("unknown option '" + arg + "'; known options: "
            + OPTIONS.stream().map(Option::flag).collect(Collectors.joining(", ")) + " (--help explains each)");
      }
      if (i + 1 >= args.length) throw new ConfigException("option '" + arg + "' needs a value");
      flags.put(option, args[++i]);
    }
    return read(option -> Optional.ofNullable(flags.get(option)).or(() -> Optional.ofNullable(env.get(option.env())))
        .filter(v -> !v.isBlank()));
  }

  /** Every option read through {@code values}; each feature's settings read and check their own. */
  static Config read(OptionValues values) {
    return new Config(
        values.orDefault(HOST),
        parsePort(values.orDefault(PORT)),
        Path.of(values.orDefault(DATA_DIR)),
        values.given(LESSONS_DIR).map(Path::of),
        values.given(SNIPPETS_DIR).map(Path::of),
        settings(() -> SandboxSettings.from(values)),
        settings(() -> StoreSettings.from(values)),
        settings(() -> ClassroomSettings.from(values)),
        settings(() -> ShareSettings.from(values)),
        settings(() -> OpsSettings.from(values)),
        settings(() -> EngineLabSettings.from(values)),
        Clock.systemUTC());
  }

  /**
   * A feature's settings read from the flags. Each settings record checks its own values and throws
   * {@link IllegalArgumentException} with the one line to show, so no feature depends on this package.
   */
  private static <T> T settings(Supplier<T> read) {
    try {
      return read.get();
    } catch (IllegalArgumentException e) {
      throw new ConfigException(e.getMessage());
    }
  }

  private static int parsePort(String text) {
    try {
      return Integer.parseInt(text.trim());
    } catch (NumberFormatException e) {
      throw new ConfigException("--port must be a number, got '" + text + "'");
    }
  }

  private static void requireDirectory(Path dir, String flag) {
    if (!Files.isDirectory(dir)) throw new ConfigException(flag + " '" + dir + "' is not a directory");
  }

  /** A configuration mistake: reported as one line at start-up. */
  public static final class ConfigException extends RuntimeException {
    public ConfigException(String message) { super(message); }
  }
}
