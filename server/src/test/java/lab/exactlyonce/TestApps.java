package lab.exactlyonce;

import lab.exactlyonce.sandbox.Sandbox;

import java.util.EnumMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Warm apps that the test classes of one test JVM share, one per {@link Variant}, started by the first class that asks
 * and stopped when the JVM's tests end ({@link ForkSetup}). A class may share one when its tests only touch what they
 * make themselves (a fresh learner cookie, a fresh class, a fresh share) and assert nothing about the whole app (its
 * metrics totals, who is online, an address's rate limit): those keep an app of their own
 * ({@link TestServer#start(Config)}).
 */
public final class TestApps {
  /** The instructor secret of the {@link Variant#CLASSROOM} app. */
  public static final String INSTRUCTOR_SECRET = "correct-horse-battery-staple";

  /** The configurations classes share. */
  public enum Variant {
    /** {@link TestConfig#defaults()}: bundled lessons, the sandbox engine in this JVM. */
    DEFAULT(TestConfig::defaults),
    /** The default with an instructor secret, {@link #INSTRUCTOR_SECRET}. */
    CLASSROOM(() -> {
      Config config = TestConfig.defaults();
      return config.withClassroom(config.classroom().withInstructorSecret(INSTRUCTOR_SECRET));
    });

    private final Supplier<Config> config;

    Variant(Supplier<Config> config) {
      this.config = config;
    }
  }

  private static final Map<Variant, TestServer> APPS = new EnumMap<>(Variant.class);

  private TestApps() {}

  /** The test JVM's warm app of {@code variant}, started now if no class asked for it before. */
  public static synchronized TestServer shared(Variant variant) {
    return APPS.computeIfAbsent(variant,
        v -> SharedFixtures.make("app-" + v.name().toLowerCase(Locale.ROOT), () -> {
          TestServer app = TestServer.startShared(v.config.get());
          return app;
        }));
  }

  /** The process ids of the shared apps' sandbox workers (which outlive any one class). */
  static synchronized Set<Long> workerPids() {
    Set<Long> pids = new HashSet<>();
    for (TestServer app : APPS.values()) {
      if (app.app().sandbox() instanceof Sandbox real) pids.addAll(real.workerPids());
    }
    return pids;
  }

  static synchronized void closeAll() {
    for (TestServer app : APPS.values()) app.closeShared();
    APPS.clear();
  }
}
