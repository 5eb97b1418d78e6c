package lab.exactlyonce.classroom;

import com.fasterxml.jackson.databind.JsonNode;
import j2html.tags.DomContent;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.lesson.Tab;
import lab.exactlyonce.progress.Progress;
import lab.exactlyonce.progress.RecordedEvent;
import lab.exactlyonce.quiz.LiveBank;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiFunction;

import static j2html.TagCreator.*;

/**
 * The dashboard's panels, derived from the members' stored events each time: the roster (who is online), progress
 * through the lesson as a heatmap, quiz results (distribution and hardest questions) and sandbox activity.
 */
final class Dashboard {
  private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

  private final Classroom classroom;
  private final BiFunction<Lesson, List<RecordedEvent>, Progress> progress;

  Dashboard(Classroom classroom, BiFunction<Lesson, List<RecordedEvent>, Progress> progress) {
    this.classroom = classroom;
    this.progress = progress;
  }

  /** Panel id to fragment. */
  Map<String, DomContent> panels(Room room, Set<String> online) {
    List<Member> members = classroom.store().members(room.id());
    Lesson lesson = classroom.lesson(room);
    Map<String, List<RecordedEvent>> byLearner = new HashMap<>();
    for (Member m : members) byLearner.put(m.learnerId(), new ArrayList<>());
    Map<String, List<RecordedEvent>> inLesson = new HashMap<>();
    for (Member m : members) inLesson.put(m.learnerId(), new ArrayList<>());
    // Progress is the class's lesson's; answers and runs count in whichever lesson the class was asked about.
    for (ClassStore.MemberEvent e : classroom.store().events(room.id(), null)) {
      List<RecordedEvent> list = byLearner.get(e.learnerId());
      if (list == null) continue;
      list.add(e.event());
      if (e.event().lesson().equals(room.lesson())) inLesson.get(e.learnerId()).add(e.event());
    }
    Map<String, DomContent> panels = new LinkedHashMap<>();
    panels.put("roster", roster(room, members, online));
    panels.put("progress", progress(lesson, members, inLesson));
    panels.put("quiz", quiz(members, byLearner));
    panels.put("sandbox", sandbox(members, byLearner));
    return panels;
  }

  DomContent roster(Room room, List<Member> members, Set<String> online) {
    if (members.isEmpty()) return p("Nobody has joined yet. Share the code " + room.code() + ".");
    long on = members.stream().filter(m -> online.contains(m.learnerId())).count();
    return div(
        p(on + " of " + members.size() + " online").withClass("roster-count"),
        table(
            thead(tr(th("Nickname").attr("scope", "col"), th("Status").attr("scope", "col"),
                th("Joined (UTC)").attr("scope", "col"), th(span("Actions").withClass("visually-hidden")).attr("scope", "col"))),
            tbody(each(members, m -> {
              boolean isOn = online.contains(m.learnerId());
              return tr(
                  td(m.nickname()).withClass("nickname"),
                  td(span(isOn ? "online" : "offline").withClass("status " + (isOn ? "online" : "offline"))),
                  td(CLOCK.format(m.joinedAt())),
                  td(button("Remove").withType("button").attr("data-remove", m.learnerId()).attr("data-nickname", m.nickname())
                      .attr("aria-label", "Remove " + m.nickname()))
              ).attr("data-learner", m.learnerId()).attr("data-online", isOn);
            }))
        ).withClass("roster-table")
    );
  }

  DomContent progress(Lesson lesson, List<Member> members, Map<String, List<RecordedEvent>> byLearner) {
    if (members.isEmpty()) return p("Progress appears here as students work through the lesson.");
    return div(
        table(
            caption("Share of each tab done (sections read, map items explored, ladder answers revealed, snippets run, "
                + "exercises passed); Exercises: fix-the-sink exercises passed by the server's check"),
            thead(tr(th("Student").attr("scope", "col"), each(List.of(Tab.values()), t -> th(t.label()).attr("scope", "col")),
                th("Exercises").attr("scope", "col"), th("Last seen").attr("scope", "col"))),
            tbody(each(members, m -> {
              Progress p = progress.apply(lesson, byLearner.getOrDefault(m.learnerId(), List.of()));
              return tr(
                  th(m.nickname()).attr("scope", "row"),
                  each(List.of(Tab.values()), t -> {
                    Progress.TabProgress tp = p.tabs().get(t.id());
                    int level = tp == null ? 0 : (int) Math.ceil(tp.fraction() * 4);
                    return td(tp == null ? "–" : tp.done() + "/" + tp.total()).withClass("heat heat-" + level);
                  }),
                  exercises(p),
                  td(lastSeen(p.last())).withCondTitle(p.last() != null, p.last() == null ? "" : p.last().hash())
              );
            }))
        ).withClass("heatmap")
    );
  }

  /** Where a learner was last, in words: "Sandbox: sink demo" for {@code #sandbox/sink-demo}. */
  static String lastSeen(Progress.Location last) {
    if (last == null) return "–";
    String tab = Arrays.stream(Tab.values()).filter(t -> t.id().equals(last.tab())).map(Tab::label).findFirst()
        .orElse(last.tab() == null ? "" : last.tab());
    if (last.item() == null || last.item().isBlank()) return tab.isEmpty() ? "–" : tab;
    String item = last.item().replace('-', ' ').replace('_', ' ');
    return tab.isEmpty() ? item : tab + ": " + item;
  }

  /** Passed of the lesson's exercises, the passed ones named in the cell's title; a dash for a lesson without any. */
  private static DomContent exercises(Progress p) {
    int total = p.exercises().size();
    if (total == 0) return td("–");
    List<String> passed = p.exercises().entrySet().stream().filter(e -> e.getValue().passed()).map(Map.Entry::getKey).toList();
    int level = (int) Math.ceil(4.0 * passed.size() / total);
    return td(passed.size() + "/" + total).withClass("heat heat-" + level).attr("data-exercises-passed", passed.size())
        .withTitle(passed.isEmpty() ? "none passed yet" : "passed: " + String.join(", ", passed));
  }

  DomContent quiz(List<Member> members, Map<String, List<RecordedEvent>> byLearner) {
    int[] buckets = new int[5];
    int takers = 0;
    Map<String, int[]> perQuestion = new TreeMap<>(); // question id -> {answered, wrong}
    for (Member m : members) {
      int answered = 0;
      int right = 0;
      for (RecordedEvent e : byLearner.getOrDefault(m.learnerId(), List.of())) {
        if (!e.type().equals(LiveBank.ANSWER_TYPE)) continue;
        JsonNode data = e.data();
        if (data.path("skip").asBoolean(false) && !e.result().has("correct")) continue;
        // A self-rated answer (a rating of a model answer the student revealed) was checked by nobody: it is
        // neither right nor wrong, whatever an older grading stored.
        if (data.has("rating")) continue;
        boolean correct = e.result().path("correct").asBoolean();
        answered++;
        if (correct) right++;
        int[] q = perQuestion.computeIfAbsent(data.path("question").asText(), k -> new int[2]);
        q[0]++;
        if (!correct) q[1]++;
      }
      if (answered > 0) {
        takers++;
        buckets[Math.min(4, right * 5 / answered)]++;
      }
    }
    if (takers == 0) return p("No quiz answers yet.");
    String[] labels = {"0–19%", "20–39%", "40–59%", "60–79%", "80–100%"};
    int max = 1;
    for (int b : buckets) max = Math.max(max, b);
    final int top = max;
    List<Map.Entry<String, int[]>> hardest = new ArrayList<>(perQuestion.entrySet());
    hardest.removeIf(e -> e.getValue()[1] == 0);
    hardest.sort((a, b) -> {
      double ra = (double) a.getValue()[1] / a.getValue()[0];
      double rb = (double) b.getValue()[1] / b.getValue()[0];
      return ra != rb ? Double.compare(rb, ra) : Integer.compare(b.getValue()[0], a.getValue()[0]);
    });
    return div(
        table(
            caption("Students by share of right answers (" + takers + " answered at least once)"),
            tbody(each(List.of(0, 1, 2, 3, 4), i -> tr(
                th(labels[i]).attr("scope", "row"),
                td(Bars.bar(buckets[i], top, "")),
                td(String.valueOf(buckets[i])).withClass("count"))))
        ).withClass("histogram distribution"),
        h3("Hardest questions"),
        hardest.isEmpty() ? p("Every answer so far was right.") : ol(each(hardest.subList(0, Math.min(5, hardest.size())), e -> li(
            span(prompt(e.getKey())).withClass("hard-prompt"),
            text(" — " + e.getValue()[1] + " of " + e.getValue()[0] + " answers wrong")))).withClass("hardest")
    );
  }

  /** A question told apart from its siblings: many share a prompt ("Which guarantee fits?") and differ in the detail. */
  private String prompt(String questionId) {
    return classroom.bank().find(questionId).map(q -> {
      String detail = q.detail().strip().replaceAll("\\s+", " ");
      if (detail.length() > 90) detail = detail.substring(0, 87) + "...";
      return q.topic() + ": " + q.prompt() + (detail.isEmpty() ? "" : " (" + detail + ")");
    }).orElse(questionId);
  }

  DomContent sandbox(List<Member> members, Map<String, List<RecordedEvent>> byLearner) {
    Map<String, Integer> byOutcome = new TreeMap<>();
    Map<String, Integer> bySnippet = new TreeMap<>();
    record Run(String nickname, String snippet, String status, Instant at) {}
    List<Run> runs = new ArrayList<>();
    for (Member m : members) {
      for (RecordedEvent e : byLearner.getOrDefault(m.learnerId(), List.of())) {
        if (!e.type().equals(Progress.SNIPPET_RUN)) continue;
        String status = e.data().path("status").asText("unknown");
        byOutcome.merge(status, 1, Integer::sum);
        bySnippet.merge(e.item(), 1, Integer::sum);
        runs.add(new Run(m.nickname(), e.item(), status, e.recordedAt()));
      }
    }
    if (runs.isEmpty()) return p("No sandbox runs yet.");
    runs.sort((a, b) -> b.at().compareTo(a.at()));
    return div(
        p(text(runs.size() + " runs: "), each(new ArrayList<>(byOutcome.entrySet()), e ->
            span(e.getKey() + " " + e.getValue()).withClass("outcome outcome-" + e.getKey()))).withClass("outcomes"),
        ul(each(new ArrayList<>(bySnippet.entrySet()), e -> li(e.getKey() + ": " + e.getValue() + " runs"))),
        h3("Latest runs"),
        ol(each(runs.subList(0, Math.min(8, runs.size())), r -> li(
            span(CLOCK.format(r.at())).withClass("muted"), text(" " + r.nickname() + " ran " + r.snippet() + ": "),
            span(r.status()).withClass("outcome outcome-" + r.status())))).withClass("latest-runs")
    );
  }
}
