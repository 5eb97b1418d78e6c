package lab.exactlyonce.enginelab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.BadRequestResponse;
import lab.exactlyonce.snippet.BooleanKnob;
import lab.exactlyonce.snippet.Knob;
import lab.exactlyonce.snippet.KnobSettings;
import lab.exactlyonce.snippet.NumberKnob;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A scenario the engine lab runs on the real engines, with the knobs it takes. The seed's crash takes the sink
 * demo's knobs (names, ranges and defaults come from that snippet's header), so the simulation and the real run are
 * set the same way.
 *
 * @param simulation the sandbox snippet the real run is compared with, or empty
 */
record Scenario(String id, String title, String summary, String simulation, List<Knob> knobs) {

  /**
   * Every knob's value for one run, checked and with defaults filled in, in name order: the cache key, so the same
   * settings sent in any order or with defaults left out share one run.
   */
  Map<String, Object> knobValues(ObjectNode given) {
    Map<String, Object> values = new TreeMap<>();
    for (Knob knob : knobs) values.put(knob.name(), defaultOf(knob));
    if (given == null) return values;
    for (Iterator<Map.Entry<String, JsonNode>> it = given.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = it.next();
      Knob knob = knobs.stream().filter(k -> k.name().equals(entry.getKey())).findFirst()
          .orElseThrow(() -> new BadRequestResponse("unknown knob '" + shown(entry.getKey()) + "' of scenario '" + id
              + "'; " + (knobs.isEmpty() ? "it takes no knobs"
              : "the knobs are " + String.join(", ", knobs.stream().map(Knob::name).toList()))));
      try {
        values.put(knob.name(), knob.accept("knob '" + knob.name() + "' of scenario '" + id + "'", entry.getValue()));
      } catch (KnobSettings.Refused refused) {
        throw new BadRequestResponse(refused.getMessage());
      }
    }
    return values;
  }

  private static Object defaultOf(Knob knob) {
    if (knob instanceof NumberKnob n) return n.type().equals("int") ? (Object) (int) n.defaultValue() : n.defaultValue();
    return ((BooleanKnob) knob).defaultValue();
  }

  private static String shown(String name) {
    return name.length() <= 40 ? name : name.substring(0, 40) + "...";
  }
}
