package lab.exactlyonce.quiz;

import j2html.tags.DomContent;
import j2html.tags.specialized.LiTag;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.web.Markdown;
import lab.exactlyonce.web.Pages;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static j2html.TagCreator.*;

/** The quiz pages, rendered on the server; {@code quiz.js} runs the questions one at a time with the keyboard. */
final class QuizPages {
  static final List<String> RATINGS = List.of("Again", "Hard", "Good", "Easy");

  private final KeyPoints keyPoints;

  QuizPages(KeyPoints keyPoints) {
    this.keyPoints = keyPoints;
  }

  /**
   * The bank's size, for saying why it grows: the questions from the lesson text are there at once; those built
   * by running its demos and exercises join when their runs finish.
   */
  record BankSize(int fromText, int total, boolean runsReady) {}

  /** A lesson as a quiz's entry page lists it: its own quiz, and the learner's reviews due in it. */
  record LessonLink(Lesson lesson, Reviews.Due due) {}

  /**
   * @param topicLessons the scope's lessons, whose topic vocabularies the topic choice lists, lesson by lesson
   * @param lessons every lesson: the quiz across them lists each with its reviews due, a lesson's quiz links to the
   *                quiz across them when there are several
   */
  String entry(QuizScope scope, Quiz.Standing standing, List<Lesson> topicLessons, BankSize size, List<LessonLink> lessons,
               Instant now) {
    String whose = scope.all() ? "the lessons'" : "this lesson's";
    String bank = size.runsReady()
        ? size.total() + " questions in " + whose + " bank: " + size.fromText() + " from the lesson text and "
          + (size.total() - size.fromText()) + " built by running " + (scope.all() ? "their" : "its")
          + " demos and exercises in the sandbox."
        : size.fromText() + " questions from the lesson text so far; the ones built by running "
          + (scope.all() ? "their" : "its") + " demos and exercises"
          + " in the sandbox join the bank when those runs finish, so the count grows.";
    return Pages.document("Quiz · " + scope.title(), new Pages.Assets(List.of("quiz.css"), List.of()),
        header(scope, "Quiz"),
        p(strong(String.valueOf(standing.due())), text(standing.due() == 1 ? " question due today" : " questions due today"))
            .withId("quiz-due").withClass("quiz-due"),
        ul(
            li(strong(String.valueOf(standing.fresh())), text(" new: never answered")),
            li(strong(String.valueOf(standing.due())), text(" due: a miss, or a review whose day has come")),
            li(strong(String.valueOf(standing.learned())), text(" learned: answered and not due until a later day"))
        ).withId("quiz-standing").withClass("quiz-standing"),
        p(bank).withId("quiz-bank").withClass("quiz-muted"),
        p("A quiz asks up to " + Quiz.MAX_LENGTH + " questions, one per idea: due ones first, then new ones.")
            .withClass("quiz-muted"),
        form(
            fieldset(
                legend("Mode"),
                label(input().withType("radio").withName("mode").withValue("practice").isChecked(),
                    text(" Practice: feedback after each answer")),
                label(input().withType("radio").withName("mode").withValue("interview"),
                    text(" Interview: " + Quiz.DEFAULT_SECONDS + " seconds per question, feedback at the end"))
            ),
            label(text("Questions "), input().withType("number").withName("length").withId("quiz-length")
                .attr("min", "1").attr("max", String.valueOf(Quiz.MAX_LENGTH)).withValue(String.valueOf(Quiz.DEFAULT_LENGTH))),
            topicChoice(topicLessons),
            button("Start quiz").withType("submit")
        ).withMethod("post").withAction(scope.page()).withClass("quiz-start").withId("quiz-start"),
        lessonLinks(scope, lessons, now));
  }

  /**
   * The topic as radio buttons that wrap, not a select: every topic is in sight, and on a phone a short vocabulary
   * needs no scrolling list. Across lessons, each lesson's topics come under its title.
   */
  private static DomContent topicChoice(List<Lesson> lessons) {
    return fieldset(
        legend("Topic"),
        div(topicOption("", "All topics", true)).withClass("quiz-topic-options"),
        each(lessons, lesson -> div(
            iff(lessons.size() > 1, p(Markdown.inline(lesson.title())).withClass("quiz-topic-lesson")),
            div(each(lesson.topics(), t -> topicOption(t.title(), t.title(), false))).withClass("quiz-topic-options")
        ).withClass("quiz-topic-group").attr("data-lesson", lesson.id()))
    ).withId("quiz-topic").withClass("quiz-topic-choice");
  }

  private static DomContent topicOption(String value, String title, boolean checked) {
    return label(input().withType("radio").withName("topic").withValue(value).withCondChecked(checked), text(" " + title))
        .withClass("quiz-topic-option");
  }

  /**
   * Across every lesson: each lesson's own quiz with the reviews due in it. In one lesson's quiz: a link to the quiz
   * across every lesson, when there is more than one.
   */
  private static DomContent lessonLinks(QuizScope scope, List<LessonLink> lessons, Instant now) {
    if (lessons.size() < 2) return text("");
    if (!scope.all()) {
      return p(a("Take a quiz across all " + lessons.size() + " lessons").withHref("/quiz")).withId("quiz-other-scope")
          .withClass("quiz-muted");
    }
    return section(
        h2("By lesson").withId("quiz-lessons-heading"),
        ul(each(lessons, l -> li(
            p(a(text("Quiz: "), Markdown.inline(l.lesson().title())).withHref("/lessons/" + l.lesson().id() + "/quiz")),
            dueNotice(l.lesson(), l.due(), now)
        ).withClass("quiz-lesson").attr("data-lesson", l.lesson().id()))).withClass("quiz-lessons")
    ).withId("quiz-lessons").attr("aria-labelledby", "quiz-lessons-heading");
  }

  /**
   * @param answered ids of the questions already answered: a reload resumes at the first one still open
   * @param held the ladder answers held back from the learner: those model answers read as the hold's note
   */
  String session(QuizScope scope, QuizSession session, List<Question> questions, Set<String> answered,
                 Map<String, List<String>> comesBack, HeldInQuiz held) {
    List<DomContent> items = new ArrayList<>();
    Map<String, Set<String>> typed = new HashMap<>();
    for (String lesson : scope.lessons()) typed.put(lesson, Set.copyOf(keyPoints.questions().apply(lesson)));
    for (int i = 0; i < questions.size(); i++) {
      Question q = questions.get(i);
      String holding = held.holding(q);
      LiTag item = question(q, i + 1, questions.size(), holding, held, comesBack.getOrDefault(q.id(), List.of()),
          holding == null && typed.getOrDefault(q.lesson(), Set.of()).contains(q.item()));
      items.add(answered.contains(questions.get(i).id()) ? item.attr("data-answered", "yes") : item);
    }
    String modeText = session.mode() == QuizSession.Mode.PRACTICE
        ? "Practice: you see whether you were right after each answer."
        : "Interview: " + session.secondsPerQuestion() + " seconds per question; feedback comes at the end. The score "
          + "counts the answers the app checks; a model answer you reveal and rate yourself is listed apart.";
    return Pages.document("Quiz · " + scope.title(), new Pages.Assets(List.of("quiz.css", "answer-box.css"), List.of("quiz.js")),
        header(scope, session.mode() == QuizSession.Mode.PRACTICE ? "Practice quiz" : "Interview quiz"),
        p(modeText).withClass("quiz-muted"),
        p("Keys: 1 to 9 choose an option, Space reveals an answer, 1 to 4 rate yourself, Backspace undoes a step.")
            .withClass("quiz-muted quiz-keys"),
        noscript(p("Answering needs JavaScript; the questions are listed below.")),
        div(
            p().withClass("quiz-progress").attr("aria-live", "polite"),
            p().withClass("quiz-timer").attr("hidden").attr("aria-live", "off"),
            ol(each(items, item -> item)).withClass("quiz-questions"),
            p(a("See your results").withHref(resultsHref(scope, session))).withClass("quiz-finish")
        ).withClass("quiz").attr("data-session", session.id())
            .attr("data-mode", session.mode().id).attr("data-seconds", String.valueOf(session.secondsPerQuestion()))
            .attr("data-results", resultsHref(scope, session)).attr("data-rating-labels", ratingLabels()));
  }

  /**
   * @param holding the held ladder question that holds this model answer back, or null
   * @param comesBack for a self-graded question, when it comes back after each rating (Again to Easy)
   * @param typed     whether the question offers a box for a typed answer, checked against its key points
   */
  private LiTag question(Question q, int number, int total, String holding, HeldInQuiz held,
                         List<String> comesBack, boolean typed) {
    String headingId = "q-" + number + "-heading";
    var body = new ArrayList<DomContent>();
    body.add(h2("Question " + number + " of " + total).withId(headingId));
    body.add(p(q.topic()).withClass("quiz-topic"));
    body.add(div(Markdown.inline(q.prompt())).withClass("quiz-prompt"));
    body.add(detail(q));
    if (q.kind() == Question.Kind.SELF_GRADED) {
      if (typed) body.addAll(answerBox(number));
      body.add(button(text("Reveal the answer"), keyHint("Space")).withType("button").withClass("quiz-reveal")
          .attr("data-reveal"));
      body.add(holding == null
          ? div(h3("Model answer"), Markdown.block(q.explanation())).withClass("quiz-model-answer").attr("hidden")
          : div(h3("Model answer"), p(held.note(q)).withClass("held-note")).withClass("quiz-model-answer").attr("hidden")
              .attr("data-held", holding));
      var ratings = new ArrayList<DomContent>();
      for (int r = 1; r <= 4; r++) {
        ratings.add(button(span(String.valueOf(r)).withClass("quiz-key"), text(" " + RATINGS.get(r - 1) + ": "),
            span(comesBack.get(r - 1)).withClass("quiz-comes-back"))
            .withType("button").attr("data-rating", String.valueOf(r)));
      }
      body.add(div(p("How well did you know it? Each button says when the question comes back."), div(each(ratings, x -> x)).withClass("quiz-ratings-buttons"))
          .withClass("quiz-ratings").attr("hidden"));
    } else if (q.kind() == Question.Kind.ORDER) {
      var steps = new ArrayList<DomContent>();
      for (int i = 0; i < q.options().size(); i++) {
        steps.add(li(button(span(String.valueOf(i + 1)).withClass("quiz-key"), text(" "), Markdown.inline(q.options().get(i)))
            .withType("button").attr("data-step", String.valueOf(i))));
      }
      body.add(ul(each(steps, x -> x)).withClass("quiz-options quiz-steps"));
      body.add(div(h3("Your order"), ol().withClass("quiz-picked"),
          button("Undo (Backspace)").withType("button").attr("data-undo").attr("disabled"))
          .withClass("quiz-order"));
    } else {
      var options = new ArrayList<DomContent>();
      for (int i = 0; i < q.options().size(); i++) {
        options.add(li(button(span(String.valueOf(i + 1)).withClass("quiz-key"), text(" "), Markdown.inline(q.options().get(i)))
            .withType("button").attr("data-choice", String.valueOf(i))));
      }
      body.add(ul(each(options, x -> x)).withClass("quiz-options"));
    }
    body.add(div().withClass("quiz-feedback").attr("aria-live", "polite"));
    body.add(button(span("Next question").attr("data-next-label"), keyHint("Enter")).withType("button")
        .withClass("quiz-next").attr("data-next").attr("hidden"));
    return li(each(body, x -> x)).withId("q-" + number).withClass("quiz-question")
        .attr("data-question", q.id()).attr("data-lesson", q.lesson()).attr("data-item", q.item())
        .attr("data-kind", q.kind().label)
        .attr("aria-labelledby", headingId).attr("tabindex", "-1");
  }

  /** A key's name beside the button it presses: hidden where there is no keyboard (quiz.css, a touch screen). */
  private static DomContent keyHint(String key) {
    return span(" (" + key + ")").withClass("key-hint");
  }

  /** A box for the candidate's own answer; quiz.js checks it against the key points, then reveals the model answer. */
  private List<DomContent> answerBox(int number) {
    String fieldId = "q-" + number + "-typed";
    return List.of(
        label("Your answer, to check against the key points (or reveal the model answer straight away)")
            .attr("for", fieldId).withClass("answer-label"),
        textarea().withId(fieldId).attr("rows", "4").attr("maxlength", String.valueOf(keyPoints.maxAnswerChars()))
            .withClass("answer-field"),
        div(button("Check my answer").withType("button").withClass("answer-check").attr("data-check"))
            .withClass("answer-actions"),
        div().withClass("answer-score").attr("aria-live", "polite").attr("hidden"));
  }

  private static String ratingLabels() {
    return "[" + String.join(",", RATINGS.stream().map(r -> "\"" + r + "\"").toList()) + "]";
  }

  /**
   * The end screen: the score of the graded answers, the self-rated ones apart with their ratings (they never count:
   * nobody checked them), the misses to look at again, and two ways on: "Review my N misses now" (a practice quiz of
   * exactly those) and "Take another quiz".
   */
  String results(QuizScope scope, Quiz.Results r, HeldInQuiz held) {
    QuizSession s = r.session();
    List<Quiz.Line> misses = r.misses();
    List<Quiz.Line> selfRated = r.selfRated();
    return Pages.document("Results · " + scope.title(), new Pages.Assets(List.of("quiz.css"), List.of()),
        header(scope, "Quiz results"),
        score(r),
        iff(!selfRated.isEmpty(), p(text(selfRated.size() == 1 ? "1 answer you rated yourself is" : selfRated.size()
            + " answers you rated yourself are"), text(" listed apart and not in the score: nobody checked them."))
            .withId("quiz-self-rated-note").withClass("quiz-muted")),
        iff(!r.topics().isEmpty(), each(
            h2("By topic"),
            table(
                thead(tr(th("Topic").attr("scope", "col"), th("Right").attr("scope", "col"), th("Questions").attr("scope", "col"))),
                tbody(each(r.topics(), t -> tr(th(t.topic()).attr("scope", "row"), td(String.valueOf(t.correct())),
                    td(String.valueOf(t.total())))))
            ).withClass("quiz-topics").withId("quiz-topics"))),
        iff(!selfRated.isEmpty(), each(
            h2("Rated by you"),
            ul(each(selfRated, line -> li(
                div(Markdown.inline(line.question().prompt())).withClass("quiz-prompt"),
                p(strong("Your rating: "), text(selfRating(line)))
            ).withClass("quiz-self-rated-item").attr("data-question", line.question().id())))
                .withClass("quiz-self-rated").withId("quiz-self-rated"))),
        h2(misses.isEmpty() ? "No misses" : "Review your misses"),
        iff(misses.isEmpty(), p(selfRated.isEmpty() ? "Every answer was right."
            : r.graded() == 0 ? "You rated none of your answers Again."
            : "Every graded answer was right, and you rated none of yours Again.")),
        ol(each(misses, line -> li(
            div(Markdown.inline(line.question().prompt())).withClass("quiz-prompt"),
            detail(line.question()),
            p(strong("Your answer: "), text(given(line))),
            iff(!line.question().selfGraded(), p(strong("Right answer: "), Markdown.inline(line.question().expected()))),
            explanation(line.question(), held),
            p(a("Read about it in the lesson").withHref(line.question().link()))
        ).withClass("quiz-miss").attr("data-question", line.question().id()))).withClass("quiz-misses").withId("quiz-misses"),
        div(
            iff(!misses.isEmpty(), form(
                button(misses.size() == 1 ? "Review my 1 miss now" : "Review my " + misses.size() + " misses now")
                    .withType("submit").withClass("quiz-review-misses")
            ).withMethod("post").withAction(scope.page() + "/" + s.id() + "/misses").withClass("quiz-review-form")),
            p(a("Take another quiz").withHref(scope.page()), text(" · "),
                a(scope.all() ? "Back to all lessons" : "Back to the lesson").withHref(scope.home()))
        ).withClass("quiz-actions").withId("quiz-actions"));
  }

  /** "Score: 3 of 7": graded answers right, of the graded questions; none graded when every one was self-rated. */
  private static DomContent score(Quiz.Results r) {
    if (r.graded() == 0) {
      return p(text("Score: "), strong("none"), text(" (you rated every answer yourself)")).withId("quiz-score")
          .withClass("quiz-score");
    }
    return p(text("Score: "), strong(r.correct() + " of " + r.graded()),
        text(r.gradedOpen() == 0 ? "" : " (" + r.gradedOpen() + " not answered)")).withId("quiz-score")
        .withClass("quiz-score");
  }

  /**
   * The reviews a learner has due in a lesson, for the home and lesson pages: "7 questions due for review" with a
   * button that starts a practice quiz of exactly those (a form: starting a quiz stores a session, so it is a POST,
   * and it works without JavaScript); when nothing is due, when the next review is; nothing for someone who has
   * never answered.
   */
  static DomContent dueNotice(Lesson lesson, Reviews.Due due, Instant now) {
    int count = due.questions().size();
    if (count == 0) {
      if (due.next() == null) return text("");
      return p(text("Nothing due for review. Your next review is " + ReviewDay.of(due.next(), now) + "."))
          .withId("reviews-due-" + lesson.id()).withClass("reviews-due").attr("data-due", "0");
    }
    String button = count <= Quiz.MAX_LENGTH ? "Review them now" : "Review the first " + Quiz.MAX_LENGTH + " now";
    return form(
        input().withType("hidden").withName("review").withValue("due"),
        p(strong(String.valueOf(count)), text(count == 1 ? " question due for review" : " questions due for review"))
            .withId("reviews-due-" + lesson.id() + "-count").withClass("reviews-due-count"),
        button(button).withType("submit").attr("aria-describedby", "reviews-due-" + lesson.id() + "-count")
    ).withMethod("post").withAction("/lessons/" + lesson.id() + "/quiz").withId("reviews-due-" + lesson.id())
        .withClass("reviews-due").attr("data-due", String.valueOf(count));
  }

  private static DomContent explanation(Question q, HeldInQuiz held) {
    String holding = held.holding(q);
    if (holding == null) return div(Markdown.block(q.explanation())).withClass("quiz-explanation");
    return div(p(held.note(q)).withClass("held-note")).withClass("quiz-explanation").attr("data-held", holding);
  }

  /** The scenario, card body, program parameters or other context shown under the prompt. */
  private static DomContent detail(Question q) {
    if (q.detail().isEmpty()) return text("");
    return q.kind() == Question.Kind.PREDICT ? pre(code(q.detail())).withClass("quiz-detail")
        : div(Markdown.block(q.detail())).withClass("quiz-detail");
  }

  /** A self-rated answer's rating ("Good"), or why there is none. */
  static String selfRating(Quiz.Line line) {
    if (line.answer() == null) return "not answered";
    if (line.answer().skipped()) return "no answer (time ran out)";
    return RATINGS.get(line.answer().rating() - 1);
  }

  /** What the learner answered, in words. */
  static String given(Quiz.Line line) {
    if (line.answer() == null) return "not answered";
    Quiz.Answer a = line.answer();
    Question q = line.question();
    if (a.skipped()) return "no answer (time ran out)";
    if (q.kind() == Question.Kind.SELF_GRADED) return "rated yourself " + RATINGS.get(a.rating() - 1);
    if (q.kind() == Question.Kind.ORDER) {
      List<String> steps = new ArrayList<>();
      for (int i : a.order()) steps.add(q.options().get(i));
      return String.join(" → ", steps);
    }
    return q.options().get(a.choice());
  }

  private static DomContent header(QuizScope scope, String title) {
    return j2html.TagCreator.header(
        p(a(scope.all() ? "← All lessons" : "← Back to the lesson").withHref(scope.home())).withClass("breadcrumb"),
        h1(text(title + ": "), Markdown.inline(scope.title()))
    ).withClass("quiz-header");
  }

  private static String resultsHref(QuizScope scope, QuizSession s) {
    return scope.page() + "/" + s.id() + "/results";
  }
}
