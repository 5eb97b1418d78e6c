package lab.exactlyonce.classroom;

import j2html.tags.DomContent;
import j2html.tags.specialized.PTag;
import lab.exactlyonce.quiz.LiveBank;
import lab.exactlyonce.web.Markdown;

import java.time.Duration;
import java.util.List;
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
  static PTag countdown(Duration left) {
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
  static DomContent question(LiveBank.LiveQuestion q) {
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

  /** Lines a leaderboard lists; everyone else finds their own place under it. */
  static final int BOARD_LINES = 10;

  /**
   * A running session's leaderboard: its top ten, places shared by equal points (the list's numbers are the places);
   * {@code me} (a student's learner id, or null for the instructor's copy) is marked "you" wherever they are, and
   * told their place and points under the list.
   */
  static DomContent leaderboard(Room room, Standings standings, String me) {
    return div(
        h3("Leaderboard"),
        standings.isEmpty() ? p("No scores yet: the board starts when the first answer is revealed.")
            : places(room, standings, standings.top(BOARD_LINES), me, "leaderboard-list"),
        mine(standings, me)
    ).withClass("leaderboard").attr("data-mode", room.leaderboard().id());
  }

  /** The end of a session: its top three places (more students when some share one), and a student's own. */
  static DomContent podium(Room room, Standings standings, String me) {
    return div(
        h3("Podium"),
        p("The session is over. Top three:").withClass("muted"),
        places(room, standings, standings.podium(), me, "leaderboard-list podium-list"),
        mine(standings, me)
    ).withClass("leaderboard podium").attr("data-mode", room.leaderboard().id());
  }

  private static DomContent places(Room room, Standings standings, List<Standing> lines, String me, String cls) {
    boolean anonymous = room.leaderboard() == Leaderboard.ANONYMOUS;
    return ol(each(indexes(lines.size()), i -> {
      Standing s = lines.get(i);
      boolean mine = s.learnerId().equals(me);
      return li(
          span(anonymous ? "Student " + (i + 1) : s.nickname()).withClass("lb-name"),
          iff(mine, strong(" (you)").withClass("lb-you")),
          text(" "),
          span(Points.words(s.points())).withClass("lb-score")
      ).attr("value", s.place()).withClass("place-" + Math.min(s.place(), Standings.PODIUM_PLACES + 1)
          + (mine ? " me" : ""));
    })).withClass(cls).attr("aria-label", "Places out of " + standings.size());
  }

  /** "You: place 2 of 5 (shared), 875 points": a student always sees their own line, in or out of the list. */
  private static DomContent mine(Standings standings, String me) {
    if (me == null) return text("");
    return standings.of(me).map(s -> (DomContent) p(strong("You: "), span("place " + s.place() + " of "
        + standings.size() + (s.tied() ? " (shared)" : "")).withClass("lb-place"), text(", "),
        span(Points.words(s.points())).withClass("lb-points")).withClass("lb-mine")).orElse(text(""));
  }

  /**
   * The instructor's live panel: the open round's histogram, filling as answers come (the dashboard is the
   * instructor's own screen; the room's is the projector's, which hides the split until the reveal), and what can be
   * done next; the leaderboard while a session runs and the podium once it ended, when the class's board is shown.
   */
  static DomContent instructorLive(LiveNow now) {
    Room room = now.room();
    if (room.closed()) return p("The class is closed.");
    boolean shown = room.leaderboard().shown();
    Round round = now.round();
    if (round == null) {
      return div(p(room.liveSession() != null ? "Live session running; no question on screen. Push the next one."
              : now.podium() ? "Session over. Push a question to start a new session with a clean board."
              : "No live session yet: push a question to start one."),
          iff(now.podium() && shown, podium(room, now.board().standings(), null)),
          iff(now.podium() && !shown, p("Tick Show leaderboard to show the podium.").withClass("muted"))
      ).attr("data-state", now.state());
    }
    return div(
        !round.revealed() && now.left().isPresent() ? countdown(now.left().get()) : text(""),
        question(now.question()),
        answeredLine(now),
        histogram(now),
        p(round.revealed() ? "Answer revealed to the class." : now.timeUp()
            ? "Time is up; answers are closed. Reveal the answer when ready."
            : "Answer hidden until you reveal it.").withClass("muted"),
        iff(shown, leaderboard(room, now.board().standings(), null))
    ).attr("data-state", now.state()).attr("data-round", round.id());
  }

  /** "3 of 5 students present answered": how many, never which way. */
  static DomContent answeredLine(LiveNow now) {
    return p(strong(now.answered() + " of " + now.present()), text(" students present answered"))
        .withClass("live-count")
        .attr("data-answered", now.answered()).attr("data-present", now.present());
  }

  /** Each option's count as a bar; the right one marked once revealed. */
  static DomContent histogram(LiveNow now) {
    int[] counts = now.counts();
    LiveBank.LiveQuestion q = now.question();
    boolean revealed = now.round().revealed();
    int max = Math.max(1, IntStream.of(counts).max().orElse(0));
    return table(
        caption(revealed ? "Answers" : "Answers so far"),
        tbody(each(indexes(counts.length), i -> tr(
            th(Markdown.inline(q.options().get(i)), text(revealed && i == q.answer() ? " ✓" : ""))
                .attr("scope", "row"),
            td(Bars.bar(counts[i], max, revealed && i == q.answer() ? "right" : "")),
            td(String.valueOf(counts[i])).withClass("count").attr("data-option", i)
        )))
    ).withClass("histogram");
  }

  private static List<Integer> indexes(int n) {
    return IntStream.range(0, n).boxed().toList();
  }
}
