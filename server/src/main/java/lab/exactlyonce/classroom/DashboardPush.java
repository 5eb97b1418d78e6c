package lab.exactlyonce.classroom;

import j2html.tags.DomContent;
import lab.exactlyonce.quiz.LiveBank;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Keeps watching instructors' dashboards current. Requests only mark what they changed; a background tick
 * ({@value #TICK_MILLIS} ms) re-renders the live panel and the roster of the classes marked since, and every
 * {@value #FULL_EVERY} ticks every panel of a class whose members or their events changed. So a class answering at
 * once costs the instructor a few renders a second, not one per answer.
 */
final class DashboardPush implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DashboardPush.class);
  private static final int TICK_MILLIS = 150;
  private static final int FULL_EVERY = 10;

  private final Classroom classroom;
  private final ClassStore store;
  private final Dashboard dashboard;
  private final RoomFeed feed;
  private final PresenceStore presence;
  private final Set<String> liveDirty = ConcurrentHashMap.newKeySet();
  /** Classes whose roster (online status) changed: re-rendered on the next tick. */
  private final Set<String> rosterDirty = ConcurrentHashMap.newKeySet();
  /** Classes whose members changed: every panel re-rendered, at most every {@value #FULL_EVERY} ticks. */
  private final Set<String> panelsDirty = ConcurrentHashMap.newKeySet();
  /** The events version each watched class's panels were last rendered at. */
  private final Map<String, String> versions = new ConcurrentHashMap<>();
  /** Each class's open round with a time limit that has not run out yet. */
  private final Map<String, Round> timed = new ConcurrentHashMap<>();
  private final ScheduledExecutorService ticker;
  private int ticks;

  DashboardPush(Classroom classroom, Dashboard dashboard, PresenceStore presence) {
    this.classroom = classroom;
    this.store = classroom.store();
    this.dashboard = dashboard;
    this.presence = presence;
    this.feed = new RoomFeed(rosterDirty::add, presence);
    this.ticker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "classroom-dashboard");
      t.setDaemon(true);
      return t;
    });
    ticker.scheduleWithFixedDelay(this::tick, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
  }

  /** The streams of every class; a student's stream opening or closing marks the roster. */
  RoomFeed feed() {
    return feed;
  }

  /** The live round changed: a question pushed, answered, revealed, ended, or the leaderboard switched. */
  void liveChanged(String classId) {
    liveDirty.add(classId);
  }

  /** A question was pushed: the live panel changes, and when its time limit runs out the class is told. */
  void pushed(Round round) {
    liveChanged(round.classId());
    if (round.deadline() == null) timed.remove(round.classId());
    else timed.put(round.classId(), round);
  }

  /** Watches the open round's time limit again, if one still runs: what a stream opening after a restart needs. */
  void watchDeadline(Room room) {
    if (room.closed()) return;
    classroom.current(room).filter(r -> r.deadline() != null && !r.revealed()).ifPresent(r -> timed.putIfAbsent(room.id(), r));
  }

  /** Who is online in the class, on any node. */
  Set<String> online(String classId) {
    return presence.online(classId);
  }

  /** Students' streams opened or closed on another node, or a node stopped refreshing its own. */
  void rosterChanged(String classId) {
    rosterDirty.add(classId);
  }

  /** A member joined or was removed. */
  void membersChanged(String classId) {
    rosterDirty.add(classId);
    panelsDirty.add(classId);
  }

  /** The live panel as the instructor sees it now; its counts are of the students present, never of who left. */
  DomContent live(Room room) {
    return LiveViews.instructorLive(liveNow(room));
  }

  /** The live panel as the room sees it on the projector: the split of the answers hidden until the reveal. */
  DomContent projected(Room room, boolean liveCounts) {
    return ProjectorViews.live(liveNow(room), liveCounts);
  }

  /** The class's live round as it stands, for either view of it. */
  LiveNow liveNow(Room room) {
    Optional<Round> round = room.closed() ? Optional.empty() : classroom.current(room);
    Set<String> online = online(room.id());
    Classroom.Board board = classroom.board(room, online);
    if (round.isEmpty()) return new LiveNow(room, null, null, new int[0], Optional.empty(), 0, board);
    Set<String> present = new HashSet<>(online);
    present.addAll(classroom.tally(round.get()).keySet()); // answered, then the phone slept: still in the round
    present.retainAll(classroom.nicknames(room).keySet());
    return new LiveNow(room, round.get(), classroom.question(round.get()), classroom.histogram(round.get()),
        classroom.left(round.get()), present.size(), board);
  }

  /** Every other panel, by the name of the event that replaces it. */
  Map<String, DomContent> panels(Room room) {
    return dashboard.panels(room, online(room.id()));
  }

  @Override
  public void close() {
    ticker.shutdownNow();
  }

  private void tick() {
    try {
      ticks++;
      timeUps();
      Set<String> rosters = drain(rosterDirty);
      Set<String> lives = drain(liveDirty);
      lives.addAll(rosters); // who is present changes the live panel's counts and its leaderboard
      for (String id : lives) {
        boolean watched = feed.watched(id);
        boolean projected = feed.projected(id);
        if (!watched && !projected) continue;
        store.find(id).ifPresent(room -> {
          // One reading of the round for every view of it: read apart, a reveal between two readings showed the
          // projectors asking for live counts an answer that the others never saw before the reveal.
          LiveNow now = liveNow(room);
          if (watched) feed.toInstructors(id, "live", ClassroomJson.Fragment.of(LiveViews.instructorLive(now)));
          if (projected) {
            feed.toProjectors(id, "live",
                liveCounts -> ClassroomJson.Fragment.of(ProjectorViews.live(now, liveCounts)));
          }
        });
      }
      for (String id : rosters) {
        if (!feed.watched(id)) continue;
        store.find(id).ifPresent(room -> feed.toInstructors(id, "roster",
            ClassroomJson.Fragment.of(dashboard.roster(room, store.members(id), online(id)))));
      }
      if (ticks % FULL_EVERY != 0) return;
      Set<String> refresh = drain(panelsDirty);
      for (String id : feed.watchedClasses()) {
        Optional<Room> room = store.find(id);
        if (room.isEmpty()) continue;
        String version = store.eventsVersion(id);
        if (!version.equals(versions.put(id, version))) refresh.add(id);
      }
      for (String id : refresh) {
        if (!feed.watched(id)) continue;
        Optional<Room> room = store.find(id);
        if (room.isEmpty()) continue;
        for (var panel : panels(room.get()).entrySet()) {
          feed.toInstructors(id, panel.getKey(), ClassroomJson.Fragment.of(panel.getValue()));
        }
        feed.toInstructors(id, "live", ClassroomJson.Fragment.of(live(room.get())));
      }
    } catch (RuntimeException e) {
      log.error("classroom dashboard update failed", e);
    }
  }

  /** Rounds whose time ran out: each student gets their card with the answers closed, the instructor a new panel. */
  private void timeUps() {
    for (Round round : timed.values()) {
      if (classroom.left(round).filter(Duration::isZero).isEmpty() || !timed.remove(round.classId(), round)) continue;
      Optional<Room> room = store.find(round.classId());
      if (room.isEmpty() || !round.id().equals(room.get().currentRound())) continue;
      Round now = store.round(round.id()).orElse(round);
      if (now.revealed()) continue;
      LiveBank.LiveQuestion q = classroom.question(now);
      feed.toEachStudent(round.classId(), "timeup", learner -> ClassroomJson.Fragment.of(ClassroomJson.card(classroom, now, q, learner)));
      liveChanged(round.classId());
    }
  }

  /** Takes every element out of {@code dirty}, a concurrent set others keep adding to, and answers them. */
  static Set<String> drain(Set<String> dirty) {
    Set<String> out = new HashSet<>();
    for (var it = dirty.iterator(); it.hasNext(); ) {
      out.add(it.next());
      it.remove();
    }
    return out;
  }
}
