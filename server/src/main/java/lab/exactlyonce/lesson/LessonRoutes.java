package lab.exactlyonce.lesson;

import io.javalin.config.RoutesConfig;
import io.javalin.http.ConflictResponse;
import io.javalin.http.Context;
import io.javalin.http.NotFoundResponse;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static j2html.TagCreator.rawHtml;

/**
 * HTTP in and out for lessons: the pages, the lesson JSON, and the answers of held ladder questions once they are
 * released. Both the page and the JSON draw what {@link AnswerHolds} holds back from the asker as held. The home
 * page and the lesson page show the asker's {@link DueReviews}.
 */
public final class LessonRoutes {
  private final LessonCatalog catalog;
  private final LessonPages pages;
  private final AnswerHolds holds;
  private final DueReviews due;
  /**
   * Each lesson's page as everyone sees it who has nothing held back: the same bytes for every such learner, so it is
   * drawn once rather than for each of a class's students (about 0.1 to 1 s of CPU per drawing).
   */
  private final Map<String, String> pagesWithNothingHeld = new ConcurrentHashMap<>();

  public LessonRoutes(LessonCatalog catalog, TabViews views, AnswerHolds holds, DueReviews due) {
    this.catalog = catalog;
    this.pages = new LessonPages(views);
    this.holds = holds;
    this.due = due;
  }

  /** One entry of {@code GET /api/lessons}: enough to list a lesson and find its page and its data. */
  record Listing(String id, String title, String summary, String page, String data) {
    static Listing of(Lesson lesson) {
      return new Listing(lesson.id(), lesson.title(), lesson.summary(), "/lessons/" + lesson.id(), "/api/lessons/" + lesson.id());
    }
  }

  /** A released answer: the lesson page element it belongs in (its deep-link id) and what goes inside its details. */
  record Released(String id, String html) {}

  public void register(RoutesConfig routes) {
    routes.get("/", ctx -> {
      Map<String, String> notices = new HashMap<>();
      for (Lesson lesson : catalog.all()) notices.put(lesson.id(), notice(ctx, lesson));
      ctx.html(HomePage.render(catalog.all(), lesson -> rawHtml(notices.get(lesson.id()))));
    });
    routes.get("/lessons/{id}", ctx -> {
      Lesson lesson = catalog.require(ctx.pathParam("id"));
      AnswerHolds.Held held = held(ctx, lesson);
      String page = held.isEmpty()
          ? pagesWithNothingHeld.computeIfAbsent(lesson.id(), id -> pages.lesson(lesson, held))
          : pages.lesson(lesson, held);
      ctx.html(LessonPages.withDueReviews(page, notice(ctx, lesson)));
    });
    routes.get("/api/lessons", ctx -> ctx.json(catalog.all().stream().map(Listing::of).toList()));
    routes.get("/api/lessons/{id}", ctx -> {
      Lesson lesson = catalog.require(ctx.pathParam("id"));
      ctx.json(LessonJson.of(lesson, held(ctx, lesson)));
    });
    routes.get("/api/lessons/{id}/answers/{item}", this::released);
  }

  /** The asker's reviews due in the lesson, drawn; a page showing them is theirs and is not kept by a cache either. */
  private String notice(Context ctx, Lesson lesson) {
    String notice = due.notice(ctx, lesson).render();
    if (!notice.isEmpty()) ctx.header("Cache-Control", "no-store");
    return notice;
  }

  /** Someone's held answers must not be kept by a cache and shown to them, or anyone, later. */
  private AnswerHolds.Held held(Context ctx, Lesson lesson) {
    AnswerHolds.Held held = holds.heldFor(ctx, lesson.id());
    if (!held.isEmpty()) ctx.header("Cache-Control", "no-store");
    return held;
  }

  /** The answers a ladder question's release brings back: its own, and those of the questions rephrasing it. */
  private void released(Context ctx) {
    Lesson lesson = catalog.require(ctx.pathParam("id"));
    String item = ctx.pathParam("item");
    if (!lesson.ladder().containsKey(item)) {
      throw new NotFoundResponse("lesson '" + lesson.id() + "' has no ladder question '" + item + "'");
    }
    if (held(ctx, lesson).holding(lesson, item) != null) {
      throw new ConflictResponse("the answer to ladder question '" + item + "' is still held back");
    }
    List<Released> out = new ArrayList<>();
    for (Section section : lesson.sections()) {
      for (Block block : section.blocks()) {
        if (!(block instanceof Block.Questions q)) continue;
        for (Block.Question question : q.items()) {
          if (question.id().equals(item) || item.equals(question.rephrases())) {
            out.add(new Released(section.tab().id() + "/" + question.id(), BlockViews.answerContent("Answer", question.answer()).render()));
          }
        }
      }
    }
    ctx.header("Cache-Control", "no-store");
    ctx.json(out);
  }
}
