package lab.exactlyonce.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.BadRequestResponse;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The fields of one JSON object of a request, read by name and type. Made by {@link JsonRequests#read} (the body)
 * or {@link #of} (an object inside it, such as an event's {@code data}); either way every field the object has was
 * checked against the allowed ones first. Each reader throws {@link BadRequestResponse} (400) in one style, naming
 * the field by its path in the request:
 * <ul>
 *   <li>{@code unknown field 'lang'; the fields are 'source', 'snippet' and 'params'}</li>
 *   <li>{@code 'source' is required}</li>
 *   <li>{@code 'data.choice' must be a whole number, got "b"}</li>
 * </ul>
 * A field sent as JSON {@code null} counts as absent. Rules about a value itself (a range, a format) are the
 * caller's; {@link #path} names the field in the same way for those messages.
 */
public final class JsonFields {
  private static final int MAX_SHOWN = 60;

  private final ObjectNode node;
  private final String prefix;

  private JsonFields(ObjectNode node, String prefix) {
    this.node = node;
    this.prefix = prefix;
  }

  /**
   * The fields of {@code node}, which sits at {@code path} in the request ({@code ""} for the body itself).
   *
   * @param allowed every field the object may have, in the order the message lists them
   * @throws BadRequestResponse (400) naming every field not in {@code allowed}
   */
  public static JsonFields of(ObjectNode node, String path, List<String> allowed) {
    JsonFields fields = new JsonFields(node, path.isEmpty() ? "" : path + ".");
    fields.refuseUnknown(path, allowed);
    return fields;
  }

  /** How messages name {@code field}: {@code data.rating} for the field {@code rating} of {@code data}. */
  public String path(String field) {
    return prefix + field;
  }

  /** Whether the field is there with a value other than {@code null}. */
  public boolean has(String field) {
    JsonNode value = node.get(field);
    return value != null && !value.isNull();
  }

  /** Refuses a request without the field; a {@code null} value is there (for fields where null means "clear"). */
  public void required(String field) {
    if (!node.has(field)) throw missing(field);
  }

  public String text(String field) {
    return optionalText(field).orElseThrow(() -> missing(field));
  }

  public Optional<String> optionalText(String field) {
    return value(field).map(v -> {
      if (!v.isTextual()) throw wrongType(field, "a string", v);
      return v.textValue();
    });
  }

  public int integer(String field) {
    return optionalInteger(field).orElseThrow(() -> missing(field));
  }

  public Optional<Integer> optionalInteger(String field) {
    return value(field).map(v -> {
      if (!v.isIntegralNumber() || !v.canConvertToInt()) throw wrongType(field, "a whole number", v);
      return v.intValue();
    });
  }

  public Optional<Long> optionalLong(String field) {
    return value(field).map(v -> {
      if (!v.isIntegralNumber() || !v.canConvertToLong()) throw wrongType(field, "a whole number", v);
      return v.longValue();
    });
  }

  public Optional<Boolean> optionalBool(String field) {
    return value(field).map(v -> {
      if (!v.isBoolean()) throw wrongType(field, "true or false", v);
      return v.booleanValue();
    });
  }

  /** A list of whole numbers of at most {@code maxItems}. */
  public Optional<List<Integer>> optionalIntegers(String field, int maxItems) {
    return optionalList(field, "whole numbers", maxItems, v -> v.isIntegralNumber() && v.canConvertToInt(), JsonNode::intValue);
  }

  /** A list of strings of at most {@code maxItems}; {@code kind} says what they are, as "ladder question ids". */
  public List<String> texts(String field, String kind, int maxItems) {
    return optionalList(field, kind, maxItems, JsonNode::isTextual, JsonNode::textValue).orElseThrow(() -> missing(field));
  }

  private <T> Optional<List<T>> optionalList(String field, String kind, int maxItems, Predicate<JsonNode> fits,
                                             Function<JsonNode, T> value) {
    return value(field).map(v -> {
      String expected = "a list of at most " + maxItems + " " + kind;
      if (!v.isArray() || v.size() > maxItems) throw wrongType(field, expected, v);
      List<T> out = new ArrayList<>();
      for (JsonNode item : v) {
        if (!fits.test(item)) throw wrongType(field, expected, v);
        out.add(value.apply(item));
      }
      return out;
    });
  }

  /** An object whose fields the caller reads itself: one whose names are data (knob names) or depend on a type. */
  public Optional<ObjectNode> optionalObject(String field) {
    return value(field).map(v -> {
      if (!v.isObject()) throw wrongType(field, "an object", v);
      return (ObjectNode) v;
    });
  }

  /** The fields of the object {@code field}, checked against {@code allowed}; absent when the field is. */
  public Optional<JsonFields> optionalObject(String field, List<String> allowed) {
    return optionalObject(field).map(v -> of(v, path(field), allowed));
  }

  private Optional<JsonNode> value(String field) {
    return Optional.ofNullable(node.get(field)).filter(v -> !v.isNull());
  }

  private BadRequestResponse missing(String field) {
    return new BadRequestResponse("'" + path(field) + "' is required");
  }

  private BadRequestResponse wrongType(String field, String kind, JsonNode value) {
    String shown = value.toString();
    if (shown.length() > MAX_SHOWN) shown = shown.substring(0, MAX_SHOWN - 3) + "...";
    return new BadRequestResponse("'" + path(field) + "' must be " + kind + ", got " + shown);
  }

  private void refuseUnknown(String path, List<String> allowed) {
    List<String> unknown = new ArrayList<>();
    node.fieldNames().forEachRemaining(name -> {
      if (!allowed.contains(name)) unknown.add("'" + path(name) + "'");
    });
    if (unknown.isEmpty()) return;
    List<String> quoted = allowed.stream().map(f -> "'" + f + "'").toList();
    String of = path.isEmpty() ? "" : " of '" + path + "'";
    String known = quoted.isEmpty() ? (path.isEmpty() ? "the body" : "'" + path + "'") + " takes no fields"
        : quoted.size() == 1 ? "the only field" + of + " is " + quoted.get(0)
        : "the fields" + of + " are " + String.join(", ", quoted.subList(0, quoted.size() - 1)) + " and "
            + quoted.get(quoted.size() - 1);
    throw new BadRequestResponse((unknown.size() == 1 ? "unknown field " : "unknown fields ") + String.join(", ", unknown)
        + "; " + known);
  }
}
