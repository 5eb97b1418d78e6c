package lab.exactlyonce.classroom;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.progress.RecordedEvent;
import lab.exactlyonce.quiz.LiveBank;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every quiz answer of a class as CSV (RFC 4180), one row per stored answer event, so each answer appears exactly
 * once: the live answers given in this class, and the members' own quiz answers in the class's lesson since they
 * joined. Cells that a spreadsheet would read as a formula (starting with =, +, -, @, tab or carriage return) get a
 * leading apostrophe. A live answer also has its response time (from the question's push to the answer's arrival, in
 * milliseconds), the question's time limit (empty without one) and the {@link Points} it earned; the columns are last,
 * so a spreadsheet made for the older columns still reads them where it did.
 */
final class ResultsCsv {
  static final String HEADER = "answered_at,nickname,source,live_session,round,question,prompt,choice,choice_text,"
      + "correct,event_id,response_ms,time_limit_s,points";

  private ResultsCsv() {}

  static String render(Classroom classroom, Room room) {
    Map<String, Member> members = new HashMap<>();
    Map<String, Round> rounds = new HashMap<>();
    for (Round r : classroom.store().rounds(room.id())) rounds.put(r.id(), r);
    for (Member m : classroom.store().everyone(room.id())) members.put(m.learnerId(), m);
    var out = new StringBuilder(HEADER).append("\r\n");
    for (ClassStore.MemberEvent me : classroom.store().events(room.id(), LiveBank.ANSWER_TYPE)) {
      RecordedEvent e = me.event();
      Member m = members.get(me.learnerId());
      JsonNode d = e.data();
      boolean live = d.has("round");
      if (live && !room.id().equals(d.path("class").asText())) continue; // another class's live round
      if (!live && (m == null || e.recordedAt().isBefore(m.joinedAt()))) continue;
      String questionId = d.path("question").asText();
      Optional<LiveBank.LiveQuestion> q = classroom.bank().find(questionId);
      Integer choice = d.has("choice") && d.get("choice").isInt() ? d.get("choice").asInt() : null;
      String choiceText = choice != null && q.isPresent() && choice >= 0 && choice < q.get().options().size()
          ? q.get().options().get(choice) : "";
      row(out, List.of(
          e.recordedAt().toString(),
          m == null ? "" : m.nickname(),
          live ? "live" : "quiz",
          d.path("session").asText(""),
          d.path("round").asText(""),
          questionId,
          q.map(LiveBank.LiveQuestion::prompt).orElse(""),
          choice == null ? "" : String.valueOf(choice),
          choiceText,
          // A self-rated answer is neither right nor wrong (nobody checked it), whatever an older grading stored.
          e.result().has("correct") && !d.has("rating") ? String.valueOf(e.result().get("correct").asBoolean()) : "",
          e.id(),
          live ? timing(rounds.get(d.path("round").asText()), e) : "",
          live ? limit(rounds.get(d.path("round").asText())) : "",
          live ? points(rounds.get(d.path("round").asText()), e) : ""));
    }
    return out.toString();
  }

  /** Milliseconds from the push to the answer; empty when the round is gone (it never is: rounds are kept). */
  private static String timing(Round round, RecordedEvent e) {
    return round == null ? "" : String.valueOf(round.responseTime(e.recordedAt()).toMillis());
  }

  private static String limit(Round round) {
    return round == null || round.limit() == null ? "" : String.valueOf(round.limit().toSeconds());
  }

  private static String points(Round round, RecordedEvent e) {
    return round == null ? "" : String.valueOf(round.points(e.result().path("correct").asBoolean(), e.recordedAt()));
  }

  private static void row(StringBuilder out, List<String> cells) {
    for (int i = 0; i < cells.size(); i++) {
      if (i > 0) out.append(',');
      out.append(cell(cells.get(i)));
    }
    out.append("\r\n");
  }

  /** Quoted when needed; formula-looking text defused with a leading apostrophe. */
  static String cell(String value) {
    String v = value;
    if (!v.isEmpty() && "=+-@\t\r".indexOf(v.charAt(0)) >= 0) v = "'" + v;
    if (v.contains(",") || v.contains("\"") || v.contains("\n") || v.contains("\r") || !v.equals(value)) {
      return "\"" + v.replace("\"", "\"\"") + "\"";
    }
    return v;
  }
}
