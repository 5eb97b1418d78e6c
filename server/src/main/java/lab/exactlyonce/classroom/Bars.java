package lab.exactlyonce.classroom;

import j2html.tags.specialized.DivTag;

import static j2html.TagCreator.div;

/**
 * A histogram bar whose length is a class ({@code w-0} to {@code w-100} in steps of 5, in classroom.css), not an
 * inline style: the pages' content security policy refuses inline styles, and a bar is drawn without JavaScript.
 */
final class Bars {
  private Bars() {
  }

  /** A bar {@code part / whole} long, rounded to 5 %; {@code extraClasses} such as {@code "right"} or "". */
  static DivTag bar(int part, int whole, String extraClasses) {
    int percent = whole <= 0 ? 0 : (int) Math.round(100.0 * Math.max(0, Math.min(part, whole)) / whole);
    int step = Math.round(percent / 5f) * 5;
    return div().withClass("bar w-" + step + (extraClasses.isEmpty() ? "" : " " + extraClasses));
  }
}
