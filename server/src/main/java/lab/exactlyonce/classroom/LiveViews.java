package lab.exactlyonce.classroom;

import j2html.tags.DomContent;
import lab.exactlyonce.quiz.LiveBank;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static j2html.TagCreator.*;

/**
 * The live question as fragments: the student's card (options as buttons; after the reveal, the right one marked and
 * the class's counts) and the instructor's panel (live histogram). Everything typed is escaped by j2html.
 */
final class LiveViews {
  private LiveViews() {}

  static DomContent studentIdle(Room room) {
    if (room.closed()) return div(p("This class is closed. Thank you for taking part!")).withClass("live-question").attr("data-state", "closed");
    return div(p("Waiting for your instructor's next question…").withClass("muted")).withClass("live-question").attr("data-state", "idle");
  }

  /** What a student's page says once the instructor removed them (their stream then ends). */
  static DomContent studentRemoved() {
    return p("Your instructor removed you from this class.");
  }

  /** @param mine the option this student chose, or null */
  static DomContent studentQuestion(Round round, LiveBank.LiveQuestion q, Integer mine, int[] counts) {
    boolean revealed = round.revealed();
    int total = 0;
    for (int c : counts) total += c;
    final int answered = total;
    return div(
        p(q.prompt()).withClass("live-prompt"),
        iff(!q.detail().isBlank(), pre(q.detail()).withClass("live-detail")),
        div(each(indexes(q.options().size()), i -> {
          String cls = "live-option" + (revealed && i == q.answer() ? " right" : "") + (mine != null && mine == i ? " mine" : "");
          var button = button(
              span(q.options().get(i)).withClass("option-text"),
              iff(revealed, span(i == q.answer() ? " ✓ right answer" : "").withClass("option-mark")),
              iff(revealed, span(" " + counts[i] + " of " + answered).withClass("option-count"))
          ).withType("button").withClass(cls).attr("data-choice", i).attr("aria-pressed", mine != null && mine == i ? "true" : "false");
          return revealed || mine != null ? button.attr("disabled") : button;
        })).withClass("live-options").attr("role", "group").attr("aria-label", "Answers"),
        p(revealed ? (mine == null ? "You did not answer this one." : mine == q.answer() ? "You got it right." : "Not this time: the right answer is marked.")
            : mine != null ? "Answer recorded. Wait for the reveal." : "").withClass("live-status").attr("aria-live", "polite")
    ).withClass("live-question").attr("data-round", round.id()).attr("data-state", revealed ? "revealed" : mine != null ? "answered" : "open");
  }

  static DomContent leaderboard(Room room, List<Map.Entry<String, Integer>> ranked, Map<String, String> nicknames) {
    boolean anonymous = room.leaderboard() == Leaderboard.ANONYMOUS;
    List<Map.Entry<String, Integer>> top = ranked.subList(0, Math.min(10, ranked.size()));
    return div(
        h3("Leaderboard"),
        top.isEmpty() ? p("No scores yet.") : ol(each(top, e -> li(
            span(anonymous ? "Student " + (top.indexOf(e) + 1) : nicknames.getOrDefault(e.getKey(), "?")).withClass("lb-name"),
            text(" "),
            span(e.getValue() + " correct").withClass("lb-score")))).withClass("leaderboard-list")
    ).withClass("leaderboard").attr("data-mode", room.leaderboard());
  }

  /** The instructor's live panel: the open round's histogram and what can be done next. */
  static DomContent instructorLive(Room room, Round round, LiveBank.LiveQuestion q, int[] counts, int members, int online,
                                   List<Map.Entry<String, Integer>> ranked, Map<String, String> nicknames) {
    if (room.closed()) return p("The class is closed.");
    if (round == null) {
      return div(p(room.liveSession() == null ? "No live session yet: push a question to start one."
          : "Live session running; no question on screen. Push the next one.")).attr("data-state", "idle");
    }
    int total = 0;
    int max = 1;
    for (int c : counts) {
      total += c;
      max = Math.max(max, c);
    }
    final int top = max;
    final int answered = total;
    return div(
        p(q.prompt()).withClass("live-prompt"),
        iff(!q.detail().isBlank(), pre(q.detail()).withClass("live-detail")),
        p(strong(answered + " of " + members), text(" students answered (" + online + " online)")).withClass("live-count").attr("data-answered", answered),
        table(
            caption("Answers so far"),
            tbody(each(indexes(counts.length), i -> tr(
                th(q.options().get(i) + (round.revealed() && i == q.answer() ? " ✓" : "")).attr("scope", "row"),
                td(Bars.bar(counts[i], top, round.revealed() && i == q.answer() ? "right" : "")),
                td(String.valueOf(counts[i])).withClass("count").attr("data-option", i)
            )))
        ).withClass("histogram"),
        p(round.revealed() ? "Answer revealed to the class." : "Answer hidden until you reveal it.").withClass("muted"),
        iff(room.leaderboard().shown(), leaderboard(room, ranked, nicknames))
    ).attr("data-state", round.revealed() ? "revealed" : "open").attr("data-round", round.id());
  }

  private static List<Integer> indexes(int n) {
    return IntStream.range(0, n).boxed().toList();
  }
}
