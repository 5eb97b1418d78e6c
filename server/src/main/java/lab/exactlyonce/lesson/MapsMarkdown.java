package lab.exactlyonce.lesson;

import j2html.tags.DomContent;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;

import static j2html.TagCreator.rawHtml;

/** Renders the Markdown of map and flow texts (why, effect, step detail). Raw HTML in the source is escaped. */
final class MapsMarkdown {
  private static final Parser PARSER = Parser.builder().build();
  private static final HtmlRenderer RENDERER = HtmlRenderer.builder().escapeHtml(true).sanitizeUrls(true).build();

  private MapsMarkdown() {}

  static DomContent render(String markdown) {
    return rawHtml(RENDERER.render(PARSER.parse(markdown)));
  }
}
