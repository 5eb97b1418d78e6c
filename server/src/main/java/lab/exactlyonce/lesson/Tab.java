package lab.exactlyonce.lesson;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** The four tabs of a lesson page, in order. The id is used in URLs and YAML. */
public enum Tab {
  GIST("gist", "Gist"), MAPS("maps", "Maps"), QA("qa", "Q&A"), SANDBOX("sandbox", "Sandbox");

  private final String id;
  private final String label;

  Tab(String id, String label) {
    this.id = id;
    this.label = label;
  }

  @JsonValue
  public String id() { return id; }

  public String label() { return label; }

  @JsonCreator
  public static Tab fromId(String id) {
    for (Tab tab : values()) if (tab.id.equals(id)) return tab;
    throw new IllegalArgumentException("'tab' must be one of gist, maps, qa, sandbox, got '" + id + "'");
  }
}
