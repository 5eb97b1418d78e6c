package lab.exactlyonce.enginelab;

import io.javalin.http.BadRequestResponse;
import lab.exactlyonce.snippet.SnippetCatalog;

import java.util.List;

/** The scenarios the engine lab offers, in the order the page shows them. */
final class Scenarios {
  static final String SINK_DEMO = "sink-demo";
  static final String OUTBOX_DEMO = "outbox-demo";

  private final List<Scenario> all;

  Scenarios(SnippetCatalog snippets) {
    this.all = List.of(
        new Scenario("seed-crash", "The sink demo's crash",
            "Five orders through a Flink job into an exactly-once and an at-least-once Kafka sink, with the sink"
                + " demo's checkpoint and crash; then three consumers read the topics.",
            SINK_DEMO, snippets.find(SINK_DEMO).map(s -> s.knobs()).orElse(List.of())),
        new Scenario("fencing", "Zombie fencing",
            "Two producers with one transactional.id: the newer one fences the stalled one.", "", List.of()),
        new Scenario("timeout-gotcha", "The transaction-timeout gotcha",
            "An exactly-once sink asking for a longer transaction timeout than the broker allows, then the same"
                + " job with a timeout under it.", "", List.of()),
        new Scenario("outbox-crash", "The outbox demo's crash",
            "Five orders committed to PostgreSQL with their outbox rows and also published directly (the dual write);"
                + " a polling relay or Debezium's PostgreSQL connector carries the outbox to Kafka; one process dies"
                + " at the outbox demo's crash point; three payment consumers charge what they read.",
            OUTBOX_DEMO, snippets.find(OUTBOX_DEMO).map(s -> s.knobs()).orElse(List.of())));
  }

  List<Scenario> all() {
    return all;
  }

  Scenario find(String id) {
    return all.stream().filter(s -> s.id().equals(id)).findFirst().orElseThrow(() -> new BadRequestResponse(
        "unknown scenario '" + (id.length() <= 40 ? id : id.substring(0, 40) + "...") + "'; 'scenario' must be one of: "
            + String.join(", ", all.stream().map(Scenario::id).toList())));
  }
}
