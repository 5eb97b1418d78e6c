package lab.exactlyonce.snippet;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import j2html.tags.DomContent;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.lesson.TabViews;

import static j2html.TagCreator.*;

/**
 * Draws a runnable snippet where a lesson's {@code snippet} block stands: title, summary, the source in a
 * {@code <pre><code>}, the expected output and the explanation, all readable without JavaScript. The toolbar,
 * status line and output panels are rendered {@code hidden}; {@code web/js/sandbox.js} shows them, turns the source
 * into an editor and takes over the expected-output panel (shown after a run). A snippet with knobs carries them
 * on the article as {@code data-knobs}, the JSON of {@code GET /api/snippets/{id}}'s knobs, for
 * {@code web/js/knobs.js}.
 */
public final class SnippetViews implements TabViews.SnippetView {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final SnippetCatalog catalog;

  public SnippetViews(SnippetCatalog catalog) {
    this.catalog = catalog;
  }

  @Override
  public DomContent render(Lesson lesson, String snippetId) {
    return catalog.find(snippetId).map(this::render).orElseGet(() ->
        div(p("The snippet '" + snippetId + "' is missing.")).withClass("sandbox sandbox-missing")
            .withId("sandbox/" + snippetId));
  }

  DomContent render(Snippet s) {
    String id = s.id();
    return article(
        h4(s.title()).withClass("sandbox-title").withId("sandbox/" + id + "/title"),
        s.summary().isEmpty() ? text("") : p(s.summary()).withClass("sandbox-summary"),
        div(
            button("Run").withType("button").withClass("sandbox-run").attr("data-run", id)
                .attr("aria-keyshortcuts", "Control+Enter Meta+Enter")
                .withTitle("Run (Ctrl+Enter)"),
            button("Reset to starter").withType("button").attr("data-reset", id),
            button("Copy output").withType("button").attr("data-copy-output", id),
            button("Share link").withType("button").attr("data-share", id),
            span("Ctrl+Enter runs").withClass("sandbox-hint")
        ).withClass("sandbox-toolbar").attr("role", "toolbar").attr("aria-label", "Snippet " + s.title())
            .attr("hidden", ""),
        pre(code(s.source()).withClass("language-java")).withClass("sandbox-source")
            .attr("data-source", "").attr("tabindex", "0").attr("aria-label", "Java source of " + s.title()),
        p("Not run yet.").withClass("sandbox-status").attr("data-status", "").attr("role", "status")
            .attr("aria-live", "polite").attr("hidden", ""),
        div(
            div(span("Output").withClass("sandbox-label"),
                pre().withClass("sandbox-stdout").attr("data-stdout", "").attr("aria-label", "Standard output")),
            div(span("Errors").withClass("sandbox-label"),
                pre().withClass("sandbox-stderr").attr("data-stderr", "").attr("aria-label", "Standard error"))
                .withClass("sandbox-stderr-panel").attr("hidden", ""),
            ul().withClass("sandbox-diagnostics").attr("data-diagnostics", "").attr("aria-label", "Diagnostics")
                .attr("hidden", "")
        ).withClass("sandbox-output").attr("data-output", "").attr("hidden", ""),
        div(
            p("Output differs from the lesson's expected output shown below.").withClass("sandbox-differs")
                .attr("data-differs", "").attr("hidden", ""),
            div(span("Expected output").withClass("sandbox-label"),
                pre(s.expectedOutput()).withClass("sandbox-expected-output").attr("data-expected-output", "")),
            div(span("What happened").withClass("sandbox-label"), p(s.explanation()))
                .withClass("sandbox-explanation").attr("data-explanation", "")
        ).withClass("sandbox-expected").attr("data-expected", "")
    ).withClass("sandbox").withId("sandbox/" + id).attr("data-snippet", id).attr("data-state", "idle")
        .attr("aria-labelledby", "sandbox/" + id + "/title")
        .condAttr(!s.knobs().isEmpty(), "data-knobs", knobsJson(s))
        .condAttr(!s.knobs().isEmpty(), "data-declaration", SnippetParameters.DECLARATION.pattern());
  }

  private static String knobsJson(Snippet s) {
    try {
      return JSON.writeValueAsString(s.knobs());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("the knobs of snippet " + s.id() + " cannot be written as JSON", e);
    }
  }
}
