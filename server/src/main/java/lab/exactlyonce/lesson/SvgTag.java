package lab.exactlyonce.lesson;

import j2html.tags.ContainerTag;

/** An SVG element for j2html, which has no SVG vocabulary of its own. */
final class SvgTag extends ContainerTag<SvgTag> {
  private SvgTag(String name) {
    super(name);
  }

  static SvgTag of(String name) {
    return new SvgTag(name);
  }
}
