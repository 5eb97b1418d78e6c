package lab.exactlyonce.classroom;

import j2html.tags.DomContent;
import j2html.tags.specialized.ButtonTag;
import lab.exactlyonce.quiz.LiveBank;
import lab.exactlyonce.web.Markdown;
import lab.exactlyonce.web.Pages;

import java.time.Duration;
import java.util.List;

import static j2html.TagCreator.*;

/**
 * The projector: the page an instructor puts on the room's screen and runs a class from. It shows the live question
 * with a shrinking countdown, how many answered (never which way before the reveal, unless the instructor asked for
 * live counts: the room would see the class lean), the join link, its QR code and the code in type readable from the
 * back of the room, and the controls (Reveal, Next, Leaderboard, End) with their keys. The dashboard, the instructor's
 * own screen, keeps its histogram filling live.
 */
final class ProjectorViews {
  private static final Pages.Assets ASSETS =
      new Pages.Assets(List.of("classroom.css"), List.of("classroom-projector.js"));

  private ProjectorViews() {}

  /** @param liveCounts whether the answers' split shows before the reveal */
  static String page(Room room, String joinLink, DomContent live, boolean liveCounts) {
    String dashboard = "/teach/classes/" + room.id();
    return Pages.document(room.name() + " · Projector", ASSETS,
        div(
            section(
                h1(room.name()).withClass("projector-title"),
                div(live).withId("projector-body").attr("aria-live", "polite")
            ).withClass("projector-stage"),
            aside(
                h2("Join"),
                img().withSrc(dashboard + "/qr.svg?code=" + room.code()).withAlt("QR code for the join link")
                    .withClass("qr projector-qr").attr("width", 320).attr("height", 320),
                p(link(joinLink)).withClass("projector-link"),
                p(text("Code "), strong(room.code()).withId("join-code")).withClass("projector-code")
            ).withClass("projector-join").attr("aria-label", "How to join"),
            controls(room, dashboard, liveCounts)
        ).withClass("projector-page").attr("data-class", room.id()));
  }

  /**
   * The link to type, without its code (which follows in large type; the QR code carries both), breaking before
   * its path when the column is narrow rather than inside the host.
   */
  private static DomContent link(String joinLink) {
    String typed = joinLink.replaceFirst("\\?.*$", "");
    int path = typed.indexOf('/', typed.indexOf("//") + 2);
    return a(text(typed.substring(0, path)), wbr(), text(typed.substring(path))).withHref(joinLink).withId("join-link");
  }

  /** The buttons, each with its key; the keys work anywhere on the page but in a field. */
  private static DomContent controls(Room room, String dashboard, boolean liveCounts) {
    return div(
        key("Reveal", "reveal", "R"),
        key("Next question", "next", "N"),
        key("Leaderboard", "leaderboard", "L").attr("aria-pressed", room.leaderboard().shown()),
        key("End session", "end", "E"),
        label(input().withType("checkbox").withId("projector-anonymous")
            .withCondChecked(room.leaderboard() == Leaderboard.ANONYMOUS), text(" Anonymous board")),
        label(input().withType("checkbox").withId("projector-counts").withCondChecked(liveCounts),
            text(" Show answer counts live")),
        a("Leave projector mode").withHref(dashboard),
        p().withId("projector-status").withClass("muted").attr("role", "status")
    ).withClass("controls projector-controls");
  }

  private static ButtonTag key(String name, String action, String key) {
    return button(text(name + " "), kbd(key).attr("aria-hidden", "true")).withType("button")
        .attr("data-action", action).attr("data-key", key.toLowerCase()).attr("aria-keyshortcuts", key);
  }

  /**
   * The live panel as the room sees it. Before the reveal the options are listed without their counts (unless
   * {@code liveCounts}), with how many answered; after it, the histogram with the right answer marked. The leaderboard
   * shows (when the class's board is on) between questions, never over an open one; the podium once the session ended.
   */
  static DomContent live(LiveNow now, boolean liveCounts) {
    Room room = now.room();
    String mode = room.leaderboard().id();
    if (room.closed()) {
      return div(p("The class is closed.")).withClass("projector-live").attr("data-state", "closed")
          .attr("data-leaderboard", mode);
    }
    boolean shown = room.leaderboard().shown();
    Round round = now.round();
    if (round == null) {
      DomContent body = now.podium()
          ? shown ? LiveViews.podium(room, now.board().standings(), null)
              : p("Session over. Press L to show the podium.").withClass("projector-note")
          : p(room.liveSession() != null ? "The next question is coming up."
              : "Join now: the first question is coming up.")
              .withClass("projector-note");
      return div(body, iff(shown && !now.podium() && room.liveSession() != null,
              LiveViews.leaderboard(room, now.board().standings(), null)))
          .withClass("projector-live").attr("data-state", now.state()).attr("data-leaderboard", mode);
    }
    LiveBank.LiveQuestion q = now.question();
    boolean split = round.revealed() || liveCounts;
    return div(
        now.counting() || now.timeUp() ? timer(now) : text(""),
        LiveViews.question(q),
        split ? LiveViews.histogram(now) : options(q),
        LiveViews.answeredLine(now),
        p(round.revealed() ? "Press N for the next question."
            : now.timeUp() ? "Time is up. Press R to reveal the answer."
            : split ? "Counts shown live." : "Answers stay hidden until the reveal.").withClass("projector-note"),
        iff(shown && round.revealed(), LiveViews.leaderboard(room, now.board().standings(), null))
    ).withClass("projector-live").attr("data-state", now.state()).attr("data-round", round.id())
        .attr("data-leaderboard", mode).attr("data-counts", split ? "shown" : "hidden");
  }

  /** The options, without counts: the room reads them while it answers. */
  private static DomContent options(LiveBank.LiveQuestion q) {
    return ol(each(q.options(), o -> li(Markdown.inline(o)))).withClass("projector-options");
  }

  /**
   * A bar that shrinks as time runs out (the page redraws it from the milliseconds left) over the time in words, which
   * is what a screen reader reads; drawn without script at its length when rendered.
   */
  private static DomContent timer(LiveNow now) {
    Duration left = now.left().orElse(Duration.ZERO);
    long limit = now.round().limit().toMillis();
    return div(
        div(Bars.bar((int) left.toMillis(), (int) limit, "countdown-bar")).withClass("countdown-track")
            .attr("aria-hidden", "true"),
        LiveViews.countdown(left).attr("data-limit-ms", limit)
    ).withClass("countdown-visual");
  }
}
