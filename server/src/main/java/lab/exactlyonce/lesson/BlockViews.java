package lab.exactlyonce.lesson;

import j2html.tags.ContainerTag;
import j2html.tags.DomContent;
import j2html.tags.specialized.DetailsTag;
import j2html.tags.specialized.DivTag;

import java.util.List;

import static j2html.TagCreator.*;
import static lab.exactlyonce.web.Markdown.block;
import static lab.exactlyonce.web.Markdown.inline;

/**
 * Draws each kind of {@link Block}. Every block and item gets the element id {@code <tab>/<id>}, its deep link.
 * Answers sit in {@code <details>}, so they stay hidden yet readable (and printable) without JavaScript; the
 * buttons that need JavaScript are rendered {@code hidden} and shown by {@code qa.js}. A question whose answer is held
 * back ({@link AnswerHolds}) keeps its {@code <details>}, marked {@code data-held}, with the hold's note inside.
 */
final class BlockViews {
  private final TabViews views;

  BlockViews(TabViews views) {
    this.views = views;
  }

  /** @param level the heading level for the block's own title; items go one below when the block has a title */
  DomContent render(Lesson lesson, AnswerHolds.Held held, Tab tab, Block block, int level) {
    Ids ids = new Ids(tab);
    if (block instanceof Block.Text b) return wrap(ids, b, "text", block(b.body()));
    if (block instanceof Block.Steps b) return steps(ids, b, level);
    if (block instanceof Block.Table b) return tableView(ids, b, level);
    if (block instanceof Block.Cards b) return cards(ids, b, level);
    if (block instanceof Block.Pairs b) return pairs(ids, b, level);
    if (block instanceof Block.Compare b) return compare(ids, b, level);
    if (block instanceof Block.Questions b) {
      Answers answers = new Answers(lesson, held);
      return b.ladder() ? ladder(ids, b, level, answers) : interview(ids, b, level, answers);
    }
    if (block instanceof Block.Scenario b) return scenario(ids, b, level);
    if (block instanceof Block.Exercise b) return exercise(ids, b, level);
    if (block instanceof Block.Snippet b) return snippet(lesson, ids, b);
    if (block instanceof Block.Note b) return note(ids, b);
    throw new IllegalStateException("no view for block kind " + block.getClass().getSimpleName());
  }

  private DomContent steps(Ids ids, Block.Steps b, int level) {
    int itemLevel = b.title() == null ? level : level + 1;
    return wrap(ids, b, "steps", title(b.title(), level),
        ol(each(b.items(), item -> li(heading(itemLevel, inline(item.title())), block(item.body()))
            .withId(ids.of(item.id())))).withClass("step-list"));
  }

  private DomContent tableView(Ids ids, Block.Table b, int level) {
    String captionId = ids.of(b.id()) + "/caption";
    String caption = b.caption() != null ? b.caption() : b.title() != null ? b.title() : b.id();
    return wrap(ids, b, "table", title(b.title(), level),
        div(table(
            caption(inline(caption)).withId(captionId),
            thead(tr(each(b.columns(), c -> th(inline(c)).attr("scope", "col")))),
            tbody(each(b.rows(), row -> tr(
                th(inline(row.cells().get(0))).attr("scope", "row"),
                each(row.cells().subList(1, row.cells().size()), cell -> td(inline(cell)))
            ).withId(ids.of(row.id()))))
        )).withClass("table-wrap").attr("tabindex", "0").attr("role", "region").attr("aria-labelledby", captionId));
  }

  private DomContent cards(Ids ids, Block.Cards b, int level) {
    int itemLevel = b.title() == null ? level : level + 1;
    return wrap(ids, b, "cards", title(b.title(), level),
        ul(each(b.items(), item -> li(heading(itemLevel, inline(item.title())), block(item.body()))
            .withClass("card").withId(ids.of(item.id())))).withClass("card-list"));
  }

  private DomContent pairs(Ids ids, Block.Pairs b, int level) {
    return wrap(ids, b, "pairs", title(b.title(), level),
        ul(each(b.items(), pair -> li(
            div(span(b.claimLabel()).withClass("pair-label"), div(block(pair.claim()))).withClass("claim"),
            div(span(b.responseLabel()).withClass("pair-label"), div(block(pair.response()))).withClass("response")
        ).withClass("pair").withId(ids.of(pair.id())))).withClass("pair-list"));
  }

  private DomContent compare(Ids ids, Block.Compare b, int level) {
    int sideLevel = b.title() == null ? level : level + 1;
    return wrap(ids, b, "compare", title(b.title(), level),
        div(side("Prefer", "prefer", b.prefer(), sideLevel), side("Alternative", "alternative", b.alternative(), sideLevel))
            .withClass("compare-sides"));
  }

  private DomContent side(String label, String kind, Block.Side side, int level) {
    return div(
        p(label).withClass("side-label"),
        heading(level, inline(side.title())),
        block(side.summary()),
        iff(!side.points().isEmpty(), ul(each(side.points(), point -> li(inline(point)))))
    ).withClass("side side-" + kind);
  }

  /** The ladder: levels climbed in order; qa.js adds "Reveal next level", "Reveal all" and "Hide all". */
  private DomContent ladder(Ids ids, Block.Questions b, int level, Answers answers) {
    return wrap(ids, b, "ladder", title(b.title(), level),
        div(
            button("Reveal next level").withType("button").attr("data-ladder-next"),
            button("Reveal all").withType("button").attr("data-ladder-all"),
            button("Hide all").withType("button").attr("data-ladder-none"),
            p().withClass("ladder-status").attr("aria-live", "polite")
        ).withClass("ladder-controls controls").attr("hidden"),
        ol(each(b.items(), q -> li(
            div(
                iff(q.level() != null, span(q.level()).withClass("level")),
                topicLabel(answers.lesson(), q)
            ).withClass("question-meta"),
            div(block(q.question())).withClass("question"),
            answers.of(q)
        ).withClass("ladder-item").withId(ids.of(q.id())).attr("tabindex", "-1"))).withClass("ladder-list")
    ).attr("data-ladder");
  }

  private DomContent interview(Ids ids, Block.Questions b, int level, Answers answers) {
    return wrap(ids, b, "interview", title(b.title(), level),
        ol(each(b.items(), q -> li(
            iff(q.topic() != null, div(topicLabel(answers.lesson(), q)).withClass("question-meta")),
            div(block(q.question())).withClass("question"),
            answers.of(q)
        ).withClass("interview-item").withId(ids.of(q.id())).attr("tabindex", "-1"))).withClass("interview-list"));
  }

  /** The learner writes an answer to each question (qa.js keeps it in the browser) before opening the model answer. */
  private DomContent scenario(Ids ids, Block.Scenario b, int level) {
    int sub = b.title() == null ? level : level + 1;
    return wrap(ids, b, "scenario", title(b.title(), level),
        div(block(b.prompt())).withClass("scenario-prompt"),
        iff(!b.cards().isEmpty(), ul(each(b.cards(), card -> li(heading(sub, inline(card.title())), block(card.body()))
            .withClass("card").withId(ids.of(card.id())))).withClass("card-list requirement-cards")),
        list("Failure assumptions", b.failureAssumptions(), sub),
        list("Constraints", b.constraints(), sub),
        ol(each(b.questions(), q -> {
          String answerId = ids.of(q.id()) + "/answer";
          String questionId = ids.of(q.id()) + "/question";
          return li(
              heading(sub, span(q.area()).withClass("area"), text(" "), inline(q.question())).withId(questionId),
              label("Your answer").withFor(answerId),
              textarea().withId(answerId).withName(answerId).attr("rows", "5").attr("data-scenario-answer", q.id())
                  .attr("aria-describedby", questionId),
              answer("Model answer", q.answer()).attr("data-model-answer", q.id())
          ).withClass("scenario-question").withId(ids.of(q.id())).attr("tabindex", "-1");
        })).withClass("scenario-questions")
    ).attr("data-scenario", b.id());
  }

  private static DomContent list(String label, List<String> items, int level) {
    return iff(!items.isEmpty(), div(heading(level, text(label)), ul(each(items, item -> li(inline(item))))));
  }

  private DomContent exercise(Ids ids, Block.Exercise b, int level) {
    return wrap(ids, b, "exercise", title(b.title(), level),
        block(b.prompt()),
        p(text("Snippet: "), a(code(b.snippet())).withHref("#sandbox/" + b.snippet())).withClass("exercise-snippet"),
        answer("Answer", b.answer()));
  }

  private DomContent snippet(Lesson lesson, Ids ids, Block.Snippet b) {
    DivTag wrapper = div(iff(b.intro() != null, block(b.intro())), views.snippets().render(lesson, b.snippet()))
        .withClass("block block-snippet");
    // The snippet view owns the id sandbox/<snippetId>; never repeat it on the wrapper.
    return ids.of(b.id()).equals("sandbox/" + b.snippet()) ? wrapper : wrapper.withId(ids.of(b.id()));
  }

  private DomContent note(Ids ids, Block.Note b) {
    return wrap(ids, b, "note", p(strong(inline(b.title()))).withClass("note-title"), block(b.body()))
        .attr("role", "note");
  }

  private static DivTag wrap(Ids ids, Block block, String kind, DomContent... content) {
    return div(content).withClass("block block-" + kind).withId(ids.of(block.id()));
  }

  private static DetailsTag answer(String label, String markdown) {
    return details(answerContent(label, markdown)).withClass("answer");
  }

  /** What a question's {@code <details>} holds once its answer may be read; also the released answer's fragment. */
  /** A question's own topic, by its title in the lesson's vocabulary; nothing when it takes its section's. */
  private static DomContent topicLabel(Lesson lesson, Block.Question q) {
    return q.topic() == null ? text("") : span(lesson.topic(q.topic()).title()).withClass("topic");
  }

  static DomContent answerContent(String label, String markdown) {
    return each(summary(label), div(block(markdown)).withClass("answer-body"));
  }

  /** A question's answer, or its place held: the note instead of the answer, marked with the ladder id holding it. */
  private record Answers(Lesson lesson, AnswerHolds.Held held) {
    DetailsTag of(Block.Question q) {
      String holding = held.holding(lesson, q.id());
      if (holding == null) return answer("Answer", q.answer());
      return details(summary("Answer"), p(held.note()).withClass("held-note")).withClass("answer").attr("data-held", holding);
    }
  }

  private static DomContent title(String title, int level) {
    return title == null ? text("") : heading(level, inline(title));
  }

  static ContainerTag<?> heading(int level, DomContent... content) {
    return tag("h" + Math.min(6, level)).with(content);
  }

  /** Element ids are deep links: {@code <tab>/<id>}. */
  record Ids(Tab tab) {
    String of(String id) {
      return tab.id() + "/" + id;
    }
  }
}
