package lab.exactlyonce;

import lab.exactlyonce.classroom.ClassroomSettings;
import lab.exactlyonce.enginelab.EngineLabSettings;
import lab.exactlyonce.ops.OpsSettings;
import lab.exactlyonce.sandbox.SandboxSettings;
import lab.exactlyonce.share.ShareSettings;
import lab.exactlyonce.store.StoreSettings;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

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

  /** Reads {@code --name value} flags, then {@code NAME} environment variables, then defaults. */
  public static Config from(String[] args, Map<String, String> env) {
    var flags = new HashMap<String, String>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!FLAGS.containsKey(arg)) {
        throw new ConfigException("unknown option '" + arg + "'; known options: " + String.join(", ", FLAGS.keySet()));
      }
      if (i + 1 >= args.length) throw new ConfigException("option '" + arg + "' needs a value");
      flags.put(arg, args[++i]);
    }
    Function<String, Optional<String>> value =
        flag -> Optional.ofNullable(flags.get(flag)).or(() -> Optional.ofNullable(env.get(FLAGS.get(flag))))
            .filter(v -> !v.isBlank());
    int port = value.apply("--port").map(v -> parsePort(v)).orElse(DEFAULT_PORT);
    return new Config(
        value.apply("--host").orElse("0.0.0.0"),
        port,
        Path.of(value.apply("--data-dir").orElse("data")),
        value.apply("--lessons-dir").map(Path::of),
        value.apply("--snippets-dir").map(Path::of),
        settings(() -> SandboxSettings.from(name -> value.apply(name))),
        settings(() -> StoreSettings.from(name -> value.apply(name))),
        settings(() -> ClassroomSettings.from(name -> value.apply(name))),
        settings(() -> ShareSettings.from(name -> value.apply(name))),
        settings(() -> OpsSettings.from(name -> value.apply(name))),
        settings(() -> EngineLabSettings.from(name -> value.apply(name))),
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

  /** Flag name to environment variable name; the sandbox adds its own. */
  private static final Map<String, String> FLAGS = flagTable();

  /** The environment variables the app reads (deployment files may set no others for a node). */
  static Set<String> environmentVariables() {
    return Set.copyOf(FLAGS.values());
  }

  private static Map<String, String> flagTable() {
    var table = new LinkedHashMap<String, String>();
    table.put("--port", "PORT");
    table.put("--host", "HOST");
    table.put("--data-dir", "DATA_DIR");
    table.put("--lessons-dir", "LESSONS_DIR");
    table.put("--snippets-dir", "SNIPPETS_DIR");
    table.putAll(SandboxSettings.FLAGS);
    table.putAll(StoreSettings.FLAGS);
    table.putAll(ClassroomSettings.FLAGS);
    table.putAll(ShareSettings.FLAGS);
    table.putAll(OpsSettings.FLAGS);
    table.putAll(EngineLabSettings.FLAGS);
    return Collections.unmodifiableMap(table);
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
