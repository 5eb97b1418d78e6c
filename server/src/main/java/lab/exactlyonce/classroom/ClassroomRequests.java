package lab.exactlyonce.classroom;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.Context;
import lab.exactlyonce.web.JsonRequests;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** Reading the classroom's JSON request bodies: the fields a request may have, and each field's type. */
final class ClassroomRequests {
  private static final int MAX_BODY = 4096;

  private ClassroomRequests() {}

  /** The body as an object with no field outside {@code fields}. */
  static ObjectNode body(Context ctx, Set<String> fields) {
    ObjectNode body = JsonRequests.object(ctx, MAX_BODY);
    List<String> unknown = new ArrayList<>();
    body.fieldNames().forEachRemaining(f -> { if (!fields.contains(f)) unknown.add(f); });
    if (!unknown.isEmpty()) {
      throw new BadRequestResponse("unknown field '" + unknown.get(0) + "'; expected " + String.join(", ", new TreeSet<>(fields)));
    }
    return body;
  }

  static String text(ObjectNode body, String field) {
    JsonNode v = body.get(field);
    if (v == null || v.isNull()) return null;
    if (!v.isTextual()) throw new BadRequestResponse("'" + field + "' must be a string, got " + v);
    return v.asText();
  }

  static boolean bool(ObjectNode body, String field) {
    JsonNode v = body.get(field);
    if (v == null || v.isNull()) return false;
    if (!v.isBoolean()) throw new BadRequestResponse("'" + field + "' must be true or false, got " + v);
    return v.booleanValue();
  }

  static Integer integer(ObjectNode body, String field) {
    JsonNode v = body.get(field);
    if (v == null || v.isNull()) return null;
    if (!(v.isIntegralNumber() && v.canConvertToInt())) throw new BadRequestResponse("'" + field + "' must be a whole number, got " + v);
    return v.intValue();
  }

  /** The {@code held} list of {@code PUT .../holds}: ladder question ids. */
  static List<String> ladderIds(ObjectNode body, String field) {
    JsonNode held = body.get(field);
    if (held == null || !held.isArray()) {
      throw new BadRequestResponse("'" + field + "' must be a list of ladder question ids, such as [\"L1\", \"L2\"]");
    }
    List<String> items = new ArrayList<>();
    for (JsonNode item : held) {
      if (!item.isTextual()) throw new BadRequestResponse("'" + field + "' must be a list of ladder question ids, got " + item);
      items.add(item.asText());
    }
    return items;
  }
}
