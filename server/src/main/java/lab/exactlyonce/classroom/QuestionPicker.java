package lab.exactlyonce.classroom;

import j2html.tags.DomContent;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.quiz.LiveBank;
import lab.exactlyonce.web.Markdown;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static j2html.TagCreator.*;

/**
 * The instructor's choice of the next live question: every lesson's pushable questions, the class's own lesson first,
 * grouped by lesson and topic (by topic alone while one lesson has any) with their whole
 * text, a search box, the ones this class was already asked marked with when, and beside them a preview of exactly the
 * card students will get (the same renderer as theirs). The page's script filters the list and swaps the preview.
 */
final class QuestionPicker {
  private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC);
  /** The time limits offered, in seconds; the server takes any from the minimum to the maximum. */
  static final List<Integer> LIMITS = List.of(10, 20, 30, 45, 60, 90, 120, 300);

  private QuestionPicker() {}

  /** When each question was last pushed to the class, by question id. */
  static Map<String, Instant> lastPushed(List<Round> rounds) {
    Map<String, Instant> last = new LinkedHashMap<>();
    for (Round r : rounds) last.merge(r.questionId(), r.pushedAt(), (a, b) -> a.isAfter(b) ? a : b);
    return last;
  }

  /**
   * The questions as the picker lists them: grouped by lesson and topic, in the order they first appear (each lesson's
   * topics in the lesson's own order, as {@link LiveBank#questions} gives them).
   */
  static List<LiveBank.LiveQuestion> inListOrder(List<LiveBank.LiveQuestion> questions) {
    return groups(questions).values().stream().flatMap(List::stream).toList();
  }

  /** The picker's groups, by lesson and topic (two lessons may share a topic's name), in the order they first appear. */
  private static Map<List<String>, List<LiveBank.LiveQuestion>> groups(List<LiveBank.LiveQuestion> questions) {
    Map<List<String>, List<LiveBank.LiveQuestion>> groups = new LinkedHashMap<>();
    for (LiveBank.LiveQuestion q : questions) {
      groups.computeIfAbsent(List.of(q.lesson(), q.topic()), t -> new ArrayList<>()).add(q);
    }
    return groups;
  }

  /**
   * What "Next" on the projector asks: the first question after the last one asked, in the list's order (wrapping
   * round), that this class has not been asked yet; empty once every question was asked (the instructor then chooses
   * one to ask again on the dashboard).
   */
  static Optional<LiveBank.LiveQuestion> next(List<LiveBank.LiveQuestion> questions, List<Round> rounds) {
    List<LiveBank.LiveQuestion> list = inListOrder(questions);
    Set<String> asked = new HashSet<>();
    for (Round r : rounds) asked.add(r.questionId());
    int start = 0;
    if (!rounds.isEmpty()) {
      String last = rounds.get(rounds.size() - 1).questionId();
      for (int i = 0; i < list.size(); i++) if (list.get(i).id().equals(last)) start = i + 1;
    }
    for (int k = 0; k < list.size(); k++) {
      LiveBank.LiveQuestion q = list.get((start + k) % list.size());
      if (!asked.contains(q.id())) return Optional.of(q);
    }
    return Optional.empty();
  }

  /** @param lessons the lessons, whose titles name the groups once questions come from more than one */
  static DomContent render(List<LiveBank.LiveQuestion> questions, List<Lesson> lessons, Map<String, Instant> pushed) {
    if (questions.isEmpty()) return p("No lesson has questions that can be asked live yet.").withClass("muted");
    Map<List<String>, List<LiveBank.LiveQuestion>> byTopic = groups(questions);
    Map<String, String> titles = new HashMap<>();
    for (Lesson lesson : lessons) titles.put(lesson.id(), lesson.title());
    boolean severalLessons = questions.stream().map(LiveBank.LiveQuestion::lesson).distinct().count() > 1;
    // Checked at first: the first question this class has not been asked yet.
    LiveBank.LiveQuestion first = questions.stream().filter(q -> !pushed.containsKey(q.id())).findFirst().orElse(questions.get(0));
    return div(
        div(
            label("Find a question").attr("for", "question-search"),
            input().withType("search").withId("question-search").attr("autocomplete", "off")
                .attr("aria-controls", "question-list").attr("placeholder", "Words from the question or its topic"),
            p().withId("question-search-count").withClass("muted").attr("aria-live", "polite"),
            div(each(byTopic.entrySet(), group -> fieldset(
                legend(text(severalLessons ? titles.getOrDefault(group.getKey().get(0), group.getKey().get(0)) + " · " : ""),
                    text(group.getKey().get(1) + " (" + group.getValue().size() + ")")),
                each(group.getValue(), q -> item(q, q == first, pushed.get(q.id())))
            ).withClass("picker-topic"))).withId("question-list").withClass("picker-list")
        ).withClass("picker-choose"),
        div(
            h3("Students will see"),
            div(LiveViews.preview(first)).withId("question-preview").withClass("picker-preview"),
            div(each(questions, LiveViews::preview)).withId("question-previews").attr("hidden")
        ).withClass("picker-show")
    ).withClass("picker");
  }

  private static DomContent item(LiveBank.LiveQuestion q, boolean checked, Instant pushedAt) {
    return label(
        input().withType("radio").withName("live-question").withValue(q.id()).withCondChecked(checked),
        span(
            span(q.kind()).withClass("picker-kind"),
            pushedAt == null ? text("") : span("asked at " + CLOCK.format(pushedAt) + " UTC").withClass("picker-pushed"),
            span(Markdown.inline(q.prompt())).withClass("picker-prompt"),
            iff(!q.detail().isBlank(), span(Markdown.inline(q.detail())).withClass("picker-detail"))
        ).withClass("picker-text")
    ).withClass("picker-item").attr("data-pushed", pushedAt != null);
  }
}
