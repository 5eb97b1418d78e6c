package lab.exactlyonce;

import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.awaitility.Awaitility.await;

/**
 * Fails a test class that leaves behind what the next class in the same test JVM would inherit: an app it started
 * and did not close, a worker or other process of its own, a browser context, or a thread. What the JVM's shared
 * fixtures run ({@link TestApps}, {@link Browsers}) and the JDK's own pools are not the class's. Things that end
 * asynchronously (a stopped app's threads, a killed worker) get a few seconds to end. Registered for every class
 * through {@code META-INF/services/org.junit.jupiter.api.extension.Extension}.
 */
public final class LeakCheck implements BeforeAllCallback, AfterAllCallback {
  private static final Duration SETTLE = Duration.ofSeconds(15);
  /** Threads the JDK and the test tools start and keep (pools that end with their owner's collection, or never). */
  private static final List<String> JDK_THREADS = List.of("HttpClient-", "ForkJoinPool.commonPool-", "process reaper",
      "Common-Cleaner", "Attach Listener", "Signal Dispatcher", "Reference Handler", "Finalizer", "Notification Thread",
      "junit-jupiter-timeout-watcher", "surefire-forkedjvm-", "CompletableFutureDelayScheduler", "awaitility",
      "Keep-Alive-Timer", "Keep-Alive-SocketCleaner", "JNA Cleaner", "Timer-",
      // The in-process sandbox engine's compiler pool is one per JVM (static); its idle threads end after a minute.
      "snippet-compiler",
      // java.lang.ref.Cleaner's thread, made once per JVM by a library (the PostgreSQL driver's connections).
      "Cleaner-");
  private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(LeakCheck.class);

  private record Before(Set<Long> threads, Set<Long> processes) {}

  @Override
  public void beforeAll(ExtensionContext context) {
    if (nested(context)) return;
    context.getStore(NS).put("before", new Before(threadIds(), processIds()));
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (nested(context)) return;
    Before before = context.getStore(NS).get("before", Before.class);
    List<String> left = new ArrayList<>();
    for (TestServer app : TestServer.open()) {
      left.add("an app it did not close (port " + app.port() + ")");
      app.close();
    }
    if (Browsers.openContexts() > 0) left.add(Browsers.openContexts() + " browser context(s) it did not close");
    List<String> threads = new ArrayList<>();
    List<String> processes = new ArrayList<>();
    try {
      await().atMost(SETTLE).pollInterval(Duration.ofMillis(50)).until(() -> {
        threads.clear();
        threads.addAll(newThreads(before.threads()));
        processes.clear();
        processes.addAll(newProcesses(before.processes()));
        return threads.isEmpty() && processes.isEmpty();
      });
    } catch (ConditionTimeoutException e) {
      if (!threads.isEmpty()) left.add("threads " + threads);
      if (!processes.isEmpty()) left.add("processes " + processes);
    }
    if (!left.isEmpty()) {
      throw new AssertionError(context.getRequiredTestClass().getSimpleName() + " left behind: "
          + String.join("; ", left));
    }
  }

  /** A {@code @Nested} group runs inside its outer class, with what that started: the outer class is checked. */
  private static boolean nested(ExtensionContext context) {
    return context.getRequiredTestClass().isAnnotationPresent(Nested.class);
  }

  private static Set<Long> threadIds() {
    return Thread.getAllStackTraces().keySet().stream().map(Thread::getId).collect(Collectors.toSet());
  }

  private static List<String> newThreads(Set<Long> before) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && !before.contains(t.getId()) && !SharedFixtures.owns(t))
        .filter(t -> JDK_THREADS.stream().noneMatch(t.getName()::startsWith))
        .map(Thread::getName).sorted().toList();
  }

  private static Set<Long> processIds() {
    return ProcessHandle.current().descendants().map(ProcessHandle::pid).collect(Collectors.toSet());
  }

  /** Processes this JVM started during the class that still run, but for the shared fixtures' and their children. */
  private static List<String> newProcesses(Set<Long> before) {
    Set<Long> shared = TestApps.workerPids();
    return ProcessHandle.current().descendants()
        .filter(p -> p.isAlive() && !before.contains(p.pid()) && !ownedByShared(p, shared))
        .map(p -> p.pid() + " " + p.info().command().orElse("?")).toList();
  }

  /** Whether {@code p} is a shared app's worker, the shared browser's driver or Chromium, or runs under one. */
  private static boolean ownedByShared(ProcessHandle p, Set<Long> sharedWorkers) {
    long self = ProcessHandle.current().pid();
    for (ProcessHandle h = p; h != null && h.pid() != self; h = h.parent().orElse(null)) {
      if (sharedWorkers.contains(h.pid())) return true;
      String command = h.info().command().orElse("");
      if (command.endsWith("/node") || command.contains("chromium") || command.contains("playwright")) return true;
    }
    return false;
  }
}
