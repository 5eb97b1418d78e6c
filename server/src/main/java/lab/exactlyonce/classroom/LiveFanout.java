package lab.exactlyonce.classroom;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import lab.exactlyonce.quiz.LiveBank;
import lab.exactlyonce.store.Signals;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * What one request changed in a live class, told to the streams of every node on the database. A route stores the
 * change, then tells this; every node (this one too) hears it through {@link Signals} and renders what its own
 * streams get from the database, so a message names the change and never carries a page. Answers are many and
 * matter only to the instructor's histogram: a node gathers the rounds it took answers for and tells the others
 * every {@value #ANSWERS_EVERY_MILLIS} ms, in one message per round.
 */
final class LiveFanout implements Signals.Listener, AutoCloseable {
  static final String CHANNEL = "eolab_classroom";
  private static final int ANSWERS_EVERY_MILLIS = 100;
  private static final Logger log = LoggerFactory.getLogger(LiveFanout.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One change: its kind, the class, and what the kind needs (a round id, a learner id, released items). */
  record Change(String kind, String classId, String arg, List<String> items, String node) {}

  private final Classroom classroom;
  private final ClassStore store;
  private final DashboardPush push;
  private final RoomFeed feed;
  private final Signals signals;
  private final PresenceStore presence;
  private final String node;
  /** Round id to class id, of the rounds this node took answers for since it last told the others. */
  private final ConcurrentHashMap<String, String> answered = new ConcurrentHashMap<>();
  private final ScheduledExecutorService ticker;

  LiveFanout(Classroom classroom, DashboardPush push, Signals signals, PresenceStore presence) {
    this.classroom = classroom;
    this.store = classroom.store();
    this.push = push;
    this.feed = push.feed();
    this.signals = signals;
    this.presence = presence;
    this.node = presence.node();
    signals.listen(this);
    this.ticker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "classroom-answers-fanout");
      t.setDaemon(true);
      return t;
    });
    ticker.scheduleWithFixedDelay(this::tellAnswers, ANSWERS_EVERY_MILLIS, ANSWERS_EVERY_MILLIS, TimeUnit.MILLISECONDS);
    long heartbeat = PresenceStore.HEARTBEAT.toMillis();
    ticker.scheduleWithFixedDelay(this::heartbeat, heartbeat, heartbeat, TimeUnit.MILLISECONDS);
  }

  void pushed(Round round) {
    publish("question", round.classId(), round.id(), List.of());
  }

  void revealed(Round round) {
    publish("reveal", round.classId(), round.id(), List.of());
  }

  void leaderboard(String classId) {
    publish("leaderboard", classId, null, List.of());
  }

  void ended(String classId) {
    publish("idle", classId, null, List.of());
  }

  void released(String classId, List<String> items) {
    publish("release", classId, null, items);
  }

  void closed(String classId) {
    publish("closed", classId, null, List.of());
  }

  void removed(String classId, String learnerId) {
    publish("removed", classId, learnerId, List.of());
  }

  void joined(String classId) {
    publish("members", classId, null, List.of());
  }

  /** A student's answer was stored here: this node's instructor panel now, the others' within a tick. */
  void answered(String classId, String roundId) {
    push.liveChanged(classId);
    answered.put(roundId, classId);
  }

  private void publish(String kind, String classId, String arg, List<String> items) {
    try {
      signals.publish(JSON.writeValueAsString(new Change(kind, classId, arg, items, node)));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write a live change", e);
    }
  }

  private void tellAnswers() {
    try {
      for (String round : Set.copyOf(answered.keySet())) {
        String classId = answered.remove(round);
        if (classId != null) publish("answers", classId, round, List.of());
      }
      for (String classId : presence.drainChanged()) publish("presence", classId, null, List.of());
    } catch (RuntimeException e) {
      log.warn("could not tell the other nodes about answers or who is online: {}", e.getMessage());
    }
  }

  /** Keeps this node's students counted online, and lets the dashboards here see a dead node's go offline. */
  private void heartbeat() {
    try {
      presence.heartbeat();
      for (String classId : feed.watchedClasses()) push.rosterChanged(classId);
    } catch (RuntimeException e) {
      log.warn("could not refresh who is online: {}", e.getMessage());
    }
  }

  @Override
  public void signal(String message) {
    Change change;
    try {
      change = JSON.readValue(message, Change.class);
    } catch (JsonProcessingException e) {
      log.warn("ignoring a live change this version cannot read: {}", message);
      return;
    }
    String id = change.classId();
    switch (change.kind()) {
      case "question" -> store.round(change.arg()).ifPresent(round -> {
        LiveBank.LiveQuestion q = classroom.question(round);
        feed.toStudents(id, "question", ClassroomJson.question(classroom, round, q, null));
        // The first push of a session: its board starts clean, and the last one's podium leaves the screens.
        if (firstOfItsSession(round)) {
          store.find(id).filter(room -> room.leaderboard().shown())
              .ifPresent(room -> feed.toEachStudent(id, "leaderboard", leaderboards(room)));
        }
        push.pushed(round);
      });
      case "reveal" -> store.round(change.arg()).ifPresent(round -> {
        classroom.forgetTally(round.id());
        Optional<Room> room = store.find(id);
        if (room.isEmpty()) return;
        LiveBank.LiveQuestion q = classroom.question(round);
        feed.toEachStudent(id, "reveal", learner ->
            new InstructorRoutes.Reveal(round.id(), q.answer(), ClassroomJson.card(classroom, round, q, learner).render()));
        feed.toEachStudent(id, "leaderboard", leaderboards(room.get()));
        push.liveChanged(id);
      });
      case "leaderboard" -> store.find(id).ifPresent(room -> {
        feed.toEachStudent(id, "leaderboard", leaderboards(room));
        push.liveChanged(id);
      });
      case "idle" -> store.find(id).ifPresent(room -> {
        feed.toStudents(id, "idle", ClassroomJson.Fragment.of(LiveViews.studentIdle(room)));
        feed.toEachStudent(id, "leaderboard", leaderboards(room));
        push.liveChanged(id);
      });
      case "release" -> feed.toStudents(id, "release", new InstructorRoutes.Release(change.items()));
      case "closed" -> store.find(id).ifPresent(room -> {
        feed.endStudents(id, "closed", ClassroomJson.Fragment.of(LiveViews.studentIdle(room)));
        push.liveChanged(id);
      });
      case "removed" -> {
        feed.endStudent(id, change.arg(), "removed", ClassroomJson.Fragment.of(LiveViews.studentRemoved()));
        push.membersChanged(id);
      }
      case "members" -> push.membersChanged(id);
      case "presence" -> {
        if (!node.equals(change.node())) push.rosterChanged(id); // this node's roster was marked as streams came
      }
      case "answers" -> {
        if (node.equals(change.node())) return; // this node counted its own as they came
        classroom.forgetTally(change.arg());
        push.liveChanged(id);
      }
      default -> log.warn("ignoring a live change of a kind this version does not know: {}", change.kind());
    }
  }

  private boolean firstOfItsSession(Round round) {
    return store.rounds(round.classId()).stream().filter(r -> r.session().equals(round.session())).count() == 1;
  }

  private Function<String, Object> leaderboards(Room room) {
    return ClassroomJson.leaderboards(classroom, room, presence.online(room.id()));
  }

  /**
   * Changes may have been missed: every student stream here gets its class's state again (what a stream starts
   * with), and every instructor panel is rendered anew.
   */
  @Override
  public void resync() {
    Set<String> classes = new HashSet<>(feed.studentClasses());
    classes.addAll(feed.watchedClasses());
    for (String id : classes) {
      Optional<Room> room = store.find(id);
      if (room.isEmpty()) continue;
      classroom.current(room.get()).ifPresent(round -> classroom.forgetTally(round.id()));
      feed.eachStudent(id, (learner, sse) -> {
        ClassroomJson.StudentState now = ClassroomJson.state(classroom, room.get(), learner);
        feed.send(sse, now.event(), now);
      });
      push.watchDeadline(room.get());
      push.membersChanged(id);
      push.liveChanged(id);
    }
  }

  @Override
  public void close() {
    ticker.shutdownNow();
  }
}
