package lab.exactlyonce.ops;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import lab.exactlyonce.sandbox.SandboxService;
import lab.exactlyonce.sandbox.confinement.ConfinementLevel;
import lab.exactlyonce.sandbox.engine.Outcome;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * The sandbox's figures: runs finished by outcome ({@code eolab_sandbox_runs_total{outcome=...}}), runs waiting
 * for a worker, workers busy and workers configured, and the confinement level the self-check found
 * ({@code eolab_sandbox_confinement{level="hardened"} 1}).
 */
final class SandboxMeters {
  private SandboxMeters() {}

  static void bind(SandboxService sandbox, MeterRegistry registry) {
    Map<Outcome, Counter> runs = new EnumMap<>(Outcome.class);
    for (Outcome outcome : Outcome.values()) {
      runs.put(outcome, Counter.builder("eolab.sandbox.runs")
          .description("Sandbox runs finished, by outcome")
          .tag("outcome", outcome.name().toLowerCase(Locale.ROOT))
          .register(registry));
    }
    sandbox.onFinished(result -> runs.get(result.status()).increment());
    Gauge.builder("eolab.sandbox.queue.depth", sandbox, SandboxService::waitingRuns)
        .description("Sandbox runs waiting for a worker").register(registry);
    Gauge.builder("eolab.sandbox.workers.busy", sandbox, SandboxService::busyWorkers)
        .description("Sandbox workers running a snippet now").register(registry);
    Gauge.builder("eolab.sandbox.workers", sandbox, SandboxService::workers)
        .description("Sandbox workers configured").register(registry);
    for (ConfinementLevel level : ConfinementLevel.values()) {
      Gauge.builder("eolab.sandbox.confinement", sandbox, s -> s.confinementLevel().equals(level.id()) ? 1 : 0)
          .description("1 for the OS confinement level the sandbox's workers run at (after its self-check)")
          .tag("level", level.id()).register(registry);
    }
  }
}
