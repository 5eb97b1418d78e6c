package lab.exactlyonce.lesson;

import j2html.tags.DomContent;
import lab.exactlyonce.web.Pages;

import java.util.List;

import static j2html.TagCreator.*;

/** Server-rendered lesson pages. (Skeleton: the lesson feature fills in every block kind.) */
final class LessonPages {
  private final TabViews views;

  LessonPages(TabViews views) {
    this.views = views;
  }

  String home(List<Lesson> lessons) {
    return Pages.document("Exactly-Once Lab",
        h1("Exactly-Once Lab"),
        ul(each(lessons, l -> li(a(l.title()).withHref("/lessons/" + l.id())))));
  }

  String lesson(Lesson lesson) {
    return Pages.document(lesson.title(),
        h1(lesson.title()),
        each(List.of(Tab.values()), tab -> section(
            h2(tab.label()),
            tab == Tab.MAPS ? views.maps().render(lesson) : text(""),
            each(lesson.sectionsOn(tab), s -> section(h3(s.title())).withId(s.id()))
        ).withId(tab.id())));
  }
}
