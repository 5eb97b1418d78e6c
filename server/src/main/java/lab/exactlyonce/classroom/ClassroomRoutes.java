package lab.exactlyonce.classroom;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.config.RoutesConfig;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.Context;
import io.javalin.http.ForbiddenResponse;
import io.javalin.http.HttpResponseException;
import io.javalin.http.HttpStatus;
import io.javalin.http.TooManyRequestsResponse;
import io.javalin.http.UnauthorizedResponse;
import io.javalin.http.sse.SseClient;
import j2html.tags.DomContent;
import lab.exactlyonce.learner.Learners;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.lesson.LessonCatalog;
import lab.exactlyonce.progress.EventLog;
import lab.exactlyonce.progress.Progress;
import lab.exactlyonce.progress.RecordedEvent;
import lab.exactlyonce.quiz.LiveBank;
import lab.exactlyonce.store.Database;
import lab.exactlyonce.web.JsonRequests;
import lab.exactlyonce.web.SameOriginGuard;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * HTTP for the classroom; the routes and the JSON they speak are documented in {@code package-info.java}. Instructor
 * pages and APIs are closed by before-handlers; every state-changing request passes the same-origin guard. Live
 * updates go out over Server-Sent Events: students get their question at once; the instructor's histogram and the
 * dashboard panels are re-rendered at most a few times a second and only when something changed.
 */
public final class ClassroomRoutes implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ClassroomRoutes.class);
  private static final int MAX_BODY = 4096;
  static final String SIGN_IN_REQUIRED = "instructor sign-in required: sign in at /teach/login";
  static final String NOT_A_MEMBER = "you are not a member of this class: join it with its code at /join";

  private final Classroom classroom;
  private final ClassStore store;
  private final InstructorAuth auth;
  private final Learners learners;
  private final RoomFeed feed;
  private final Dashboard dashboard;
  private final SignInThrottle logins;
  private final RateLimiter joinsByAddress;
  private final RateLimiter joinsByClass;
  private final RateLimiter answers;
  private final Set<String> liveDirty = ConcurrentHashMap.newKeySet();
  /** Classes whose roster (online status) changed: re-rendered on the next tick. */
  private final Set<String> rosterDirty = ConcurrentHashMap.newKeySet();
  /** Classes whose members changed: every panel re-rendered, at most every {@value #FULL_EVERY} ticks. */
  private final Set<String> panelsDirty = ConcurrentHashMap.newKeySet();
  private static final int FULL_EVERY = 10;
  private final Map<String, String> versions = new ConcurrentHashMap<>();
  private final ScheduledExecutorService ticker;
  private final Consumer<SseClient> streamOpened;
  private int ticks;

  /**
   * @param progress derives a learner's progress in a lesson from their events there (the progress feature)
   * @param announce told the generated instructor secret the one time it is made (the app prints it)
   * @param streamOpened told every live stream as it opens, before {@code keepAlive()} (ops counts them and ends them
   *     with a reconnect hint on shutdown: pass its {@code LiveStreams::add})
   */
  public ClassroomRoutes(ClassroomSettings settings, Path dataDir, Database db, EventLog events, LiveBank bank,
                         LessonCatalog lessons, Learners learners, BiFunction<Lesson, List<RecordedEvent>, Progress> progress,
                         Clock clock, Consumer<String> announce, Consumer<SseClient> streamOpened) {
    this.streamOpened = streamOpened;
    this.store = new ClassStore(db);
    this.classroom = new Classroom(store, events, bank, lessons, clock);
    this.auth = InstructorAuth.create(settings.instructorSecret(), dataDir, clock, announce);
    this.learners = learners;
    this.feed = new RoomFeed(rosterDirty::add);
    this.dashboard = new Dashboard(classroom, progress);
    this.logins = new SignInThrottle(clock);
    this.joinsByAddress = new RateLimiter(settings.joinsPerMinutePerAddress(), clock);
    this.joinsByClass = new RateLimiter(settings.joinsPerMinutePerClass(), clock);
    this.answers = new RateLimiter(settings.answersPerMinutePerStudent(), clock);
    this.ticker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "classroom-dashboard");
      t.setDaemon(true);
      return t;
    });
    ticker.scheduleWithFixedDelay(this::tick, 150, 150, TimeUnit.MILLISECONDS);
  }

  /** Class memberships, for "export my data" and "forget me". */
  public lab.exactlyonce.learner.LearnerData learnerData() {
    return store;
  }

  /** Open live streams (students and instructors), for metrics. */
  public int liveConnections() {
    return feed.connections();
  }

  @Override
  public void close() {
    ticker.shutdownNow();
  }

  public void register(RoutesConfig routes) {
    routes.before("/teach", this::guardPage);
    routes.before("/teach/*", this::guardPage);
    routes.before("/api/teach/*", this::guardApi);
    routes.before("/api/teach/classes/{id}/stream", ctx -> classroom.room(ctx.pathParam("id")));
    routes.before("/join", SameOriginGuard::check);
    routes.before("/api/classes/{id}/stream", ctx -> classroom.requireMember(ctx.pathParam("id"), learners.current(ctx)));

    routes.get("/teach/login", ctx -> page(ctx, ClassroomPages.login(null, ctx.queryParam("next"))));
    routes.post("/teach/login", this::login);
    routes.post("/teach/logout", ctx -> {
      auth.signOut(ctx);
      ctx.redirect("/teach/login", HttpStatus.SEE_OTHER);
    });
    routes.get("/teach", ctx -> page(ctx, ClassroomPages.home(store.all(), classroom.lessons())));
    routes.post("/teach/classes", ctx -> {
      Room room = classroom.create(ctx.formParam("name"), ctx.formParam("lesson"));
      ctx.redirect("/teach/classes/" + room.id(), HttpStatus.SEE_OTHER);
    });
    routes.get("/teach/classes/{id}", this::dashboardPage);
    routes.get("/teach/classes/{id}/qr.svg", ctx -> {
      Room room = classroom.room(ctx.pathParam("id"));
      ctx.header("Cache-Control", "no-store");
      ctx.contentType("image/svg+xml").result(QrSvg.of(joinLink(ctx, room), "Join " + room.name() + " with code " + room.code()));
    });
    routes.get("/teach/classes/{id}/results.csv", ctx -> {
      Room room = classroom.room(ctx.pathParam("id"));
      ctx.header("Content-Disposition", "attachment; filename=\"class-results.csv\"");
      ctx.header("Cache-Control", "no-store");
      ctx.contentType("text/csv; charset=utf-8").result(ResultsCsv.render(classroom, room));
    });

    routes.post("/api/teach/classes", ctx -> {
      ObjectNode body = body(ctx, Set.of("name", "lesson"));
      Room room = classroom.create(text(body, "name"), text(body, "lesson"));
      ctx.status(201).json(roomJson(ctx, room));
    });
    routes.get("/api/teach/classes", ctx -> ctx.json(store.all().stream().map(r -> roomJson(ctx, r)).toList()));
    routes.get("/api/teach/classes/{id}", ctx -> ctx.json(roomJson(ctx, classroom.room(ctx.pathParam("id")))));
    routes.post("/api/teach/classes/{id}/code", ctx -> ctx.json(roomJson(ctx, classroom.rotate(ctx.pathParam("id")))));
    routes.post("/api/teach/classes/{id}/close", this::closeClass);
    routes.delete("/api/teach/classes/{id}/students/{learner}", this::removeStudent);
    routes.get("/api/teach/classes/{id}/questions", ctx -> {
      Room room = classroom.room(ctx.pathParam("id"));
      ctx.json(classroom.bank().questions(room.lesson()));
    });
    routes.post("/api/teach/classes/{id}/live/push", this::push);
    routes.post("/api/teach/classes/{id}/live/reveal", this::reveal);
    routes.post("/api/teach/classes/{id}/live/leaderboard", this::leaderboard);
    routes.post("/api/teach/classes/{id}/live/end", this::endSession);
    routes.put("/api/teach/classes/{id}/holds", this::holds);
    routes.sse("/api/teach/classes/{id}/stream", this::instructorStream);

    routes.get("/join", ctx -> page(ctx, ClassroomPages.join(ctx.queryParam("code"), null, null)));
    routes.post("/join", this::joinForm);
    routes.post("/api/join", this::joinJson);
    routes.get("/classes/{id}", this::studentPage);
    routes.get("/api/classes/{id}/state", ctx -> {
      Member me = classroom.requireMember(ctx.pathParam("id"), learners.current(ctx));
      noStore(ctx);
      ctx.json(state(classroom.room(me.classId()), me.learnerId()));
    });
    routes.sse("/api/classes/{id}/stream", this::studentStream);
    routes.post("/api/classes/{id}/answers", this::answer);
  }

  // --- guards

  private void guardPage(Context ctx) {
    SameOriginGuard.check(ctx);
    if (ctx.path().equals("/teach/login")) return;
    if (auth.signedIn(ctx)) return;
    if (ctx.method() == io.javalin.http.HandlerType.GET) {
      ctx.redirect("/teach/login?next=" + java.net.URLEncoder.encode(ctx.path(), java.nio.charset.StandardCharsets.UTF_8),
          HttpStatus.SEE_OTHER);
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
      page(ctx, ClassroomPages.login("Too many wrong secrets were tried; try again in " + wait.getAsLong()
          + " seconds. (A browser you signed in with before, and the computer running the app, are not held up.)", next));
      return;
    }
    if (!auth.matches(ctx.formParam("secret"))) {
      logins.failed(device, ctx.ip(), local);
      ctx.status(401);
      page(ctx, ClassroomPages.login("That is not the instructor secret.", next));
      return;
    }
    logins.succeeded();
    auth.signIn(ctx);
    ctx.redirect(next, HttpStatus.SEE_OTHER);
  }

  // --- instructor

  private void dashboardPage(Context ctx) {
    Room room = classroom.room(ctx.pathParam("id"));
    Map<String, DomContent> panels = dashboard.panels(room, feed.online(room.id()));
    page(ctx, ClassroomPages.dashboard(room, joinLink(ctx, room), panels, instructorLive(room),
        classroom.bank().questions(room.lesson()), classroom.ladder(room), store.holds(room.id())));
  }

  private void instructorStream(SseClient sse) {
    Context ctx = sse.ctx();
    Optional<Room> room = store.find(ctx.pathParam("id"));
    if (room.isEmpty()) {
      sse.sendEvent("error", "{\"error\":\"no class '" + ctx.pathParam("id").replaceAll("[^A-Za-z0-9-]", "") + "'\"}");
      sse.close();
      return;
    }
    streamOpened.accept(sse);
    if (sse.terminated()) return;
    sse.keepAlive();
    feed.addInstructor(room.get().id(), sse);
    Room r = room.get();
    feed.send(sse, "live", Map.of("html", instructorLive(r).render()));
    for (var panel : dashboard.panels(r, feed.online(r.id())).entrySet()) {
      feed.send(sse, panel.getKey(), Map.of("html", panel.getValue().render()));
    }
  }

  private void closeClass(Context ctx) {
    Room room = classroom.close(ctx.pathParam("id"));
    feed.endStudents(room.id(), "closed", Map.of("html", LiveViews.studentIdle(room).render()));
    liveDirty.add(room.id());
    ctx.json(roomJson(ctx, room));
  }

  private void removeStudent(Context ctx) {
    Member m = classroom.removeStudent(ctx.pathParam("id"), ctx.pathParam("learner"));
    feed.endStudent(m.classId(), m.learnerId(), "removed",
        Map.of("html", "<p>Your instructor removed you from this class.</p>"));
    rosterDirty.add(m.classId());
    panelsDirty.add(m.classId());
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("removed", m.learnerId());
    body.put("nickname", m.nickname());
    ctx.json(body);
  }

  private void push(Context ctx) {
    ObjectNode body = body(ctx, Set.of("question"));
    Round round = classroom.push(ctx.pathParam("id"), text(body, "question"));
    LiveBank.LiveQuestion q = classroom.question(round);
    Map<String, Object> event = questionEvent(round, q, null);
    feed.toStudents(round.classId(), "question", event);
    liveDirty.add(round.classId());
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("round", round.id());
    out.put("question", q.id());
    out.put("session", round.session());
    out.put("pushedAt", round.pushedAt().toString());
    ctx.json(out);
  }

  private void reveal(Context ctx) {
    Round round = classroom.reveal(ctx.pathParam("id"));
    Room room = classroom.room(round.classId());
    LiveBank.LiveQuestion q = classroom.question(round);
    int[] counts = classroom.histogram(round);
    Map<String, Integer> tally = classroom.tally(round);
    feed.toEachStudent(room.id(), "reveal", learner -> {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("round", round.id());
      e.put("answer", q.answer());
      e.put("html", LiveViews.studentQuestion(round, q, tally.get(learner), counts).render());
      return e;
    });
    sendLeaderboard(room);
    liveDirty.add(room.id());
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("round", round.id());
    out.put("answer", q.answer());
    out.put("counts", counts);
    ctx.json(out);
  }

  private void leaderboard(Context ctx) {
    ObjectNode body = body(ctx, Set.of("show", "anonymous"));
    classroom.leaderboard(ctx.pathParam("id"), bool(body, "show"), bool(body, "anonymous"));
    Room room = classroom.room(ctx.pathParam("id"));
    sendLeaderboard(room);
    liveDirty.add(room.id());
    ctx.json(Map.of("leaderboard", room.leaderboard()));
  }

  private void sendLeaderboard(Room room) {
    String html = Classroom.LEADERBOARD_OFF.equals(room.leaderboard()) ? ""
        : LiveViews.leaderboard(room, classroom.scores(room), nicknames(room)).render();
    feed.toStudents(room.id(), "leaderboard", Map.of("html", html));
  }

  private void endSession(Context ctx) {
    classroom.end(ctx.pathParam("id"));
    Room room = classroom.room(ctx.pathParam("id"));
    feed.toStudents(room.id(), "idle", Map.of("html", LiveViews.studentIdle(room).render()));
    liveDirty.add(room.id());
    ctx.json(Map.of("ended", true));
  }

  private void holds(Context ctx) {
    ObjectNode body = body(ctx, Set.of("held"));
    JsonNode held = body.get("held");
    if (held == null || !held.isArray()) throw new BadRequestResponse("'held' must be a list of ladder question ids, such as [\"L1\", \"L2\"]");
    List<String> items = new ArrayList<>();
    for (JsonNode item : held) {
      if (!item.isTextual()) throw new BadRequestResponse("'held' must be a list of ladder question ids, got " + item);
      items.add(item.asText());
    }
    String id = ctx.pathParam("id");
    List<String> released = classroom.setHolds(id, items);
    if (!released.isEmpty()) feed.toStudents(id, "release", Map.of("items", released));
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("held", store.holds(id));
    out.put("released", released);
    ctx.json(out);
  }

  // --- students

  private record Joined(Room room, Member member, boolean created) {}

  private Joined join(Context ctx, String code, String nickname) {
    // Only failed joins count against the address: a class joining through one NAT succeeds, whatever its size.
    refuseWhile(joinsByAddress.peek(ctx.ip()), ctx,
        "too many failed joins from your address (a wrong code or nickname); try again in %d seconds");
    String nick;
    Room room;
    try {
      nick = Nicknames.check(nickname);
      room = classroom.byCode(code);
    } catch (HttpResponseException refused) {
      joinsByAddress.take(ctx.ip());
      throw refused;
    }
    Optional<String> existing = learners.current(ctx);
    if (existing.isPresent()) {
      Optional<Member> member = classroom.membership(room, existing.get());
      if (member.isPresent()) return new Joined(room, member.get(), false);
    }
    limit(joinsByClass, room.id(), ctx, "this class is taking too many joins at once; try again in %d seconds");
    String learner = learners.currentOrCreate(ctx);
    Classroom.Joining joining = classroom.join(room, learner, nick);
    rosterDirty.add(room.id());
    panelsDirty.add(room.id());
    return new Joined(room, joining.member(), joining.created());
  }

  private static boolean isLoopback(String address) {
    try {
      return InetAddress.getByName(address).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  private static void limit(RateLimiter limiter, String key, Context ctx, String message) {
    refuseWhile(limiter.take(key), ctx, message);
  }

  /** 429 with {@code Retry-After} while a limiter says to wait; {@code message} has a {@code %d} for the seconds. */
  private static void refuseWhile(OptionalLong wait, Context ctx, String message) {
    if (wait.isPresent()) {
      ctx.header("Retry-After", String.valueOf(wait.getAsLong()));
      throw new TooManyRequestsResponse(String.format(message, wait.getAsLong()));
    }
  }

  private void joinForm(Context ctx) {
    String code = ctx.formParam("code");
    String nickname = ctx.formParam("nickname");
    try {
      Joined joined = join(ctx, code, nickname);
      ctx.redirect("/classes/" + joined.room().id(), HttpStatus.SEE_OTHER);
    } catch (HttpResponseException e) {
      ctx.status(e.getStatus());
      page(ctx, ClassroomPages.join(code, nickname, e.getMessage()));
    }
  }

  private void joinJson(Context ctx) {
    ObjectNode body = body(ctx, Set.of("code", "nickname"));
    Joined joined = join(ctx, text(body, "code"), text(body, "nickname"));
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("class", joined.room().id());
    out.put("name", joined.room().name());
    out.put("nickname", joined.member().nickname());
    out.put("page", "/classes/" + joined.room().id());
    out.put("stream", "/api/classes/" + joined.room().id() + "/stream");
    ctx.status(joined.created() ? 201 : 200).json(out);
  }

  private void studentPage(Context ctx) {
    Member me = classroom.requireMember(ctx.pathParam("id"), learners.current(ctx));
    Room room = classroom.room(me.classId());
    page(ctx, ClassroomPages.student(room, me, studentLive(room, me.learnerId())));
  }

  private DomContent studentLive(Room room, String learner) {
    Optional<Round> round = room.closed() ? Optional.empty() : classroom.current(room);
    if (round.isEmpty()) return LiveViews.studentIdle(room);
    return LiveViews.studentQuestion(round.get(), classroom.question(round.get()), classroom.tally(round.get()).get(learner),
        classroom.histogram(round.get()));
  }

  private Map<String, Object> state(Room room, String learner) {
    Optional<Round> round = room.closed() ? Optional.empty() : classroom.current(room);
    if (round.isEmpty()) {
      Map<String, Object> idle = new LinkedHashMap<>();
      idle.put("round", null);
      idle.put("html", LiveViews.studentIdle(room).render());
      return idle;
    }
    return questionEvent(round.get(), classroom.question(round.get()), learner);
  }

  /** The {@code question} event; rendered for {@code learner} (their answer marked) when not null. */
  private Map<String, Object> questionEvent(Round round, LiveBank.LiveQuestion q, String learner) {
    Map<String, Object> e = new LinkedHashMap<>();
    e.put("round", round.id());
    e.put("question", q.id());
    e.put("kind", q.kind());
    e.put("options", q.options());
    e.put("pushedAt", round.pushedAt().toString());
    e.put("revealed", round.revealed());
    Integer mine = learner == null ? null : classroom.tally(round).get(learner);
    int[] counts = round.revealed() ? classroom.histogram(round) : new int[q.options().size()];
    e.put("html", LiveViews.studentQuestion(round, q, mine, counts).render());
    return e;
  }

  private void studentStream(SseClient sse) {
    Context ctx = sse.ctx();
    Member me = classroom.requireMember(ctx.pathParam("id"), learners.current(ctx));
    Room room = classroom.room(me.classId());
    streamOpened.accept(sse);
    if (sse.terminated()) return;
    sse.keepAlive();
    feed.addStudent(room.id(), me.learnerId(), sse);
    Map<String, Object> now = state(room, me.learnerId());
    feed.send(sse, now.get("round") == null ? "idle" : "question", now);
    if (!Classroom.LEADERBOARD_OFF.equals(room.leaderboard())) {
      feed.send(sse, "leaderboard", Map.of("html", LiveViews.leaderboard(room, classroom.scores(room), nicknames(room)).render()));
    }
  }

  private void answer(Context ctx) {
    Member me = classroom.requireMember(ctx.pathParam("id"), learners.current(ctx));
    Room room = classroom.open(me.classId());
    limit(answers, me.learnerId(), ctx, "too many answers; try again in %d seconds");
    ObjectNode body = body(ctx, Set.of("id", "round", "choice"));
    JsonNode choice = body.get("choice");
    if (choice != null && !choice.isNull() && !(choice.isIntegralNumber() && choice.canConvertToInt())) {
      throw new BadRequestResponse("'choice' must be a whole number, got " + choice);
    }
    Map<String, Object> out = classroom.answer(room, me.learnerId(), new Classroom.Answer(text(body, "id"), text(body, "round"),
        choice == null || choice.isNull() ? null : choice.intValue()));
    liveDirty.add(room.id());
    ctx.json(out);
  }

  // --- rendering and pushing

  private DomContent instructorLive(Room room) {
    Optional<Round> round = room.closed() ? Optional.empty() : classroom.current(room);
    List<Member> members = store.members(room.id());
    int online = feed.online(room.id()).size();
    if (round.isEmpty()) return LiveViews.instructorLive(room, null, null, new int[0], members.size(), online, List.of(), Map.of());
    boolean board = !Classroom.LEADERBOARD_OFF.equals(room.leaderboard());
    return LiveViews.instructorLive(room, round.get(), classroom.question(round.get()), classroom.histogram(round.get()),
        members.size(), online, board ? classroom.scores(room) : List.of(), board ? nicknames(room) : Map.of());
  }

  private Map<String, String> nicknames(Room room) {
    Map<String, String> names = new HashMap<>();
    for (Member m : store.members(room.id())) names.put(m.learnerId(), m.nickname());
    return names;
  }

  /**
   * Pushes what changed to watching instructors: the live panel and the roster at once (each tick, 150 ms); the
   * other panels when members or their events changed (checked every {@value #FULL_EVERY} ticks).
   */
  private void tick() {
    try {
      ticks++;
      for (String id : drain(liveDirty)) {
        if (!feed.watched(id)) continue;
        store.find(id).ifPresent(room -> feed.toInstructors(id, "live", Map.of("html", instructorLive(room).render())));
      }
      for (String id : drain(rosterDirty)) {
        if (!feed.watched(id)) continue;
        store.find(id).ifPresent(room -> feed.toInstructors(id, "roster",
            Map.of("html", dashboard.roster(room, store.members(id), feed.online(id)).render())));
      }
      if (ticks % FULL_EVERY != 0) return;
      Set<String> refresh = drain(panelsDirty);
      for (String id : feed.watchedClasses()) {
        Optional<Room> room = store.find(id);
        if (room.isEmpty()) continue;
        String version = store.eventsVersion(id, room.get().lesson());
        if (!version.equals(versions.put(id, version))) refresh.add(id);
      }
      for (String id : refresh) {
        if (!feed.watched(id)) continue;
        Optional<Room> room = store.find(id);
        if (room.isEmpty()) continue;
        for (var panel : dashboard.panels(room.get(), feed.online(id)).entrySet()) {
          feed.toInstructors(id, panel.getKey(), Map.of("html", panel.getValue().render()));
        }
        feed.toInstructors(id, "live", Map.of("html", instructorLive(room.get()).render()));
      }
    } catch (RuntimeException e) {
      log.error("classroom dashboard update failed", e);
    }
  }

  private static Set<String> drain(Set<String> dirty) {
    Set<String> out = new java.util.HashSet<>();
    for (var it = dirty.iterator(); it.hasNext(); ) {
      out.add(it.next());
      it.remove();
    }
    return out;
  }

  // --- helpers

  private Map<String, Object> roomJson(Context ctx, Room room) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("id", room.id());
    body.put("name", room.name());
    body.put("lesson", room.lesson());
    body.put("code", room.code());
    body.put("joinLink", joinLink(ctx, room));
    body.put("qr", "/teach/classes/" + room.id() + "/qr.svg");
    body.put("dashboard", "/teach/classes/" + room.id());
    body.put("closed", room.closed());
    body.put("createdAt", room.createdAt().toString());
    Set<String> online = feed.online(room.id());
    body.put("students", store.members(room.id()).stream().map(m -> {
      Map<String, Object> s = new LinkedHashMap<>();
      s.put("learner", m.learnerId());
      s.put("nickname", m.nickname());
      s.put("online", online.contains(m.learnerId()));
      s.put("joinedAt", m.joinedAt().toString());
      return s;
    }).toList());
    return body;
  }

  private static String joinLink(Context ctx, Room room) {
    String host = Optional.ofNullable(ctx.host()).orElse("localhost");
    return ctx.scheme() + "://" + host + "/join?code=" + room.code();
  }

  private static ObjectNode body(Context ctx, Set<String> fields) {
    ObjectNode body = JsonRequests.object(ctx, MAX_BODY);
    List<String> unknown = new ArrayList<>();
    body.fieldNames().forEachRemaining(f -> { if (!fields.contains(f)) unknown.add(f); });
    if (!unknown.isEmpty()) {
      throw new BadRequestResponse("unknown field '" + unknown.get(0) + "'; expected " + String.join(", ", new java.util.TreeSet<>(fields)));
    }
    return body;
  }

  private static String text(ObjectNode body, String field) {
    JsonNode v = body.get(field);
    if (v == null || v.isNull()) return null;
    if (!v.isTextual()) throw new BadRequestResponse("'" + field + "' must be a string, got " + v);
    return v.asText();
  }

  private static boolean bool(ObjectNode body, String field) {
    JsonNode v = body.get(field);
    if (v == null || v.isNull()) return false;
    if (!v.isBoolean()) throw new BadRequestResponse("'" + field + "' must be true or false, got " + v);
    return v.booleanValue();
  }

  private static void noStore(Context ctx) {
    ctx.header("Cache-Control", "no-store");
  }

  private static void page(Context ctx, String html) {
    noStore(ctx);
    ctx.html(html);
  }
}
