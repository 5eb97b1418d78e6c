package lab.exactlyonce.classroom;

import io.javalin.config.RoutesConfig;
import io.javalin.http.sse.SseClient;
import lab.exactlyonce.learner.LearnerData;
import lab.exactlyonce.learner.Learners;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.lesson.LessonCatalog;
import lab.exactlyonce.progress.EventLog;
import lab.exactlyonce.progress.Progress;
import lab.exactlyonce.progress.RecordedEvent;
import lab.exactlyonce.quiz.LiveBank;
import lab.exactlyonce.store.Database;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The classroom as the app wires it: the instructor's and the students' routes (documented in
 * {@code package-info.java}) over one {@link Classroom}, and the dashboard push whose ticker {@link #close()} stops.
 * Live updates go out over Server-Sent Events: students get their question at once; the instructor's histogram and
 * the dashboard panels are re-rendered at most a few times a second and only when something changed.
 */
public final class ClassroomRoutes implements AutoCloseable {
  private final ClassStore store;
  private final PresenceStore presence;
  private final DashboardPush push;
  private final LiveFanout fanout;
  private final InstructorRoutes instructors;
  private final StudentRoutes students;

  /**
   * @param progress derives a learner's progress in a lesson from their events there (the progress feature)
   * @param announce told where the generated instructor secret was written, the one time it is made (the app prints it)
   * @param streamOpened told every live stream as it opens, before {@code keepAlive()} (ops counts them and ends them
   *     with a reconnect hint on shutdown: pass its {@code LiveStreams::add})
   * @param sandboxNotice how strongly the sandbox confines students' code here, for the instructor's pages
   */
  public ClassroomRoutes(ClassroomSettings settings, Path dataDir, Database db, EventLog events, LiveBank bank,
                         LessonCatalog lessons, Learners learners, BiFunction<Lesson, List<RecordedEvent>, Progress> progress,
                         Clock clock, Consumer<String> announce, Consumer<SseClient> streamOpened,
                         Supplier<SandboxNotice> sandboxNotice) {
    this.store = new ClassStore(db);
    Classroom classroom = new Classroom(store, events, bank, lessons, clock);
    InstructorAuth auth = InstructorAuth.create(settings.instructorSecret(), dataDir, store, db, clock, announce);
    this.presence = new PresenceStore(db, clock);
    this.push = new DashboardPush(classroom, new Dashboard(classroom, progress), presence);
    this.fanout = new LiveFanout(classroom, push, db.signals(LiveFanout.CHANNEL, clock), presence);
    this.instructors = new InstructorRoutes(classroom, auth, new SignInThrottle(clock), push, fanout, streamOpened,
        sandboxNotice);
    this.students = new StudentRoutes(classroom, learners, push, fanout, settings, clock, streamOpened);
  }

  /** Class memberships, for "export my data" and "forget me". */
  public LearnerData learnerData() {
    return store;
  }

  public void register(RoutesConfig routes) {
    instructors.register(routes);
    students.register(routes);
  }

  @Override
  public void close() {
    fanout.close();
    push.close();
    presence.close();
  }
}
