package lab.exactlyonce.web;

import j2html.tags.DomContent;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.DefaultUrlSanitizer;
import org.commonmark.renderer.html.HtmlRenderer;

import static j2html.TagCreator.rawHtml;

/**
 * Renders the Markdown of lesson text: raw HTML is escaped, link URLs are limited to safe schemes, and images load
 * only from this app (no external request of any kind). {@link #block} gives paragraphs and lists;
 * {@link #inline} gives phrasing content for headings, table cells and labels.
 */
public final class Markdown {
  private static final Parser PARSER = Parser.builder().build();
  private static final HtmlRenderer BLOCK = renderer(false);
  private static final HtmlRenderer INLINE = renderer(true);

  private Markdown() {}

  public static DomContent block(String markdown) {
    return rawHtml(markdown == null ? "" : BLOCK.render(PARSER.parse(markdown)));
  }

  /** A single paragraph rendered without its {@code <p>}; anything longer keeps its blocks. */
  public static DomContent inline(String markdown) {
    return rawHtml(markdown == null ? "" : INLINE.render(PARSER.parse(markdown)).strip());
  }

  private static HtmlRenderer renderer(boolean inline) {
    return HtmlRenderer.builder()
        .escapeHtml(true)
        .sanitizeUrls(true)
        .urlSanitizer(new LocalImages())
        .omitSingleParagraphP(inline)
        .build();
  }

  /** Links keep the default safe schemes; images must be served by this app. */
  private static final class LocalImages extends DefaultUrlSanitizer {
    @Override
    public String sanitizeImageUrl(String url) {
      String safe = super.sanitizeImageUrl(url);
      return safe.startsWith("/") && !safe.startsWith("//") ? safe : "";
    }
  }
}
