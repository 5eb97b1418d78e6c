package lab.exactlyonce.classroom;

import j2html.tags.DomContent;
import lab.exactlyonce.quiz.LiveBank;
import lab.exactlyonce.web.Markdown;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

import static j2html.TagCreator.*;

/**
 * The live question as fragments: the student's card (options as buttons; a countdown while a time limit runs; after
 * the reveal, the right one marked and the class's counts), the instructor's preview of that card, and the
 * instructor's panel (live histogram). Everything typed is escaped by j2html.
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

  /**
   * @param mine the option this student chose, or null
   * @param left the time left to answer: empty without a limit
   */
  static DomContent studentQuestion(Round round, LiveBank.LiveQuestion q, Integer mine, int[] counts, Optional<Duration> left) {
    boolean revealed = round.revealed();
    boolean timeUp = !revealed && left.isPresent() && left.get().isZero();
    String state = revealed ? "revealed" : timeUp ? "timeup" : mine != null ? "answered" : "open";
    String status = revealed ? (mine == null ? "You did not answer this one." : mine == q.answer() ? "You got it right."
        : "Not this time: the right answer is marked.")
        : mine != null ? "Answer recorded. Wait for the reveal." : timeUp ? "Time is up: answers are closed." : "";
    return div(
        !revealed && left.isPresent() ? countdown(left.get()) : text(""),
        question(q),
        options(q, mine, revealed ? counts : null, revealed || timeUp || mine != null),
        p(status).withClass("live-status").attr("aria-live", "polite")
    ).withClass("live-question").attr("data-round", round.id()).attr("data-state", state);
  }

  /** Exactly the card a student gets when {@code q} is pushed, every button disabled: the instructor's preview. */
  static DomContent preview(LiveBank.LiveQuestion q) {
    return div(question(q), options(q, null, null, true)).withClass("live-question").attr("data-state", "preview")
        .attr("data-question", q.id());
  }

  /** The time left, which the page counts down from (the milliseconds, so a phone's wrong clock does not matter). */
  private static DomContent countdown(Duration left) {
    long seconds = (left.toMillis() + 999) / 1000;
    return p(left.isZero() ? "Time is up." : "Time left: " + clock(seconds)).withClass("countdown").attr("role", "timer")
        .attr("data-remaining-ms", left.toMillis());
  }

  static String clock(long seconds) {
    return seconds / 60 + ":" + String.format("%02d", seconds % 60);
  }

  /**
   * The prompt and its detail: prose wraps to the screen; code (a predict question's program) keeps its lines. The
   * kind lets the style sheet draw a true-or-false question's detail ("True or false?") as an instruction.
   */
  private static DomContent question(LiveBank.LiveQuestion q) {
    return div(
        div(Markdown.inline(q.prompt())).withClass("live-prompt"),
        iff(!q.detail().isBlank(), q.kind().equals("predict") ? pre(code(q.detail())).withClass("live-code")
            : div(Markdown.block(q.detail())).withClass("live-detail")))
        .withClass("live-ask").attr("data-kind", q.kind());
  }

  /** @param counts the class's counts per option, shown after the reveal; null before */
  private static DomContent options(LiveBank.LiveQuestion q, Integer mine, int[] counts, boolean closed) {
    int answered = counts == null ? 0 : IntStream.of(counts).sum();
    return div(each(indexes(q.options().size()), i -> {
      boolean right = counts != null && i == q.answer();
      String cls = "live-option" + (right ? " right" : "") + (mine != null && mine == i ? " mine" : "");
      var button = button(
          span(Markdown.inline(q.options().get(i))).withClass("option-text"),
          iff(right, span(" ✓ right answer").withClass("option-mark")),
          iff(counts != null, span(" " + (counts == null ? 0 : counts[i]) + " of " + answered).withClass("option-count"))
      ).withType("button").withClass(cls).attr("data-choice", i).attr("aria-pressed", mine != null && mine == i ? "true" : "false");
      return closed ? button.attr("disabled") : button;
    })).withClass("live-options").attr("role", "group").attr("aria-label", "Answers");
  }

  /**
   * The leaderboard's top ten; {@code me} (a student's learner id, or null for the instructor's copy) is marked
   * "you" wherever they are, and shown under the list with their place when they are not in it.
   */
  static DomContent leaderboard(Room room, List<Map.Entry<String, Integer>> ranked, Map<String, String> nicknames, String me) {
    boolean anonymous = room.leaderboard() == Leaderboard.ANONYMOUS;
    List<Map.Entry<String, Integer>> top = ranked.subList(0, Math.min(10, ranked.size()));
    int place = me == null ? -1 : IntStream.range(0, ranked.size()).filter(i -> ranked.get(i).getKey().equals(me)).findFirst().orElse(-1);
    return div(
        h3("Leaderboard"),
        top.isEmpty() ? p("No scores yet.") : ol(each(indexes(top.size()), i -> {
          Map.Entry<String, Integer> e = top.get(i);
          boolean mine = e.getKey().equals(me);
          return li(
              span(anonymous ? "Student " + (i + 1) : nicknames.getOrDefault(e.getKey(), "?")).withClass("lb-name"),
              iff(mine, strong(" (you)").withClass("lb-you")),
              text(" "),
              span(e.getValue() + " correct").withClass("lb-score")).withCondClass(mine, "me");
        })).withClass("leaderboard-list"),
        iff(place >= top.size(), p(strong("You: "), text("place " + (place + 1) + " of " + ranked.size() + ", "
            + (place < 0 ? 0 : ranked.get(place).getValue()) + " correct")).withClass("lb-mine"))
    ).withClass("leaderboard").attr("data-mode", room.leaderboard());
  }

  /** The instructor's live panel: the open round's histogram and what can be done next. */
  static DomContent instructorLive(Room room, Round round, LiveBank.LiveQuestion q, int[] counts, Optional<Duration> left,
                                   int members, int online, List<Map.Entry<String, Integer>> ranked, Map<String, String> nicknames) {
    if (room.closed()) return p("The class is closed.");
    if (round == null) {
      return div(p(room.liveSession() == null ? "No live session yet: push a question to start one."
          : "Live session running; no question on screen. Push the next one.")).attr("data-state", "idle");
    }
    int max = Math.max(1, IntStream.of(counts).max().orElse(0));
    int answered = IntStream.of(counts).sum();
    boolean timeUp = !round.revealed() && left.isPresent() && left.get().isZero();
    return div(
        !round.revealed() && left.isPresent() ? countdown(left.get()) : text(""),
        question(q),
        p(strong(answered + " of " + members), text(" students answered (" + online + " online)")).withClass("live-count").attr("data-answered", answered),
        table(
            caption("Answers so far"),
            tbody(each(indexes(counts.length), i -> tr(
                th(Markdown.inline(q.options().get(i)), text(round.revealed() && i == q.answer() ? " ✓" : "")).attr("scope", "row"),
                td(Bars.bar(counts[i], max, round.revealed() && i == q.answer() ? "right" : "")),
                td(String.valueOf(counts[i])).withClass("count").attr("data-option", i)
            )))
        ).withClass("histogram"),
        p(round.revealed() ? "Answer revealed to the class." : timeUp ? "Time is up; answers are closed. Reveal the answer when ready."
            : "Answer hidden until you reveal it.").withClass("muted"),
        iff(room.leaderboard().shown(), leaderboard(room, ranked, nicknames, null))
    ).attr("data-state", round.revealed() ? "revealed" : timeUp ? "timeup" : "open").attr("data-round", round.id());
  }

  private static List<Integer> indexes(int n) {
    return IntStream.range(0, n).boxed().toList();
  }
}
