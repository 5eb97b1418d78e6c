package lab.exactlyonce.sandbox;

import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Every sandbox limit in one place. (Skeleton: the sandbox feature owns and extends this record.)
 */
public record SandboxSettings(int workers) {

  /** Flag name to environment variable name, merged into the app's option table. */
  public static final Map<String, String> FLAGS = Map.of("--sandbox-workers", "SANDBOX_WORKERS");

  public static SandboxSettings defaults() {
    return new SandboxSettings(2);
  }

  public static SandboxSettings from(Function<String, Optional<String>> option) {
    return new SandboxSettings(option.apply("--sandbox-workers").map(Integer::parseInt).orElse(2));
  }
}
