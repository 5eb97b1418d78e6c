package lab.exactlyonce.classroom;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.ForbiddenResponse;
import io.javalin.http.HandlerType;
import io.javalin.http.HttpStatus;
import io.javalin.http.UnauthorizedResponse;
import io.javalin.http.sse.SseClient;
import j2html.tags.DomContent;
import lab.exactlyonce.quiz.LiveBank;
import lab.exactlyonce.web.JsonFields;
import lab.exactlyonce.web.JsonRequests;
import lab.exactlyonce.web.RequestOrigin;
import lab.exactlyonce.web.SameOriginGuard;

import java.net.InetAddress;
import java.net.URLEncoder;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * HTTP for the instructor: sign-in, the class list, the dashboard and its stream, live questions, holds. Every page
 * and API but the sign-in page is closed by a before-handler; every page request passes the same-origin guard.
 */
final class InstructorRoutes {
  static final String SIGN_IN_REQUIRED = "instructor sign-in required: sign in at /teach/login";

  private final Classroom classroom;
  private final ClassStore store;
  private final InstructorAuth auth;
  private final SignInThrottle logins;
  private final DashboardPush push;
  private final RoomFeed feed;
  private final LiveFanout fanout;
  private final Consumer<SseClient> streamOpened;
  private final Supplier<SandboxNotice> sandboxNotice;

  InstructorRoutes(Classroom classroom, InstructorAuth auth, SignInThrottle logins, DashboardPush push, LiveFanout fanout,
                   Consumer<SseClient> streamOpened, Supplier<SandboxNotice> sandboxNotice) {
    this.classroom = classroom;
    this.store = classroom.store();
    this.auth = auth;
    this.logins = logins;
    this.push = push;
    this.feed = push.feed();
    this.fanout = fanout;
    this.streamOpened = streamOpened;
    this.sandboxNotice = sandboxNotice;
  }

  void register(RoutesConfig routes) {
    routes.before("/teach", this::guardPage);
    routes.before("/teach/*", this::guardPage);
    routes.before("/api/teach/*", this::guardApi);
    routes.before("/api/teach/classes/{id}/stream", ctx -> classroom.room(ctx.pathParam("id")));
    routes.before("/api/teach/classes/{id}/projector/stream", ctx -> classroom.room(ctx.pathParam("id")));

    routes.get("/teach/login", ctx -> ClassroomPages.send(ctx, ClassroomPages.login(null, ctx.queryParam("next"))));
    routes.post("/teach/login", this::login);
    routes.post("/teach/logout", ctx -> {
      auth.signOut(ctx);
      ctx.redirect("/teach/login", HttpStatus.SEE_OTHER);
    });
    routes.get("/teach", ctx -> ClassroomPages.send(ctx, ClassroomPages.home(store.all(), classroom.lessons(),
        sandboxNotice.get())));
    routes.post("/teach/classes", ctx -> {
      Room room = classroom.create(ctx.formParam("name"), ctx.formParam("lesson"));
      ctx.redirect("/teach/classes/" + room.id(), HttpStatus.SEE_OTHER);
    });
    routes.get("/teach/classes/{id}", this::dashboardPage);
    routes.get("/teach/classes/{id}/projector", this::projectorPage);
    routes.get("/teach/classes/{id}/qr.svg", ctx -> {
      Room room = classroom.room(ctx.pathParam("id"));
      ClassroomPages.noStore(ctx);
      ctx.contentType("image/svg+xml").result(QrSvg.of(joinLink(ctx, room), "Join " + room.name() + " with code " + room.code()));
    });
    routes.get("/teach/classes/{id}/results.csv", ctx -> {
      Room room = classroom.room(ctx.pathParam("id"));
      ctx.header("Content-Disposition", "attachment; filename=\"class-results.csv\"");
      ClassroomPages.noStore(ctx);
      ctx.contentType("text/csv; charset=utf-8").result(ResultsCsv.render(classroom, room));
    });

    routes.post("/api/teach/classes", ctx -> {
      JsonFields body = JsonRequests.read(ctx, Classroom.MAX_REQUEST_BYTES, List.of("name", "lesson"));
      Room room = classroom.create(body.optionalText("name").orElse(null), body.optionalText("lesson").orElse(null));
      ctx.status(201).json(roomJson(ctx, room));
    });
    routes.get("/api/teach/classes", ctx -> ctx.json(store.all().stream().map(r -> roomJson(ctx, r)).toList()));
    routes.get("/api/teach/classes/{id}", ctx -> ctx.json(roomJson(ctx, classroom.room(ctx.pathParam("id")))));
    routes.post("/api/teach/classes/{id}/code", ctx -> ctx.json(roomJson(ctx, classroom.rotate(ctx.pathParam("id")))));
    routes.post("/api/teach/classes/{id}/close", this::closeClass);
    routes.delete("/api/teach/classes/{id}/students/{learner}", this::removeStudent);
    routes.get("/api/teach/classes/{id}/questions", ctx -> {
      Room room = classroom.room(ctx.pathParam("id"));
      ctx.json(classroom.liveQuestions(room));
    });
    routes.post("/api/teach/classes/{id}/live/push", this::push);
    routes.post("/api/teach/classes/{id}/live/next", this::next);
    routes.post("/api/teach/classes/{id}/live/reveal", this::reveal);
    routes.post("/api/teach/classes/{id}/live/leaderboard", this::leaderboard);
    routes.post("/api/teach/classes/{id}/live/end", this::endSession);
    routes.put("/api/teach/classes/{id}/holds", this::holds);
    routes.sse("/api/teach/classes/{id}/stream", this::stream);
    routes.sse("/api/teach/classes/{id}/projector/stream", this::projectorStream);
  }

  // --- guards and sign-in

  private void guardPage(Context ctx) {
    SameOriginGuard.check(ctx);
    if (ctx.path().equals("/teach/login")) return;
    if (auth.signedIn(ctx)) return;
    if (ctx.method() == HandlerType.GET) {
      ctx.redirect("/teach/login?next=" + URLEncoder.encode(ctx.path(), StandardCharsets.UTF_8), HttpStatus.SEE_OTHER);
      ctx.skipRemainingHandlers();
      return;
    }
    throw new ForbiddenResponse(SIGN_IN_REQUIRED);
  }

  private void guardApi(Context ctx) {
    if (!auth.signedIn(ctx)) throw new UnauthorizedResponse(SIGN_IN_REQUIRED);
  }

  private void login(Context ctx) {
    String next = ctx.formParam("next");
    if (next == null || !next.startsWith("/teach") || next.startsWith("//")) next = "/teach";
    String device = auth.device(ctx);
    boolean local = isLoopback(ctx.ip());
    OptionalLong wait = logins.before(device, ctx.ip(), local);
    if (wait.isPresent()) {
      ctx.header("Retry-After", String.valueOf(wait.getAsLong()));
      ctx.status(429);
      ClassroomPages.send(ctx, ClassroomPages.login("Too many wrong secrets were tried; try again in " + wait.getAsLong()
          + " seconds. (A browser you signed in with before, and the computer running the app, are not held up.)", next));
      return;
    }
    if (!auth.matches(ctx.formParam("secret"))) {
      logins.failed(device, ctx.ip(), local);
      ctx.status(401);
      ClassroomPages.send(ctx, ClassroomPages.login("That is not the instructor secret.", next));
      return;
    }
    logins.succeeded();
    auth.signIn(ctx);
    ctx.redirect(next, HttpStatus.SEE_OTHER);
  }

  private static boolean isLoopback(String address) {
    try {
      return InetAddress.getByName(address).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  // --- the dashboard

  private void dashboardPage(Context ctx) {
    Room room = classroom.room(ctx.pathParam("id"));
    Map<String, String> ladder = new LinkedHashMap<>();
    classroom.lesson(room).ladder().forEach((id, q) -> ladder.put(id, q.question()));
    DomContent picker = QuestionPicker.render(classroom.liveQuestions(room), classroom.lessons(),
        QuestionPicker.lastPushed(store.rounds(room.id())));
    ClassroomPages.send(ctx, ClassroomPages.dashboard(room, joinLink(ctx, room), push.panels(room), push.live(room), picker,
        ladder, store.holds(room.id()), sandboxNotice.get()));
  }

  /**
   * Opens an instructor's live stream on its class: the class, once the stream is counted and kept alive; empty when
   * the class was deleted after the before-handler looked (the stream says so and ends) or ops ended the stream.
   */
  private Optional<Room> open(SseClient sse) {
    Optional<Room> found = store.find(sse.ctx().pathParam("id"));
    if (found.isEmpty()) {
      feed.send(sse, "error", Map.of("error", "no class '" + sse.ctx().pathParam("id") + "'"));
      sse.close();
      return Optional.empty();
    }
    streamOpened.accept(sse);
    if (sse.terminated()) return Optional.empty();
    sse.keepAlive();
    return found;
  }

  private void stream(SseClient sse) {
    Optional<Room> opened = open(sse);
    if (opened.isEmpty()) return;
    Room room = opened.get();
    feed.addInstructor(room.id(), sse);
    push.watchDeadline(room);
    feed.send(sse, "live", ClassroomJson.Fragment.of(push.live(room)));
    for (var panel : push.panels(room).entrySet()) feed.send(sse, panel.getKey(), ClassroomJson.Fragment.of(panel.getValue()));
  }

  // --- the projector: the room's screen, whose page and stream never carry the answers' split before the reveal
  // unless the instructor asked for live counts (?counts=live)

  private static boolean liveCounts(Context ctx) {
    return "live".equals(ctx.queryParam("counts"));
  }

  private void projectorPage(Context ctx) {
    Room room = classroom.room(ctx.pathParam("id"));
    boolean counts = liveCounts(ctx);
    ClassroomPages.send(ctx, ProjectorViews.page(room, joinLink(ctx, room), push.projected(room, counts), counts));
  }

  private void projectorStream(SseClient sse) {
    Optional<Room> opened = open(sse);
    if (opened.isEmpty()) return;
    Room room = opened.get();
    boolean counts = liveCounts(sse.ctx());
    feed.addProjector(room.id(), sse, counts);
    push.watchDeadline(room);
    feed.send(sse, "live", ClassroomJson.Fragment.of(push.projected(room, counts)));
  }

  // --- the class

  private void closeClass(Context ctx) {
    Room room = classroom.close(ctx.pathParam("id"));
    fanout.closed(room.id());
    ctx.json(roomJson(ctx, room));
  }

  record Removed(String removed, String nickname) {}

  private void removeStudent(Context ctx) {
    Member m = classroom.removeStudent(ctx.pathParam("id"), ctx.pathParam("learner"));
    fanout.removed(m.classId(), m.learnerId());
    ctx.json(new Removed(m.learnerId(), m.nickname()));
  }

  // --- live questions

  /** @param deadline when answers close, or null for a question without a time limit */
  record Pushed(String round, String question, String session, String pushedAt, String deadline) {}

  private void push(Context ctx) {
    JsonFields body = JsonRequests.read(ctx, Classroom.MAX_REQUEST_BYTES, List.of("question", "timeLimit"));
    Round round = classroom.push(ctx.pathParam("id"), body.optionalText("question").orElse(null),
        body.optionalInteger("timeLimit").orElse(null));
    LiveBank.LiveQuestion q = classroom.question(round);
    fanout.pushed(round);
    ctx.json(new Pushed(round.id(), q.id(), round.session(), round.pushedAt().toString(),
        round.deadline() == null ? null : round.deadline().toString()));
  }

  private void next(Context ctx) {
    JsonFields body = JsonRequests.read(ctx, Classroom.MAX_REQUEST_BYTES, List.of("timeLimit"));
    Round round = classroom.next(ctx.pathParam("id"), body.optionalInteger("timeLimit").orElse(null));
    LiveBank.LiveQuestion q = classroom.question(round);
    fanout.pushed(round);
    ctx.json(new Pushed(round.id(), q.id(), round.session(), round.pushedAt().toString(),
        round.deadline() == null ? null : round.deadline().toString()));
  }

  /** The reveal each student gets: the right option, and the round drawn with their own answer marked. */
  record Reveal(String round, int answer, String html) {}

  record Revealed(String round, int answer, int[] counts) {}

  private void reveal(Context ctx) {
    Round round = classroom.reveal(ctx.pathParam("id"));
    LiveBank.LiveQuestion q = classroom.question(round);
    int[] counts = classroom.histogram(round);
    fanout.revealed(round);
    ctx.json(new Revealed(round.id(), q.answer(), counts));
  }

  record LeaderboardMode(Leaderboard leaderboard) {}

  private void leaderboard(Context ctx) {
    JsonFields body = JsonRequests.read(ctx, Classroom.MAX_REQUEST_BYTES, List.of("show", "anonymous"));
    classroom.leaderboard(ctx.pathParam("id"), body.optionalBool("show").orElse(false),
        body.optionalBool("anonymous").orElse(false));
    Room room = classroom.room(ctx.pathParam("id"));
    fanout.leaderboard(room.id());
    ctx.json(new LeaderboardMode(room.leaderboard()));
  }

  record Ended(boolean ended) {}

  private void endSession(Context ctx) {
    classroom.end(ctx.pathParam("id"));
    fanout.ended(ctx.pathParam("id"));
    ctx.json(new Ended(true));
  }

  // --- holds

  record Holds(Set<String> held, List<String> released) {}

  record Release(List<String> items) {}

  private void holds(Context ctx) {
    JsonFields body = JsonRequests.read(ctx, Classroom.MAX_REQUEST_BYTES, List.of("held"));
    List<String> items = body.texts("held", "ladder question ids", Classroom.MAX_HOLDS);
    String id = ctx.pathParam("id");
    List<String> released = classroom.setHolds(id, items);
    if (!released.isEmpty()) fanout.released(id, released);
    ctx.json(new Holds(store.holds(id), released));
  }

  // --- helpers

  private ClassroomJson.RoomView roomJson(Context ctx, Room room) {
    return ClassroomJson.room(room, joinLink(ctx, room), store.members(room.id()), push.online(room.id()));
  }

  /** The link students open (or scan) to join: on the host and scheme they reach this app by. */
  private static String joinLink(Context ctx, Room room) {
    return RequestOrigin.of(ctx) + "/join?code=" + room.code();
  }
}
