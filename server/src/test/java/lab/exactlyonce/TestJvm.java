package lab.exactlyonce;

import lab.exactlyonce.sandbox.SandboxSettings;

import java.util.Optional;

/**
 * How the tests start other JVMs (sandbox workers, app nodes): C1 only. Such a JVM lives seconds, and on two cores
 * C2's compiler threads cost more than they win back in that time: a sandbox worker's start took 5.6 s of CPU with
 * them and 3.3 s without. Production workers keep C2; they live for a class period, and the tests of the run limits
 * (RealSandboxTest) start them as production does.
 */
public final class TestJvm {
  public static final String C1_ONLY = "-XX:TieredStopAtLevel=1";

  private TestJvm() {}

  /**
   * The sandbox's defaults, with workers started on {@link #C1_ONLY} through the app's own worker-flags option, and
   * no warm spare: a spare is one more JVM to warm up for every sandbox a test starts, and only the tests of the spare
   * (the pool's, the isolation and sibling tables) ask for it.
   */
  public static SandboxSettings sandboxDefaults() {
    return SandboxSettings.from(option -> switch (option.flag()) {
      case "--sandbox-worker-jvm-flags" -> Optional.of(C1_ONLY);
      case "--sandbox-spare-workers" -> Optional.of("0");
      default -> Optional.empty();
    });
  }
}
