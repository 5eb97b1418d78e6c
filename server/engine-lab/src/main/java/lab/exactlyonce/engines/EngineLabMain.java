package lab.exactlyonce.engines;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The engine lab process. It reads one request a line on stdin, {@code {"scenario": "...", "knobs": {...}}}, runs it
 * on the embedded Kafka broker and Flink MiniCluster (started by the first request, kept for the next), and answers
 * on stdout with JSON lines: {@code {"phase": "..."}} as it goes, then {@code {"result": {...}}} or
 * {@code {"failed": "..."}}. It ends when stdin closes. Only this class writes to stdout: everything the engines
 * print goes to stderr.
 */
public final class EngineLabMain {
  private EngineLabMain() {}

  public static void main(String[] args) throws Exception {
    if (System.getProperty("log4j2.configurationFile") == null) {
      System.setProperty("log4j2.configurationFile", "classpath:engine-lab-log4j2.xml");
    }
    TransactionLog.install();
    PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
    System.setOut(System.err);
    ObjectMapper json = new ObjectMapper();
    Consumer<Map<String, Object>> send = message -> {
      try {
        protocol.println(json.writeValueAsString(message));
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    };
    try (Engines engines = new Engines();
         BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (line.isBlank()) continue;
        String run = RunName.next();
        try {
          JsonNode request = json.readTree(line);
          long start = System.nanoTime();
          Map<String, Object> result = scenario(request).run(engines, run, phase -> send.accept(Map.of("phase", phase)));
          result.put("ms", (System.nanoTime() - start) / 1_000_000); // including any engine start it needed
          result.put("runName", run); // what its topics and transactional ids carry, to show they differ per run
          send.accept(Map.of("result", result));
        } catch (Exception e) {
          e.printStackTrace();
          // The exception's class when it has no message: "null" said nothing, and the log goes with the temp dir.
          send.accept(Map.of("failed", e.getMessage() != null ? e.getMessage() : e.getClass().getName()));
        }
        try {
          engines.deleteTopics(); // after the answer: the learner does not wait for it
        } catch (Exception e) {
          e.printStackTrace(); // the next run makes its own topics anyway
        }
      }
    }
    System.exit(0); // the engines leave non-daemon threads behind
  }

  interface Scenario {
    Map<String, Object> run(Engines engines, String run, Consumer<String> phase) throws Exception;
  }

  static Scenario scenario(JsonNode request) {
    String name = request.path("scenario").asText("");
    JsonNode knobs = request.path("knobs");
    return switch (name) {
      case "seed-crash" -> new SeedCrash(new SeedCrash.Knobs(number(knobs, "CRASH_AFTER", 4),
          number(knobs, "CHECKPOINT_AFTER", 2), knobs.path("CRASH_BEFORE_COMPLETE").asBoolean(false),
          knobs.path("CRASH_BEFORE_COMMIT").asBoolean(false)))::run;
      case "outbox-crash" -> new OutboxCrash(new OutboxCrash.Knobs(range(knobs, "CRASH_POINT", 2, 3),
          range(knobs, "CRASH_AT", 3, Orders.COUNT), knobs.path("CDC").asBoolean(false),
          range(knobs, "INBOX_TTL", 10, 10)))::run;
      case "fencing" -> new Fencing()::run;
      case "timeout-gotcha" -> new TimeoutGotcha()::run;
      case "start" -> (engines, run, phase) -> { // a fresh process the app renews readies its engines before runs
        engines.bootstrapServers(phase);
        engines.flink(phase);
        return new HashMap<>();
      };
      default -> throw new IllegalArgumentException("unknown scenario '" + name + "'");
    };
  }

  private static int range(JsonNode knobs, String name, int fallback, int max) {
    int value = knobs.path(name).asInt(fallback);
    if (value < 1 || value > max) throw new IllegalArgumentException(name + " must be between 1 and " + max);
    return value;
  }

  private static int number(JsonNode knobs, String name, int fallback) {
    int value = knobs.path(name).asInt(fallback);
    if (value < 1 || value > Orders.COUNT) throw new IllegalArgumentException(name + " must be between 1 and 5");
    return value;
  }
}
