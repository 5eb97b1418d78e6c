package lab.exactlyonce.classroom;

import com.fasterxml.jackson.annotation.JsonValue;

/** Whether a class's students see the live leaderboard, and with their nicknames or without. */
enum Leaderboard {
  OFF("off"), NAMED("named"), ANONYMOUS("anonymous");

  /** As stored in {@code classes.leaderboard} and sent in JSON. */
  private final String id;

  Leaderboard(String id) {
    this.id = id;
  }

  @JsonValue
  String id() {
    return id;
  }

  boolean shown() {
    return this != OFF;
  }

  static Leaderboard of(boolean show, boolean anonymous) {
    return !show ? OFF : anonymous ? ANONYMOUS : NAMED;
  }

  static Leaderboard fromId(String id) {
    for (Leaderboard mode : values()) if (mode.id.equals(id)) return mode;
    throw new IllegalStateException("unknown leaderboard mode '" + id + "' in the database");
  }
}
