package lab.exactlyonce.web;

import j2html.tags.DomContent;

import java.util.List;

import static j2html.TagCreator.*;

/**
 * The HTML document around every page: head, assets, skip link. Pages pass their body content. The body names where
 * the CodeMirror WebJar is ({@code data-codemirror}) for {@code web/js/editor.js}.
 */
public final class Pages {
  private Pages() {}

  /**
   * What a page loads besides {@code app.css}.
   *
   * @param stylesheets file names under {@code css/} of the assets ({@link AssetVersion})
   * @param modules file names under {@code js/} of the assets, loaded as ES modules
   */
  public record Assets(List<String> stylesheets, List<String> modules) {
    public static final Assets NONE = new Assets(List.of(), List.of());

    public Assets {
      stylesheets = List.copyOf(stylesheets);
      modules = List.copyOf(modules);
    }
  }

  public static String document(String title, DomContent... body) {
    return document(title, Assets.NONE, body);
  }

  public static String document(String title, Assets assets, DomContent... content) {
    var body = body(
        a("Skip to content").withHref("#main").withClass("skip-link"),
        main(content).withId("main").attr("tabindex", "-1"));
    WebJars.CODEMIRROR.ifPresent(base -> body.attr("data-codemirror", base));
    return "<!DOCTYPE html>\n" + html(
        head(
            meta().withCharset("utf-8"),
            meta().withName("viewport").withContent("width=device-width, initial-scale=1"),
            meta().withName("color-scheme").withContent("light dark"),
            title(title),
            link().withRel("icon").withHref(AssetVersion.url("favicon.svg")).withType("image/svg+xml"),
            link().withRel("stylesheet").withHref(AssetVersion.url("css/app.css")),
            each(assets.stylesheets(), css -> link().withRel("stylesheet").withHref(AssetVersion.url("css/" + css))),
            each(assets.modules(), m -> script().withType("module").withSrc(AssetVersion.url("js/" + m)))
        ),
        body
    ).withLang("en").render();
  }

  static String errorPage(int status, String reason, String message) {
    return document(status + " " + reason,
        h1(status + " " + reason),
        p(Sentence.of(message)),
        p(a("Back to the lessons").withHref("/")));
  }
}
