package lab.exactlyonce.bench;

import lab.exactlyonce.App;
import lab.exactlyonce.Config;
import lab.exactlyonce.TestServer;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The classroom load program: one instructor and N simulated students on one machine.
 * <pre>mvn -q -B test-compile exec:exec -Dexec.args="-cp %classpath lab.exactlyonce.bench.ClassroomLoad --students 300"</pre>
 * Starts the app (or targets a running one with {@code --url http://host:port --instructor-secret ...}), signs in
 * as the instructor, creates a class, joins N students (each from its own loopback address 127.0.x.y, because joins
 * are rate-limited per address), and holds one live SSE stream per student, all on one thread ({@link SseHub}).
 * The instructor pushes {@code --questions} questions; every student answers each question as it arrives, with a
 * client event id, and a share of students deliberately resend that same answer (at once, concurrently, and again
 * after the acknowledgement). Prints push-to-receive latency (p50, p99, max) and answers recorded per second as a
 * Markdown table, then reads the class's CSV export as the instructor and checks that every answer is on it exactly
 * once (warm-up questions, {@code --warmup}, default 1, are checked too but not timed). Exits 1 if any answer was
 * lost or doubled, or any student missed a question.
 */
public final class ClassroomLoad {
  /** What to run. */
  /**
   * @param nodes app nodes to start, as processes on one PostgreSQL database ({@code jdbcUrl}), behind a
   *     {@link FailoverProxy}; 1 runs the app in this process on embedded H2
   * @param killAfter the question (1 = the first timed one) right after whose push the last node is killed with
   *     SIGKILL, its students reconnecting through the proxy to the others; 0 kills none
   */
  public record Options(int students, Optional<String> url, Optional<String> instructorSecret, int questions,
                        long pauseMillis, double duplicateShare, String lesson, int warmup, int nodes,
                        Optional<String> jdbcUrl, int killAfter) {
    public Options {
      if (students < 1 || students > 60_000) throw new IllegalArgumentException("--students must be 1..60000, got " + students);
      if (warmup < 0) throw new IllegalArgumentException("--warmup must be 0 or more, got " + warmup);
      if (questions < 1) throw new IllegalArgumentException("--questions must be at least 1, got " + questions);
      if (duplicateShare < 0 || duplicateShare > 1) {
        throw new IllegalArgumentException("--duplicates must be between 0 and 1, got " + duplicateShare);
      }
      if (nodes < 1 || nodes > 8) throw new IllegalArgumentException("--nodes must be 1..8, got " + nodes);
      if (nodes > 1 && jdbcUrl.isEmpty()) {
        throw new IllegalArgumentException("--nodes " + nodes + " needs --jdbc-url (a PostgreSQL database they share)");
      }
      if (nodes > 1 && url.isPresent()) throw new IllegalArgumentException("--nodes starts its own nodes: drop --url");
      if (killAfter < 0 || killAfter > questions) {
        throw new IllegalArgumentException("--kill-after must be 0 (none) to " + questions + ", got " + killAfter);
      }
      if (killAfter > 0 && nodes < 2) throw new IllegalArgumentException("--kill-after needs --nodes 2 or more");
    }

    public static Options defaults(int students) {
      return new Options(students, Optional.empty(), Optional.empty(), 10, 500, 0.1, "exactly-once", 1, 1,
          Optional.empty(), 0);
    }

    /** These options on {@code count} nodes sharing {@code jdbcUrl}, the last killed after question {@code kill}. */
    public Options onNodes(int count, String jdbcUrl, int kill) {
      return new Options(students, url, instructorSecret, questions, pauseMillis, duplicateShare, lesson, warmup, count,
          Optional.of(jdbcUrl), kill);
    }

    static Options parse(String[] args, Map<String, String> env) {
      Map<String, String> flags = new HashMap<>();
      Set<String> known = Set.of("--students", "--url", "--instructor-secret", "--questions", "--pause-ms",
          "--duplicates", "--lesson", "--warmup", "--nodes", "--jdbc-url", "--kill-after");
      for (int i = 0; i < args.length; i++) {
        if (!known.contains(args[i])) {
          throw new IllegalArgumentException("unknown option '" + args[i] + "'; known: " + String.join(", ", known));
        }
        if (i + 1 >= args.length) throw new IllegalArgumentException("option '" + args[i] + "' needs a value");
        flags.put(args[i], args[++i]);
      }
      Options d = defaults(Integer.parseInt(flags.getOrDefault("--students", "300")));
      return new Options(d.students(), Optional.ofNullable(flags.get("--url")),
          Optional.ofNullable(flags.getOrDefault("--instructor-secret", env.get("INSTRUCTOR_SECRET"))),
          Integer.parseInt(flags.getOrDefault("--questions", String.valueOf(d.questions()))),
          Long.parseLong(flags.getOrDefault("--pause-ms", String.valueOf(d.pauseMillis()))),
          Double.parseDouble(flags.getOrDefault("--duplicates", String.valueOf(d.duplicateShare()))),
          flags.getOrDefault("--lesson", d.lesson()),
          Integer.parseInt(flags.getOrDefault("--warmup", String.valueOf(d.warmup()))),
          Integer.parseInt(flags.getOrDefault("--nodes", "1")),
          Optional.ofNullable(flags.getOrDefault("--jdbc-url", env.get("JDBC_URL"))),
          Integer.parseInt(flags.getOrDefault("--kill-after", "0")));
    }
  }

  /** What was measured and verified. */
  public record Result(int students, int connected, int questions, LatencyStats pushToReceive, int missedQuestions,
                       int answersSent, int answersAcknowledged, double answersPerSecond, int duplicateResends,
                       int resendsAnsweredDifferently, int failedSends, int lost, int doubled, int unexpected,
                       int reconnects) {

    /** Zero lost, zero doubled, every student got every question, every answer acknowledged. */
    public boolean ok() {
      return connected == students && missedQuestions == 0 && lost == 0 && doubled == 0 && unexpected == 0
          && failedSends == 0 && answersAcknowledged == answersSent;
    }

    public String table() {
      return "| students | live streams | questions | push→receive p50 | p99 | max | answers recorded | answers/s "
          + "| duplicate resends | resends answered differently | lost | doubled |\n"
          + "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
          + String.format(Locale.ROOT, "| %d | %d | %d | %s | %s | %s | %d | %.0f | %d | %d | %d | %d |", students,
          connected, questions, LatencyStats.format(pushToReceive.p50Millis()),
          LatencyStats.format(pushToReceive.p99Millis()), LatencyStats.format(pushToReceive.maxMillis()),
          answersAcknowledged, answersPerSecond, duplicateResends, resendsAnsweredDifferently, lost, doubled);
    }
  }

  public static void main(String[] args) throws Exception {
    Options options;
    try {
      options = Options.parse(args, System.getenv());
    } catch (IllegalArgumentException e) {
      System.err.println("classroom-load: " + e.getMessage());
      System.exit(2);
      return;
    }
    Result result = run(options, System.out);
    System.out.println();
    System.out.println(result.table());
    System.out.println();
    System.out.println(result.ok() ? "OK: every answer recorded exactly once."
        : "FAILED: " + result.lost() + " lost, " + result.doubled() + " doubled, " + result.unexpected()
        + " unexpected, " + result.missedQuestions() + " questions not received, " + result.failedSends()
        + " sends failed.");
    System.exit(result.ok() ? 0 : 1);
  }

  /** Runs the whole scenario; progress lines go to {@code log}. */
  public static Result run(Options options, PrintStream log) throws Exception {
    if (options.nodes() > 1) return onNodes(options, System.getenv(), log);
    App app = null;
    String secret;
    String base;
    if (options.url().isPresent()) {
      base = options.url().get().replaceAll("/+$", "");
      secret = options.instructorSecret().orElseThrow(() -> new IllegalArgumentException(
          "--url needs the instructor secret: --instructor-secret or INSTRUCTOR_SECRET"));
    } else {
      secret = randomSecret();
      Path data = Files.createTempDirectory("eolab-load-");
      app = new App(Config.from(new String[] {"--host", "127.0.0.1", "--port", "0", "--data-dir", data.toString(),
          "--instructor-secret", secret, "--request-log", "off"}, Map.of())).start();
      base = "http://127.0.0.1:" + app.port();
      log.println("started the app at " + base + " (data in " + data + ")");
    }
    try {
      return new ClassroomRun(options, base, secret, log, question -> { }).execute();
    } finally {
      if (app != null) app.stop();
    }
  }

  /**
   * The scenario on {@code options.nodes()} app processes sharing one PostgreSQL database ({@code JDBC_USER} and
   * {@code JDBC_PASSWORD} from {@code env}), students spread over them by a {@link FailoverProxy}; the last node is
   * killed right after the push of question {@code killAfter}, if any.
   */
  public static Result onNodes(Options options, Map<String, String> env, PrintStream log) throws Exception {
    String secret = randomSecret();
    Map<String, String> nodeEnv = new HashMap<>();
    nodeEnv.put("JDBC_URL", options.jdbcUrl().orElseThrow());
    nodeEnv.put("JDBC_USER", env.getOrDefault("JDBC_USER", ""));
    nodeEnv.put("JDBC_PASSWORD", env.getOrDefault("JDBC_PASSWORD", ""));
    nodeEnv.put("INSTRUCTOR_SECRET", secret);
    nodeEnv.put("REQUEST_LOG", "off");
    nodeEnv.put("SANDBOX_WORKERS", "1");   // no sandbox runs here: the nodes' workers would only take the cores
    List<TestServer> nodes = new ArrayList<>();
    try {
      for (int i = 0; i < options.nodes(); i++) nodes.add(TestServer.startProcess(nodeEnv));
      try (FailoverProxy proxy = new FailoverProxy(nodes.stream()
          .map(n -> new InetSocketAddress("127.0.0.1", n.port())).toList())) {
        String base = "http://127.0.0.1:" + proxy.port();
        log.println("started " + nodes.size() + " nodes (ports " + nodes.stream().map(n -> String.valueOf(n.port()))
            .toList() + ") on one database, behind " + base);
        TestServer victim = nodes.get(nodes.size() - 1);
        return new ClassroomRun(options, base, secret, log, question -> {
          if (question != options.killAfter()) return;
          try {
            victim.kill();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          log.println("killed the node on port " + victim.port() + " (SIGKILL) right after the push of question "
              + question);
        }).execute();
      }
    } finally {
      for (TestServer node : nodes) node.close();
    }
  }

  private static String randomSecret() {
    byte[] bytes = new byte[18];
    new SecureRandom().nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** The source address of student {@code i}: 127.0.1.1, 127.0.1.2, ... (250 per /24). */
  static String address(int i) {
    return "127.0." + (1 + i / 250) + "." + (1 + i % 250);
  }
}
