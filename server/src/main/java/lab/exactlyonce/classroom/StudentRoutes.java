package lab.exactlyonce.classroom;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.http.HttpStatus;
import io.javalin.http.TooManyRequestsResponse;
import io.javalin.http.sse.SseClient;
import j2html.tags.DomContent;
import lab.exactlyonce.learner.Learners;
import lab.exactlyonce.web.JsonFields;
import lab.exactlyonce.web.JsonRequests;
import lab.exactlyonce.web.RateLimiter;
import lab.exactlyonce.web.SameOriginGuard;

import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * HTTP for students: joining with a code and a nickname, the class page, its stream and live answers. The learner is
 * the learner feature's signed cookie, created on a first join.
 */
final class StudentRoutes {
  private final Classroom classroom;
  private final Learners learners;
  private final DashboardPush push;
  private final RoomFeed feed;
  private final LiveFanout fanout;
  private final RateLimiter joinsByAddress;
  private final RateLimiter joinsByClass;
  private final RateLimiter answers;
  private final Consumer<SseClient> streamOpened;

  StudentRoutes(Classroom classroom, Learners learners, DashboardPush push, LiveFanout fanout, ClassroomSettings settings,
                Clock clock, Consumer<SseClient> streamOpened) {
    this.fanout = fanout;
    this.classroom = classroom;
    this.learners = learners;
    this.push = push;
    this.feed = push.feed();
    this.joinsByAddress = new RateLimiter(settings.joinsPerMinutePerAddress(), clock);
    this.joinsByClass = new RateLimiter(settings.joinsPerMinutePerClass(), clock);
    this.answers = new RateLimiter(settings.answersPerMinutePerStudent(), clock);
    this.streamOpened = streamOpened;
  }

  void register(RoutesConfig routes) {
    routes.before("/join", SameOriginGuard::check);
    routes.before("/api/classes/{id}/stream", ctx -> classroom.requireMember(ctx.pathParam("id"), learners.current(ctx)));

    routes.get("/join", ctx -> ClassroomPages.send(ctx, ClassroomPages.join(ctx.queryParam("code"), null, null)));
    routes.post("/join", this::joinForm);
    routes.post("/api/join", this::joinJson);
    routes.get("/classes/{id}", this::studentPage);
    routes.get("/api/classes/{id}/state", ctx -> {
      Member me = member(ctx);
      ClassroomPages.noStore(ctx);
      ctx.json(ClassroomJson.state(classroom, classroom.room(me.classId()), me.learnerId()));
    });
    routes.get("/api/classes/{id}/standing", ctx -> {
      Member me = member(ctx);
      Room room = classroom.room(me.classId());
      ClassroomPages.noStore(ctx);
      ctx.json(ClassroomJson.standing(classroom, room, me.learnerId(), push.online(room.id())));
    });
    routes.sse("/api/classes/{id}/stream", this::stream);
    routes.post("/api/classes/{id}/answers", this::answer);
  }

  private Member member(Context ctx) {
    return classroom.requireMember(ctx.pathParam("id"), learners.current(ctx));
  }

  // --- joining

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
    refuseWhile(joinsByClass.take(room.id()), ctx, "this class is taking too many joins at once; try again in %d seconds");
    String learner = learners.currentOrCreate(ctx);
    Classroom.Joining joining = classroom.join(room, learner, nick);
    if (joining.created()) fanout.joined(room.id());
    return new Joined(room, joining.member(), joining.created());
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
      ClassroomPages.send(ctx, ClassroomPages.join(code, nickname, e.getMessage()));
    }
  }

  /** The answer to {@code POST /api/join}: the class, the nickname, and where its page and stream are. */
  record Membership(@JsonProperty("class") String classId, String name, String nickname,
                    String page, String stream) {}

  private void joinJson(Context ctx) {
    JsonFields body = JsonRequests.read(ctx, Classroom.MAX_REQUEST_BYTES, List.of("code", "nickname"));
    Joined joined = join(ctx, body.optionalText("code").orElse(null), body.optionalText("nickname").orElse(null));
    String id = joined.room().id();
    ctx.status(joined.created() ? 201 : 200).json(new Membership(id, joined.room().name(), joined.member().nickname(),
        "/classes/" + id, "/api/classes/" + id + "/stream"));
  }

  // --- the class page and its stream

  private void studentPage(Context ctx) {
    Member me = member(ctx);
    Room room = classroom.room(me.classId());
    ClassroomPages.send(ctx, ClassroomPages.student(room, me, live(room, me.learnerId())));
  }

  private DomContent live(Room room, String learner) {
    Optional<Round> round = room.closed() ? Optional.empty() : classroom.current(room);
    if (round.isEmpty()) return LiveViews.studentIdle(room);
    return ClassroomJson.card(classroom, round.get(), classroom.question(round.get()), learner);
  }

  private void stream(SseClient sse) {
    Member me = member(sse.ctx());
    Room room = classroom.room(me.classId());
    streamOpened.accept(sse);
    if (sse.terminated()) return;
    sse.keepAlive();
    feed.addStudent(room.id(), me.learnerId(), sse);
    push.watchDeadline(room);
    ClassroomJson.StudentState now = ClassroomJson.state(classroom, room, me.learnerId());
    feed.send(sse, now.event(), now);
    if (room.leaderboard().shown()) {
      Object board = ClassroomJson.leaderboards(classroom, room, push.online(room.id())).apply(me.learnerId());
      feed.send(sse, "leaderboard", board);
    }
  }

  // --- answers

  private void answer(Context ctx) {
    Member me = member(ctx);
    Room room = classroom.open(me.classId());
    refuseWhile(answers.take(me.learnerId()), ctx, "too many answers; try again in %d seconds");
    JsonFields body = JsonRequests.read(ctx, Classroom.MAX_REQUEST_BYTES, List.of("id", "round", "choice"));
    Integer choice = body.optionalInteger("choice").orElse(null);
    Classroom.Receipt receipt = classroom.answer(room, me.learnerId(),
        new Classroom.Answer(body.optionalText("id").orElse(null), body.optionalText("round").orElse(null), choice));
    fanout.answered(room.id(), receipt.round());
    ctx.json(receipt);
  }
}
