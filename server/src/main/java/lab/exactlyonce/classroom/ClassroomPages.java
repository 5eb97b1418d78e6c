package lab.exactlyonce.classroom;

import io.javalin.http.Context;
import j2html.tags.DomContent;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.web.Pages;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static j2html.TagCreator.*;

/** The classroom's pages: instructor sign-in, class list, dashboard; the student's join form and class page. */
final class ClassroomPages {
  private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneOffset.UTC);
  private static final Pages.Assets TEACH = new Pages.Assets(List.of("classroom.css"), List.of("classroom-teach.js"));
  private static final Pages.Assets STUDENT = new Pages.Assets(List.of("classroom.css"), List.of("classroom-student.js"));
  private static final Pages.Assets PLAIN = new Pages.Assets(List.of("classroom.css"), List.of());

  private ClassroomPages() {}

  /** Sends a page: each shows one person's live state, so no cache may keep it. */
  static void send(Context ctx, String html) {
    noStore(ctx);
    ctx.html(html);
  }

  static void noStore(Context ctx) {
    ctx.header("Cache-Control", "no-store");
  }

  static String login(String error, String next) {
    return Pages.document("Instructor sign-in · Exactly-Once Lab", PLAIN,
        h1("Instructor sign-in"),
        p("Sign in with the instructor secret: the one the app was started with (the --instructor-secret option or "
            + "the INSTRUCTOR_SECRET variable), or else the one it made on its first start, in the file "
            + "instructor-secret in its data directory (readable only by the account that runs the app; the start-up "
            + "output names the file)."),
        iff(error != null, p(error).withClass("form-error").attr("role", "alert")),
        form(
            label("Instructor secret").attr("for", "secret"),
            input().withType("password").withName("secret").withId("secret").isRequired().attr("autocomplete", "current-password"),
            input().withType("hidden").withName("next").withValue(next == null ? "/teach" : next),
            button("Sign in").withType("submit")
        ).withMethod("post").withAction("/teach/login").withClass("stack-form"));
  }

  static String home(List<Room> rooms, List<Lesson> lessons, SandboxNotice sandbox) {
    return Pages.document("Your classes · Exactly-Once Lab", TEACH,
        div(h1("Your classes"), form(button("Sign out").withType("submit")).withMethod("post").withAction("/teach/logout"))
            .withClass("page-head"),
        sandboxLine(sandbox),
        form(
            h2("New class"),
            label("Class name").attr("for", "class-name"),
            input().withName("name").withId("class-name").isRequired().attr("maxlength", Room.MAX_NAME),
            label("Lesson").attr("for", "class-lesson"),
            select(each(lessons, l -> option(l.title()).withValue(l.id()))).withName("lesson").withId("class-lesson"),
            button("Create class").withType("submit")
        ).withMethod("post").withAction("/teach/classes").withClass("stack-form"),
        h2("Classes"),
        rooms.isEmpty() ? p("No classes yet.") : ul(each(rooms, r -> li(
            a(r.name()).withHref("/teach/classes/" + r.id()),
            text(" · " + r.lesson() + " · code " + r.code() + " · created " + DAY.format(r.createdAt()) + (r.closed() ? " · closed" : ""))
        ))).withClass("class-list"));
  }

  /**
   * How strongly students' code is confined here: one line at hardened; below it, what is missing and the one step
   * that adds it, so the instructor learns it before the class rather than from a log.
   */
  static DomContent sandboxLine(SandboxNotice sandbox) {
    if (sandbox.level().isEmpty()) {
      return p("Sandbox: not started yet (its self-check runs with the first run).").withClass("sandbox-level");
    }
    if (sandbox.level().equals(SandboxNotice.HARDENED)) {
      return p(text("Sandbox: "), strong(sandbox.level()), text(" (students' code runs in namespaces of its own, as "
          + "uids of its own, under a seccomp filter)")).withClass("sandbox-level");
    }
    return div(
        p(text("Sandbox: "), strong(sandbox.level()), text(", below hardened."
            + (sandbox.missing().isEmpty() ? "" : " Missing: " + String.join(", ", sandbox.missing()) + "."))),
        iff(!sandbox.nextStep().isEmpty(), p(text("To add it: " + sandbox.nextStep() + ".")))
    ).withClass("sandbox-level sandbox-weak").attr("role", "note");
  }

  /** @param ladder the lesson's ladder questions (id to question text), in page order */
  static String dashboard(Room room, String joinLink, Map<String, DomContent> panels, DomContent live, DomContent picker,
                          Map<String, String> ladder, Set<String> holds, SandboxNotice sandbox) {
    return Pages.document(room.name() + " · Dashboard", TEACH,
        div(
            div(
                h1(room.name()),
                p(text("Lesson: " + room.lesson()), iff(room.closed(), strong(" · closed"))),
                p(a("All classes").withHref("/teach"), text(" · "), a("Results as CSV").withHref("/teach/classes/" + room.id() + "/results.csv")),
                sandboxLine(sandbox)
            ).withClass("dash-title"),
            div(
                p(text("Join code "), strong(room.code()).withClass("join-code").withId("join-code")),
                p(text("Join at "), a(joinLink).withHref(joinLink).withId("join-link")),
                iff(joinLink.contains("://localhost") || joinLink.contains("://127.") || joinLink.contains("://[::1]"),
                    p("This link names this computer only: open the dashboard at the machine's network address (or name) "
                        + "so the link and the QR code work on students' devices.").withClass("form-error")),
                img().withSrc("/teach/classes/" + room.id() + "/qr.svg?code=" + room.code()).withAlt("QR code for the join link")
                    .withClass("qr").attr("width", 160).attr("height", 160),
                iff(!room.closed(), div(
                    button("New join code").withType("button").attr("data-action", "code"),
                    button("Close class").withType("button").attr("data-action", "close").attr("data-confirm", "Close this class? Students can no longer join or answer.")
                ).withClass("controls")))
                .withClass("join-box")
        ).withClass("dash-head").attr("data-class", room.id()),
        section(
            div(h2("Live question"),
                // The room's screen is a page of its own: nothing the room must not see yet reaches it.
                a("Projector mode").withHref("/teach/classes/" + room.id() + "/projector").withClass("button-link"))
                .withClass("panel-head"),
            iff(!room.closed(), div(
                picker,
                div(
                    label("Time limit").attr("for", "live-limit"),
                    select(option("None").withValue(""), each(QuestionPicker.LIMITS, s -> option(s < 60 ? s + " s"
                        : s % 60 == 0 ? s / 60 + " min" : s / 60 + " min " + s % 60 + " s").withValue(String.valueOf(s))))
                        .withId("live-limit"),
                    button("Push to class").withType("button").attr("data-action", "push"),
                    button("Reveal answer").withType("button").attr("data-action", "reveal"),
                    button("End session").withType("button").attr("data-action", "end"),
                    label(input().withType("checkbox").withId("lb-show").withCondChecked(room.leaderboard().shown()),
                        text(" Show leaderboard")),
                    label(input().withType("checkbox").withId("lb-anonymous").withCondChecked(room.leaderboard() == Leaderboard.ANONYMOUS),
                        text(" Anonymous"))
                ).withClass("controls live-controls")
            ).withClass("live-setup")),
            div(live).withClass("panel-body live-body").withId("live-body").attr("aria-live", "polite")
        ).withId("live").withClass("panel"),
        section(
            h2("Pacing: ladder answers"),
            p("Ticked answers are held back from students in this class, saved as you tick; they see “" + HeldAnswers.NOTE + "”"),
            div(
                button("Hold all").withType("button").attr("data-action", "hold-all"),
                button("Release all").withType("button").attr("data-action", "release-all")
            ).withClass("controls"),
            ul(each(ladder.entrySet(), item -> li(label(
                input().withType("checkbox").withValue(item.getKey()).attr("data-hold", item.getKey())
                    .withCondChecked(holds.contains(item.getKey())),
                text(" Hold "), strong(item.getKey()), text(": " + item.getValue()))))).withClass("holds")
        ).withId("pacing").withClass("panel"),
        panel("roster", "Students", panels.get("roster")),
        panel("progress", "Progress through the lesson", panels.get("progress")),
        panel("quiz", "Quiz results", panels.get("quiz")),
        panel("sandbox", "Sandbox activity", panels.get("sandbox")),
        p().withId("dash-status").withClass("muted").attr("role", "status"));
  }

  private static DomContent panel(String id, String title, DomContent body) {
    return section(h2(title), div(body).withClass("panel-body").withId(id + "-body")).withId(id).withClass("panel");
  }

  static String join(String code, String nickname, String error) {
    return Pages.document("Join a class · Exactly-Once Lab", PLAIN,
        h1("Join a class"),
        iff(error != null, p(error).withClass("form-error").attr("role", "alert")),
        form(
            label("Join code").attr("for", "join-code-input"),
            input().withName("code").withId("join-code-input").isRequired().withValue(code == null ? "" : code)
                .attr("autocomplete", "off").attr("autocapitalize", "characters").attr("maxlength", 12),
            label("Nickname (1 to " + Nicknames.MAX + " characters, shown to your class)").attr("for", "join-nickname"),
            input().withName("nickname").withId("join-nickname").isRequired().withValue(nickname == null ? "" : nickname)
                .attr("maxlength", Nicknames.MAX * 2),
            button("Join").withType("submit")
        ).withMethod("post").withAction("/join").withClass("stack-form"));
  }

  static String student(Room room, Member member, DomContent live) {
    return Pages.document(room.name() + " · Exactly-Once Lab", STUDENT,
        h1(room.name()),
        p(text("You are "), strong(member.nickname()).withClass("my-nickname"), text(". "),
            a("Open the lesson").withHref("/lessons/" + room.lesson()), text(" in another tab to study; questions appear here.")),
        section(h2("Live question"), div(live).withId("live-body").attr("aria-live", "polite"))
            .withId("live").withClass("panel").attr("data-class", room.id()),
        div().withId("leaderboard-body"),
        p().withId("connection").withClass("muted").attr("role", "status"));
  }
}
