package lab.exactlyonce.sandbox;

import lab.exactlyonce.TestJvm;
import lab.exactlyonce.sandbox.confinement.HostTools;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * What one worker could do to another once past the bytecode allowlist, on both confinement paths this host offers
 * (bubblewrap, and util-linux with the filter the worker loads itself): each row runs a command from the host as the
 * uid of one real worker JVM against another (or against itself, as a process it left behind would), and asserts the
 * kernel refuses. The worker and the warm spare, confined alike, run the real engine.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("sandbox")
class WorkerSiblingsTest {
  static final String WITH_BWRAP = "bubblewrap";
  static final String WITHOUT_BWRAP = "util-linux";
  private final Map<String, Sandbox> sandboxes = new LinkedHashMap<>();

  /** One worker JVM as the host sees it: its pid, uid and its own temporary directory. */
  record Worker(long pid, int uid, Path tmp) {}

  @BeforeAll
  void start() throws InterruptedException {
    for (String path : List.of(WITH_BWRAP, WITHOUT_BWRAP)) {
      var confinement = SandboxSettings.Confinement.parse("hardened", SandboxSettings.Confinement.DEFAULT_WORKER_UIDS,
          path.equals(WITH_BWRAP) ? "auto" : "off");
      // one worker and the warm spare: two JVMs confined alike, the spare's uid its own too
      var settings = TestJvm.sandboxDefaults().withWorkers(1).withSpareWorkers(1).withConfinement(confinement);
      Sandbox sandbox = new Sandbox(settings, HostTools.installed());
      sandboxes.put(path, sandbox);
      assertTrue(sandbox.awaitReady(Duration.ofSeconds(60)), path + ": workers ready");
    }
  }

  @AfterAll
  void stop() {
    sandboxes.values().forEach(Sandbox::close);
  }

  /** The worker and the spare. */
  List<Worker> workers(String path) throws IOException {
    return workers(path, true);
  }

  List<Worker> workers(String path, boolean withSpare) throws IOException {
    Sandbox sandbox = sandboxes.get(path);
    var workers = new ArrayList<Worker>();
    long spare = sandbox.sparePid().orElse(-1);
    for (long pid : sandbox.workerPids()) {
      if (!withSpare && pid == spare) continue;   // it takes no runs until it replaces a worker
      ProcessHandle jvm = Stream.concat(ProcessHandle.of(pid).stream(), ProcessHandle.of(pid).orElseThrow().descendants())
          .filter(p -> p.info().command().map(c -> c.endsWith("/java")).orElse(false)).findFirst().orElseThrow();
      int uid = uidOf(jvm.pid());
      Path tmp;
      try (Stream<Path> dirs = Files.list(sandbox.tempRoot())) {
        tmp = dirs.filter(d -> d.getFileName().toString().startsWith("worker-") && ownerOf(d) == uid).findFirst()
            .orElseThrow(() -> new AssertionError("no temp dir of uid " + uid));
      }
      workers.add(new Worker(jvm.pid(), uid, tmp));
    }
    assertEquals(withSpare ? 2 : 1, workers.size(), path + ": " + workers);
    return workers;
  }

  static Stream<Arguments> attacks() {
    var rows = new ArrayList<Arguments>();
    for (String path : List.of(WITH_BWRAP, WITHOUT_BWRAP)) {
      rows.add(arguments(path, "read a sibling worker's memory map", (Attack) (me, other) ->
          as(me, "cat", "/proc/" + other.pid() + "/maps")));
      rows.add(arguments(path, "read a sibling worker's memory", (Attack) (me, other) ->
          as(me, "dd", "if=/proc/" + other.pid() + "/mem", "bs=1", "count=1", "skip=4194304")));
      if (path.equals(WITHOUT_BWRAP)) {
        // Under bubblewrap no process of a worker's uid lives outside its pid namespace, which dies with it; and the
        // worker's user namespace belongs to that uid, so not being dumpable would not stop one anyway.
        rows.add(arguments(path, "read its own worker's memory from a process it left behind (same uid)",
            (Attack) (me, other) -> as(other, "cat", "/proc/" + other.pid() + "/maps")));
      }
      rows.add(arguments(path, "read a sibling worker's environment", (Attack) (me, other) ->
          as(me, "cat", "/proc/" + other.pid() + "/environ")));
      rows.add(arguments(path, "signal a sibling worker", (Attack) (me, other) ->
          as(me, "kill", "-0", String.valueOf(other.pid()))));
      rows.add(arguments(path, "list a sibling worker's temp dir", (Attack) (me, other) ->
          as(me, "ls", other.tmp().toString())));
      rows.add(arguments(path, "leave a file in a sibling worker's temp dir", (Attack) (me, other) ->
          as(me, "touch", other.tmp().resolve("planted").toString())));
    }
    return rows.stream();
  }

  /** One attack by the worker {@code me} on the worker {@code other}: the command's exit code and output. */
  interface Attack {
    Result by(Worker me, Worker other) throws Exception;
  }

  record Result(int exit, String output) {}

  @ParameterizedTest(name = "{0}: a worker cannot {1}")
  @MethodSource("attacks")
  void a_worker_cannot(String path, String what, Attack attack) throws Exception {
    List<Worker> workers = workers(path);
    Result r = attack.by(workers.get(0), workers.get(1));
    assertNotEquals(0, r.exit(), what + " succeeded: " + r.output());
    assertTrue(r.output().contains("Permission denied") || r.output().contains("Operation not permitted"),
        "refused by the kernel, not failed for another reason: " + r.output());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {WITH_BWRAP, WITHOUT_BWRAP})
  void every_live_worker_runs_as_a_uid_of_its_own_that_is_not_root(String path) throws IOException {
    var uids = new HashSet<Integer>();
    for (Worker w : workers(path)) {
      assertTrue(w.uid() >= 64000 && w.uid() <= 64999, "uid from the range: " + w);
      assertTrue(uids.add(w.uid()), "a uid shared by two workers: " + workers(path));
    }
  }

  /**
   * The two sandboxes here are two app instances on one host left at the same default range: were a uid shared, a
   * worker of one could signal the other's (a process outside a pid namespace sees those inside) and open its temp
   * dir.
   */
  @Test
  void two_app_instances_with_the_same_uid_range_never_give_their_workers_the_same_uid() throws IOException {
    var first = new HashSet<Integer>();
    for (Worker w : workers(WITH_BWRAP)) first.add(w.uid());
    for (Worker w : workers(WITHOUT_BWRAP)) {
      assertFalse(first.contains(w.uid()), "a uid of both instances' workers: " + workers(WITH_BWRAP) + " and "
          + workers(WITHOUT_BWRAP));
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {WITH_BWRAP, WITHOUT_BWRAP})
  void a_workers_temp_dir_is_its_own_and_emptied_after_every_run(String path) throws Exception {
    for (Worker w : workers(path, false)) {
      assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(
          Files.getPosixFilePermissions(w.tmp())), w.toString());
      // what a run could have left there (made as the worker's uid): gone before the next learner's run
      assertEquals(0, as(w, "mkdir", "-p", w.tmp().resolve("a-dir/inside").toString()).exit());
      assertEquals(0, as(w, "touch", w.tmp().resolve("left-by-a-run.txt").toString(),
          w.tmp().resolve("a-dir/inside/deeper.txt").toString()).exit());
    }
    Sandbox sandbox = sandboxes.get(path);
    List<Worker> workers = workers(path, false);
    for (int i = 0; i < 2; i++) {
      var r = sandbox.submit(RunRequest.run("sibling-" + path, "public class Main { public static void "
          + "main(String[] a) { System.out.println(" + i + "); } }")).get(60, TimeUnit.SECONDS);
      assertEquals(i + "\n", r.stdout(), r.toString());
    }
    for (Worker w : workers) {
      try (Stream<Path> left = Files.list(w.tmp())) {
        assertTrue(emptied(w), "left for the next learner in " + w + ": " + left.toList());
      }
    }
  }

  static boolean emptied(Worker w) {
    try (Stream<Path> left = Files.list(w.tmp())) {
      return left.noneMatch(p -> p.getFileName().toString().equals("left-by-a-run.txt")
          || p.getFileName().toString().equals("a-dir"));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Runs a command on the host as the worker's uid and gid, with no capabilities (as a process it started would). */
  static Result as(Worker who, String... command) throws Exception {
    var full = new ArrayList<String>(List.of(HostTools.installed().setpriv().toString(), "--reuid",
        String.valueOf(who.uid()), "--regid", String.valueOf(who.uid()), "--clear-groups", "--inh-caps=-all",
        "--bounding-set=-all"));
    full.addAll(List.of(command));
    Process p = new ProcessBuilder(full).redirectErrorStream(true).start();
    assertTrue(p.waitFor(10, TimeUnit.SECONDS), "finished: " + full);
    return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip());
  }

  static int uidOf(long pid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
      if (line.startsWith("Uid:")) return Integer.parseInt(line.substring(4).trim().split("\\s+")[1]);
    }
    throw new AssertionError("no Uid line for " + pid);
  }

  static int ownerOf(Path p) {
    try {
      return (Integer) Files.getAttribute(p, "unix:uid");
    } catch (IOException e) {
      return -1;
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {WITH_BWRAP, WITHOUT_BWRAP})
  void the_attacks_would_work_on_an_unconfined_process_of_the_same_uid(String path) throws Exception {
    // the rows' commands are able to succeed: as the worker's own uid, against a plain process of that uid
    Worker me = workers(path).get(0);
    Process plain = new ProcessBuilder(HostTools.installed().setpriv().toString(), "--reuid", String.valueOf(me.uid()),
        "--regid", String.valueOf(me.uid()), "--clear-groups", HostTools.find("sleep").toString(), "30").start();
    try {
      // Until setpriv has dropped to the uid and exec'd sleep, the process is root's, or not dumpable after its uid
      // changed: its maps are closed to the uid until then.
      Path comm = Path.of("/proc/" + plain.pid() + "/comm");
      await("setpriv exec'd sleep").atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO)
          .pollInterval(Duration.ofMillis(10)).until(() -> Files.readString(comm).strip().equals("sleep"));
      Result read = as(me, "cat", "/proc/" + plain.pid() + "/maps");
      assertEquals(0, read.exit(), read.output());
      assertFalse(read.output().isEmpty());
    } finally {
      plain.destroyForcibly();
    }
  }
}
