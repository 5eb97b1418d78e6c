package lab.exactlyonce.web;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Lesson Markdown renders safely: no raw HTML, no script URLs, no images from elsewhere. */
class MarkdownTest {

  @Test
  void inline_text_keeps_its_formatting_without_a_paragraph() {
    assertEquals("Use <code>read_committed</code> and <strong>commit</strong>.",
        Markdown.inline("Use `read_committed` and **commit**.").render());
  }

  @Test
  void block_text_is_paragraphs_and_lists() {
    assertEquals("<p>One.</p>\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n", Markdown.block("One.\n\n- a\n- b").render());
  }

  @Test
  void raw_html_is_escaped() {
    assertEquals("<p>&lt;script&gt;alert(1)&lt;/script&gt; &lt;b onclick=&quot;x()&quot;&gt;hi&lt;/b&gt;</p>\n",
        Markdown.block("<script>alert(1)</script> <b onclick=\"x()\">hi</b>").render());
  }

  @Test
  void script_urls_are_dropped_and_safe_links_kept() {
    assertEquals("<a rel=\"nofollow\" href=\"\">bad</a> <a rel=\"nofollow\" href=\"#qa/L3\">good</a>",
        Markdown.inline("[bad](javascript:alert(1)) [good](#qa/L3)").render());
  }

  @Test
  void images_load_only_from_this_app() {
    assertEquals("<img src=\"\" alt=\"x\" /> <img src=\"/assets/favicon.svg\" alt=\"y\" />",
        Markdown.inline("![x](https://example.org/t.png) ![y](/assets/favicon.svg)").render());
  }
}
