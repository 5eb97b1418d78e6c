package lab.exactlyonce.enginelab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The engine lab JVM's footprint over many runs, as a class keeps it warm through a lesson: the three scenarios in
 * turn ({@code --runs}, 100 by default) on one engine process, sampling its resident memory, its Java heap after a
 * full GC ({@code jcmd}), its threads and the disk its broker and cluster use, at the first run and at every tenth.
 * Memory that keeps growing with the runs is a leak a whole day of classes would hit; memory that levels off is the
 * engines' working set. Needs the engine jar ({@code mvn -B package} builds it). With
 * {@code JAVA_TOOL_OPTIONS=-XX:NativeMemoryTracking=summary} in the environment (the engine process inherits it) it
 * ends with where the JVM's native memory grew from the tenth run to the last.
 *
 * <pre>mvn -q -B test-compile exec:exec -Dexec.args="-cp %classpath lab.exactlyonce.enginelab.EngineMemory [--runs N] [--jar PATH]"</pre>
 */
public final class EngineMemory {
  private static final List<String> SCENARIOS = List.of("seed-crash", "fencing", "timeout-gotcha");

  private EngineMemory() {}

  public static void main(String[] args) throws Exception {
    int runs = 100;
    Path jar = Path.of("target/engine-lab/exactly-once-engine-lab.jar");
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--runs" -> runs = Integer.parseInt(args[i + 1]);
        case "--jar" -> jar = Path.of(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown option " + args[i] + ": --runs N, --jar PATH");
      }
    }
    if (!Files.isRegularFile(jar)) throw new IllegalStateException(jar + " is missing: mvn -B package builds it");
    EngineLabSettings settings = EngineLabSettings.disabled().enabledWith(jar);
    System.out.printf(Locale.ROOT, "engine process: -Xmx%dm, %d runs of %s in turn%n%n", settings.maxHeapMb(), runs, SCENARIOS);
    System.out.println("| run | scenario | run ms | RSS MB | RSS MB after full GC | heap used MB after GC | threads | disk MB |");
    System.out.println("|---|---|---|---|---|---|---|---|");
    boolean nativeBaseline = false;
    try (EngineProcess engines = new EngineProcess(settings)) {
      for (int run = 1; run <= runs; run++) {
        String scenario = SCENARIOS.get((run - 1) % SCENARIOS.size());
        long start = System.nanoTime();
        engines.run(scenario, Map.of(), phase -> { });
        long ms = (System.nanoTime() - start) / 1_000_000;
        if (run == 1 || run % 10 == 0) {
          long pid = engines.pid().orElseThrow(() -> new IllegalStateException("the engine process ended"));
          double rss = rssMb(pid);
          String heap = jcmd(pid, "GC.run") + jcmd(pid, "GC.heap_info");
          System.out.printf(Locale.ROOT, "| %d | %s | %d | %.0f | %.0f | %s | %d | %.1f |%n", run, scenario, ms, rss,
              rssMb(pid), heapUsedMb(heap), threads(pid), diskMb(pid));
          if (run == 10) nativeBaseline = !jcmd(pid, "VM.native_memory baseline").contains("not enabled");
          if (run == runs && nativeBaseline) {
            System.out.println("\nNative memory committed since run 10, by category (JVM Native Memory Tracking):");
            jcmd(pid, "VM.native_memory summary.diff").lines().filter(l -> l.startsWith("-") || l.startsWith("Total"))
                .forEach(System.out::println);
          }
        }
      }
    }
  }

  private static double rssMb(long pid) throws IOException {
    return Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream().filter(l -> l.startsWith("VmRSS:"))
        .mapToLong(l -> Long.parseLong(l.replaceAll("\\D", ""))).findFirst().orElseThrow() / 1024.0;
  }

  private static long threads(long pid) throws IOException {
    try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
      return tasks.count();
    }
  }

  /**
   * The disk its working directory (its own temp dir: the broker's logs, Flink's blobs) takes, as {@code du} counts it:
   * the broker's index files are sparse, so their length says little.
   */
  private static double diskMb(long pid) throws IOException, InterruptedException {
    Path dir = Path.of("/proc/" + pid + "/cwd").toRealPath();
    // a file the broker removes while du walks is an error line, not a figure
    Process du = new ProcessBuilder("du", "-sk", dir.toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String out = new String(du.getInputStream().readAllBytes()).trim();
    du.waitFor(60, TimeUnit.SECONDS);
    return Long.parseLong(out.split("\\s+")[0]) / 1024.0;
  }

  /** The serial collector's "used" figures of its generations, summed, from {@code GC.heap_info}. */
  private static String heapUsedMb(String heapInfo) {
    var used = Pattern.compile("(?m)^\\s*(?:def new generation|tenured generation)\\s+total \\d+K, used (\\d+)K")
        .matcher(heapInfo);
    long kb = 0;
    while (used.find()) kb += Long.parseLong(used.group(1));
    return String.format(Locale.ROOT, "%.0f", kb / 1024.0);
  }

  private static String jcmd(long pid, String command) throws IOException, InterruptedException {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    if (!p.waitFor(60, TimeUnit.SECONDS)) p.destroyForcibly();
    return out;
  }
}
