package lab.exactlyonce.classroom;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import lab.exactlyonce.learner.Learners;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Holds ladder answers back for the members of a class, without the lesson feature knowing: after the lesson page
 * ({@code GET /lessons/{id}}) and the lesson JSON ({@code GET /api/lessons/{id}}) are rendered, the answers of held
 * items are cut out of the response for a learner in a class that holds them. On the page the {@code <details>}
 * stays, marked {@code data-held}, saying "Your instructor will release this answer."; in the JSON the item's
 * {@code answer} becomes null and {@code held} true. The page also gets {@code classroom-held.js}, which swaps the
 * answers in when the instructor releases them.
 */
final class Pacing {
  static final String HELD_TEXT = "Your instructor will release this answer.";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ClassStore store;
  private final Learners learners;

  Pacing(ClassStore store, Learners learners) {
    this.store = store;
    this.learners = learners;
  }

  void register(RoutesConfig routes) {
    routes.after("/lessons/{id}", this::page);
    routes.after("/api/lessons/{id}", this::json);
    routes.after("/lessons/{id}/quiz/{session}", this::quizPage);
    routes.after("/api/events", this::eventResponse);
    routes.after("/lessons/{id}/quiz/{session}/results", this::resultsPage);
    routes.after("/api/quiz/sessions/{session}/results", this::resultsJson);
  }

  private Optional<String> learner(Context ctx) {
    try {
      return learners.current(ctx);
    } catch (RuntimeException tampered) {
      return Optional.empty();
    }
  }

  /** The held items for the asking learner in the lesson, and the class holding them (any of them). */
  private record Held(Set<String> items, String classId) {}

  private Held held(Context ctx) {
    return held(ctx, ctx.pathParam("id"));
  }

  private Held held(Context ctx, String lesson) {
    if (ctx.status().getCode() != 200) return new Held(Set.of(), null);
    Optional<String> learner = learner(ctx);
    if (learner.isEmpty()) return new Held(Set.of(), null);
    Set<String> items = new java.util.TreeSet<>();
    String classId = null;
    for (Member m : store.memberships(learner.get())) {
      Optional<Room> room = store.find(m.classId());
      if (room.isEmpty() || room.get().closed() || !room.get().lesson().equals(lesson)) continue;
      Set<String> holds = store.holds(m.classId());
      if (!holds.isEmpty() && classId == null) classId = m.classId();
      items.addAll(holds);
    }
    return new Held(items, classId);
  }

  private void page(Context ctx) {
    Held held = held(ctx);
    String html = held.items().isEmpty() ? null : ctx.result();
    if (html == null) return;
    ctx.header("Cache-Control", "no-store");
    ctx.html(hold(html, held.items(), held.classId()));
  }

  /** Replaces the answer of each held ladder item with the held note; adds the release watcher. */
  static String hold(String html, Set<String> held, String classId) {
    String out = html;
    for (String item : held) {
      Matcher at = Pattern.compile("<li class=\"ladder-item\" id=\"[a-z]+/" + Pattern.quote(item) + "\"").matcher(out);
      if (!at.find()) continue;
      int end = out.indexOf("</li>", at.end());
      int open = out.indexOf("<details class=\"answer\">", at.end());
      if (open < 0 || end < 0 || open > end) continue;
      int close = out.indexOf("</details>", open);
      if (close < 0 || close > end) continue;
      out = out.substring(0, open)
          + "<details class=\"answer\" data-held=\"" + item + "\"><summary>Answer</summary><p class=\"held-note\">"
          + HELD_TEXT + "</p></details>"
          + out.substring(close + "</details>".length());
    }
    return out.replace("</head>", "<meta name=\"eolab-class\" content=\"" + classId + "\">"
        + "<script type=\"module\" src=\"/assets/js/classroom-held.js\"></script></head>");
  }

  /** The quiz draws self-graded questions from the ladder: their model answers are held too. */
  private void quizPage(Context ctx) {
    Set<String> held = held(ctx).items();
    String html = held.isEmpty() ? null : ctx.result();
    if (html == null) return;
    String out = html;
    for (String item : held) {
      int from = 0;
      while (true) {
        int at = out.indexOf("data-item=\"" + item + "\"", from);
        if (at < 0) break;
        int end = out.indexOf("</li>", at);
        int open = out.indexOf("<div class=\"quiz-model-answer\" hidden>", at);
        from = at + 1;
        if (open < 0 || end < 0 || open > end) continue;
        int close = out.indexOf("</div>", open);
        if (close < 0 || close > end) continue;
        out = out.substring(0, open) + "<div class=\"quiz-model-answer\" hidden data-held=\"" + item
            + "\"><h3>Model answer</h3><p class=\"held-note\">" + HELD_TEXT + "</p></div>" + out.substring(close + "</div>".length());
      }
    }
    ctx.header("Cache-Control", "no-store");
    ctx.html(out);
  }

  /** The quiz results list misses with their model answers: not for held ladder items. */
  private void resultsPage(Context ctx) {
    Set<String> held = held(ctx).items();
    String html = held.isEmpty() ? null : ctx.result();
    if (html == null) return;
    String out = html;
    for (String item : held) {
      int at = out.indexOf("data-question=\"" + ctx.pathParam("id") + "/" + item + "\"");
      if (at < 0) continue;
      int end = out.indexOf("</li>", at);
      int open = out.indexOf("<div class=\"quiz-explanation\">", at);
      if (open < 0 || end < 0 || open > end) continue;
      int close = out.indexOf("</div>", open);
      if (close < 0 || close > end) continue;
      out = out.substring(0, open) + "<div class=\"quiz-explanation\" data-held=\"" + item + "\"><p class=\"held-note\">"
          + HELD_TEXT + "</p></div>" + out.substring(close + "</div>".length());
    }
    ctx.header("Cache-Control", "no-store");
    ctx.html(out);
  }

  private void resultsJson(Context ctx) {
    if (ctx.status().getCode() != 200 || learner(ctx).isEmpty()) return;
    String body = ctx.result();
    if (body == null) return;
    ctx.result(body); // reading may have used the response stream up: put it back as it was
    try {
      JsonNode root = JSON.readTree(body);
      String lesson = root.path("lesson").asText();
      Set<String> held = held(ctx, lesson).items();
      if (held.isEmpty()) return;
      for (JsonNode miss : root.path("misses")) {
        String question = miss.path("question").asText();
        if (miss instanceof ObjectNode o && question.startsWith(lesson + "/") && held.contains(question.substring(lesson.length() + 1))) {
          o.put("expected", HELD_TEXT);
          o.put("explanation", HELD_TEXT);
        }
      }
      ctx.result(JSON.writeValueAsString(root));
    } catch (java.io.IOException e) {
      throw new IllegalStateException("cannot hold answers in quiz results", e);
    }
  }

  /** A quiz answer's feedback names the model answer: not for a held ladder item. */
  private void eventResponse(Context ctx) {
    if (ctx.status().getCode() != 200) return;
    if (learner(ctx).isEmpty()) return;
    String body = ctx.result();
    if (body == null) return;
    ctx.result(body); // reading may have used the response stream up: put it back as it was
    if (!body.contains("\"quiz.answer\"")) return;
    try {
      JsonNode root = JSON.readTree(body);
      if (!(root.path("result") instanceof ObjectNode result) || !result.has("explanation")) return;
      if (!held(ctx, root.path("lesson").asText()).items().contains(root.path("item").asText())) return;
      result.put("expected", HELD_TEXT);
      result.put("explanation", HELD_TEXT);
      ctx.result(JSON.writeValueAsString(root));
    } catch (java.io.IOException e) {
      throw new IllegalStateException("cannot hold answers in an event response", e);
    }
  }

  private void json(Context ctx) {
    Set<String> held = held(ctx).items();
    String body = held.isEmpty() ? null : ctx.result();
    if (body == null) return;
    try {
      JsonNode root = JSON.readTree(body);
      for (JsonNode section : root.path("sections")) {
        for (JsonNode block : section.path("blocks")) {
          if (!"ladder".equals(block.path("style").asText())) continue;
          for (JsonNode item : block.path("items")) {
            if (item instanceof ObjectNode o && held.contains(o.path("id").asText())) {
              o.putNull("answer");
              o.put("held", true);
            }
          }
        }
      }
      ctx.header("Cache-Control", "no-store");
      ctx.result(JSON.writeValueAsString(root));
    } catch (java.io.IOException e) {
      throw new IllegalStateException("cannot hold answers in the lesson JSON", e);
    }
  }
}
