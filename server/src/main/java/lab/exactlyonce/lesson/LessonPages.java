package lab.exactlyonce.lesson;

import j2html.tags.DomContent;
import lab.exactlyonce.web.Markdown;
import lab.exactlyonce.web.Pages;

import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static j2html.TagCreator.*;

/**
 * Server-rendered lesson pages. The lesson page reads top to bottom without JavaScript: a header, a nav of plain
 * links, and one {@code <section>} per tab; {@code tabs.js} turns it into WAI-ARIA tabs. The lesson element names
 * the lesson ({@code data-lesson}) and the tabs ({@code data-tabs}) for the scripts, with the other features' page data.
 */
final class LessonPages {
  private static final List<String> MODULES = List.of("lesson-header.js", "tabs.js", "voice.js", "qa.js", "map.js",
      "flow.js", "sandbox.js", "real-run.js", "exercises.js", "progress.js", "answer-box.js");
  private static final List<String> STYLESHEETS = List.of("maps.css", "flows.css", "sandbox.css", "timeline.css",
      "real-run.css", "exercises.css", "progress.css", "answer-box.css");

  private final TabViews views;
  private final BlockViews blocks;

  LessonPages(TabViews views) {
    this.views = views;
    this.blocks = new BlockViews(views);
  }

  /**
   * Where the asker's {@link DueReviews} go in a drawn lesson page: under the title. The page is drawn once for
   * everyone who has nothing held back (see {@code LessonRoutes}); each asker's own line is put in this slot as the
   * page is sent.
   */
  private static final String DUE_REVIEWS_SLOT = "<!--due-reviews-->";

  /** @param held the answers held back from the asker: drawn held, with the hold's watcher at the end */
  String lesson(Lesson lesson, AnswerHolds.Held held) {
    var page = div(
            header(
                nav(a("All lessons").withHref("/"), text(" · "), a("Take the quiz").withHref(HomePage.quiz(lesson)).withId("quiz-link"),
                    text(" · "), a("Join a class").withHref(HomePage.JOIN)).withClass("breadcrumb").attr("aria-label", "Lesson links"),
                h1(Markdown.inline(lesson.title())),
                rawHtml(DUE_REVIEWS_SLOT),
                summaryView(lesson.summary())
            ).withClass("lesson-header"),
            nav(ul(each(List.of(Tab.values()), tab -> li(a(tab.label()).withHref("#" + tab.id()).withId("tab-" + tab.id())))))
                .withClass("tabs").attr("aria-label", "Lesson tabs"),
            each(List.of(Tab.values()), tab -> panel(lesson, held, tab)),
            held.isEmpty() ? text("") : held.watcher()
        ).withClass("lesson").attr("data-lesson", lesson.id()).attr("data-tabs", tabIds());
    views.page().attributes(lesson).forEach(page::attr);
    return Pages.document(lesson.title() + " · Exactly-Once Lab", new Pages.Assets(STYLESHEETS, MODULES),
        page);
  }

  /**
   * The summary's first paragraph, then the rest behind "More about this lesson": drawn open, so the page reads whole
   * without JavaScript; lesson-header.js closes it, so the tabs are on a phone's first screen. Each part is read aloud
   * on its own, so the toggle's label is not.
   */
  private static DomContent summaryView(String markdown) {
    String lede = HomePage.firstParagraph(markdown);
    String rest = markdown.strip().substring(lede.length()).strip();
    return div(
        div(Markdown.block(lede)).withClass("lesson-lede").attr("data-readout"),
        iff(!rest.isEmpty(), details(
            summary(span("More about this lesson").withClass("when-full"),
                span("About this lesson").withClass("when-compact")),
            div(Markdown.block(rest)).attr("data-readout")
        ).withClass("lesson-more").attr("open"))
    ).withClass("lesson-summary");
  }

  /** {@code page} (drawn by {@link #lesson}) with {@code notice}, the asker's reviews due, in its slot. */
  static String withDueReviews(String page, String notice) {
    int slot = page.indexOf(DUE_REVIEWS_SLOT);
    if (slot < 0) throw new IllegalStateException("the lesson page has no slot for the reviews due");
    return page.substring(0, slot) + notice + page.substring(slot + DUE_REVIEWS_SLOT.length());
  }

  /** The tab ids as a JSON list, for the scripts: {@code ["gist","maps","qa","sandbox"]}. */
  private static String tabIds() {
    return Stream.of(Tab.values()).map(t -> "\"" + t.id() + "\"").collect(Collectors.joining(",", "[", "]"));
  }

  private DomContent panel(Lesson lesson, AnswerHolds.Held held, Tab tab) {
    String headingId = tab.id() + "-heading";
    return section(
        h2(tab.label()).withId(headingId),
        tabIntro(lesson, tab),
        each(sectionsOf(lesson, tab), s -> sectionView(lesson, held, tab, s)),
        tab == Tab.SANDBOX ? views.exercises().render(lesson) : text(""),
        tab == Tab.QA ? nextSteps(lesson) : text("")
    ).withId(tab.id()).withClass("tab-panel").attr("aria-labelledby", headingId);
  }

  /** Where a student who has climbed the ladder goes next. */
  private static DomContent nextSteps(Lesson lesson) {
    return p(text("Ready to test yourself? "), a("Take the quiz").withHref(HomePage.quiz(lesson)),
        text(". Your instructor runs a class? "), a("Join a class").withHref(HomePage.JOIN), text("."))
        .withClass("next-steps");
  }

  private DomContent tabIntro(Lesson lesson, Tab tab) {
    if (tab == Tab.GIST) return each(keyIdeas(lesson), voiceControls(), p("Voice readout needs JavaScript.").withClass("voice-needs-js"));
    if (tab == Tab.MAPS) return views.maps().render(lesson);
    return text("");
  }

  private static DomContent keyIdeas(Lesson lesson) {
    if (lesson.keyIdeas().isEmpty()) return text("");
    return div(
        h3("Key ideas"),
        ul(each(lesson.keyIdeas(), idea -> li(Markdown.inline(idea.text())).withId("gist/" + idea.id())))
    ).withClass("key-ideas").attr("data-readout");
  }

  /**
   * Rendered hidden: voice.js shows the controls (and removes the "needs JavaScript" line after them), or replaces
   * them with a notice where speech synthesis is missing.
   */
  private static DomContent voiceControls() {
    return div(
        h3("Listen to the gist").withId("voice-heading"),
        div(
            button("Play").withType("button").attr("data-voice-play"),
            button("Pause").withType("button").attr("data-voice-pause").attr("disabled"),
            button("Stop").withType("button").attr("data-voice-stop").attr("disabled"),
            label(text("Rate "),
                select(
                    option("0.75×").withValue("0.75"), option("1×").withValue("1").isSelected(),
                    option("1.25×").withValue("1.25"), option("1.5×").withValue("1.5"), option("2×").withValue("2")
                ).attr("data-voice-rate")),
            p().withClass("voice-status").attr("aria-live", "polite")
        ).withClass("voice-buttons controls").attr("role", "group").attr("aria-labelledby", "voice-heading")
    ).withClass("voice").attr("data-voice").attr("data-state", "stopped").attr("hidden");
  }

  /** The Q&A tab starts with the ladder, then the design scenario, then the rest in lesson order. */
  private static List<Section> sectionsOf(Lesson lesson, Tab tab) {
    List<Section> sections = lesson.sectionsOn(tab);
    if (tab != Tab.QA) return sections;
    return sections.stream().sorted(Comparator.comparingInt(LessonPages::qaRank)).toList();
  }

  private static int qaRank(Section section) {
    if (section.blocks().stream().anyMatch(b -> b instanceof Block.Questions q && q.ladder())) return 0;
    if (section.blocks().stream().anyMatch(b -> b instanceof Block.Scenario)) return 1;
    return 2;
  }

  private DomContent sectionView(Lesson lesson, AnswerHolds.Held held, Tab tab, Section s) {
    String id = tab.id() + "/" + s.id();
    var section = section(
        div(
            h3(Markdown.inline(s.title())),
            a("#").withHref("#" + id).withClass("anchor").attr("aria-label", "Link to this section: " + s.title())
        ).withClass("section-head"),
        iff(s.intro() != null, div(Markdown.block(s.intro())).withClass("section-intro")),
        each(s.blocks(), b -> blocks.render(lesson, held, tab, b, 4))
    ).withId(id).withClass("lesson-section");
    return tab == Tab.GIST ? section.attr("data-readout") : section;
  }
}
