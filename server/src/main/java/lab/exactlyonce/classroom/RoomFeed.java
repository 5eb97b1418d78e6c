package lab.exactlyonce.classroom;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.http.sse.SseClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The open Server-Sent Event streams of every class: students' (a student is online while at least one of theirs is
 * open) and instructors'. Sends JSON event data; a stream that fails to take an event is dropped.
 */
final class RoomFeed {
  private static final Logger log = LoggerFactory.getLogger(RoomFeed.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  record Student(String learnerId, SseClient sse) {}

  /** A projector's stream; {@code liveCounts}: it shows the answers' split before the reveal (the room sees it). */
  record Projector(SseClient sse, boolean liveCounts) {}

  private final Map<String, Set<Student>> students = new ConcurrentHashMap<>();
  private final Map<String, Set<SseClient>> instructors = new ConcurrentHashMap<>();
  private final Map<String, Set<Projector>> projectors = new ConcurrentHashMap<>();
  private final Consumer<String> rosterChanged;
  private final PresenceStore presence;

  /**
   * @param rosterChanged told the class id whenever a student stream opens or closes
   * @param presence told when a student's first stream in a class opens here and when their last one closes
   */
  RoomFeed(Consumer<String> rosterChanged, PresenceStore presence) {
    this.rosterChanged = rosterChanged;
    this.presence = presence;
  }

  void addStudent(String classId, String learnerId, SseClient sse) {
    Student s = new Student(learnerId, sse);
    students.computeIfAbsent(classId, k -> new CopyOnWriteArraySet<>()).add(s);
    sse.onClose(() -> {
      Set<Student> set = students.get(classId);
      if (set != null) set.remove(s);
      if (!openHere(classId, learnerId)) tell(() -> presence.closed(classId, learnerId));
      rosterChanged.accept(classId);
    });
    tell(() -> presence.opened(classId, learnerId));
    rosterChanged.accept(classId);
  }

  private boolean openHere(String classId, String learnerId) {
    for (Student s : students.getOrDefault(classId, Set.of())) {
      if (s.learnerId().equals(learnerId) && !s.sse().terminated()) return true;
    }
    return false;
  }

  /** PresenceStore is what the dashboard shows, not what a student needs: a failure to store it ends no stream. */
  private static void tell(Runnable presenceChange) {
    try {
      presenceChange.run();
    } catch (RuntimeException e) {
      log.warn("could not store who is online: {}", e.getMessage());
    }
  }

  void addInstructor(String classId, SseClient sse) {
    instructors.computeIfAbsent(classId, k -> new CopyOnWriteArraySet<>()).add(sse);
    sse.onClose(() -> {
      Set<SseClient> set = instructors.get(classId);
      if (set != null) set.remove(sse);
    });
  }

  /** A projector's stream: it gets only the live panel, drawn for the room, never the dashboard's panels. */
  void addProjector(String classId, SseClient sse, boolean liveCounts) {
    Projector p = new Projector(sse, liveCounts);
    projectors.computeIfAbsent(classId, k -> new CopyOnWriteArraySet<>()).add(p);
    sse.onClose(() -> {
      Set<Projector> set = projectors.get(classId);
      if (set != null) set.remove(p);
    });
  }

  boolean projected(String classId) {
    return !projectors.getOrDefault(classId, Set.of()).isEmpty();
  }

  /** Sends each projector the data drawn for its setting; each setting is drawn at most once. */
  void toProjectors(String classId, String event, Function<Boolean, Object> dataFor) {
    Map<Boolean, String> rendered = new HashMap<>();
    for (Projector p : projectors.getOrDefault(classId, Set.of())) {
      send(p.sse(), event, rendered.computeIfAbsent(p.liveCounts(), counts -> json(dataFor.apply(counts))));
    }
  }

  boolean watched(String classId) {
    return !instructors.getOrDefault(classId, Set.of()).isEmpty();
  }

  Set<String> watchedClasses() {
    Set<String> ids = ConcurrentHashMap.newKeySet();
    instructors.forEach((id, set) -> { if (!set.isEmpty()) ids.add(id); });
    return ids;
  }

  /** Classes with a student stream open here. */
  Set<String> studentClasses() {
    Set<String> ids = ConcurrentHashMap.newKeySet();
    students.forEach((id, set) -> { if (!set.isEmpty()) ids.add(id); });
    return ids;
  }

  /** Runs {@code action} with each open student stream of the class and its learner id. */
  void eachStudent(String classId, BiConsumer<String, SseClient> action) {
    for (Student s : students.getOrDefault(classId, Set.of())) if (!s.sse().terminated()) action.accept(s.learnerId(), s.sse());
  }

  void toStudents(String classId, String event, Object data) {
    String text = json(data);
    for (Student s : students.getOrDefault(classId, Set.of())) send(s.sse(), event, text);
  }

  /** Sends each student their own data (rendered for them). */
  void toEachStudent(String classId, String event, Function<String, Object> dataFor) {
    Map<String, String> rendered = new HashMap<>();
    for (Student s : students.getOrDefault(classId, Set.of())) {
      String text = rendered.computeIfAbsent(s.learnerId(), id -> json(dataFor.apply(id)));
      send(s.sse(), event, text);
    }
  }

  /** Sends then closes the student's streams (removed from the class). */
  void endStudent(String classId, String learnerId, String event, Object data) {
    String text = json(data);
    for (Student s : students.getOrDefault(classId, Set.of())) {
      if (s.learnerId().equals(learnerId)) {
        send(s.sse(), event, text);
        s.sse().close();
      }
    }
  }

  /** Sends then closes every student stream of the class (closed). */
  void endStudents(String classId, String event, Object data) {
    String text = json(data);
    for (Student s : students.getOrDefault(classId, Set.of())) {
      send(s.sse(), event, text);
      s.sse().close();
    }
  }

  void toInstructors(String classId, String event, Object data) {
    String text = json(data);
    for (SseClient sse : instructors.getOrDefault(classId, Set.of())) send(sse, event, text);
  }

  void send(SseClient sse, String event, Object data) {
    send(sse, event, data instanceof String text ? text : json(data));
  }

  private static void send(SseClient sse, String event, String text) {
    if (sse.terminated()) return;
    try {
      synchronized (sse) {
        sse.sendEvent(event, text);
      }
    } catch (RuntimeException e) {
      log.debug("dropping a stream that failed to take an event", e);
      sse.close();
    }
  }

  private static String json(Object data) {
    try {
      return JSON.writeValueAsString(data);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write event data", e);
    }
  }
}
