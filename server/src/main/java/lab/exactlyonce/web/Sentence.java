package lab.exactlyonce.web;

/**
 * The one style for messages people read. The server writes each error as a fragment that names the culprit, in
 * lower case and without a full stop ("no lesson 'nope'; lessons here: exactly-once"), so that it reads the same in
 * JSON and inside a longer line ("Not run: ..."); a page that shows one on its own shows it as a sentence, through
 * this (and {@code sentence} in {@code web/js/dom.js}).
 */
public final class Sentence {
  private Sentence() {}

  /** "no page at /x" to "No page at /x."; a message that already ends in . ! ? or ) keeps its ending. */
  public static String of(String fragment) {
    String text = fragment.strip();
    if (text.isEmpty()) return text;
    String first = Character.isLowerCase(text.charAt(0)) ? text.substring(0, 1).toUpperCase() + text.substring(1) : text;
    char last = first.charAt(first.length() - 1);
    return ".!?)".indexOf(last) >= 0 ? first : first + ".";
  }
}
