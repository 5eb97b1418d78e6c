package lab.exactlyonce.web;

import j2html.tags.DomContent;

import static j2html.TagCreator.*;

/** The HTML document around every page: head, assets, skip link. Pages pass their body content. */
public final class Pages {
  private Pages() {}

  public static String document(String title, DomContent... body) {
    return document(title, new String[0], body);
  }

  /** {@code modules} are paths under {@code /assets/js/} loaded as ES modules. */
  public static String document(String title, String[] modules, DomContent... body) {
    return "<!DOCTYPE html>\n" + html(
        head(
            meta().withCharset("utf-8"),
            meta().withName("viewport").withContent("width=device-width, initial-scale=1"),
            meta().withName("color-scheme").withContent("light dark"),
            title(title),
            link().withRel("icon").withHref("/assets/favicon.svg").withType("image/svg+xml"),
            link().withRel("stylesheet").withHref("/assets/css/app.css"),
            each(java.util.Arrays.asList(modules), m -> script().withType("module").withSrc("/assets/js/" + m))
        ),
        body(
            a("Skip to content").withHref("#main").withClass("skip-link"),
            main(body).withId("main")
        )
    ).withLang("en").render();
  }

  static String errorPage(int status, String reason, String message) {
    return document(status + " " + reason,
        h1(status + " " + reason),
        p(message),
        p(a("Back to the lessons").withHref("/")));
  }
}
