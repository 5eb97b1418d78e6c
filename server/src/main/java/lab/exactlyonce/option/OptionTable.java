package lab.exactlyonce.option;

import java.util.List;

/** The declared options as the reader meets them: the table in {@code docs/configuration.md} and {@code --help}. */
public final class OptionTable {
  private OptionTable() {}

  /** The Markdown table {@code docs/configuration.md} holds between its marker comments. */
  public static String markdown(List<Option> options) {
    var table = new StringBuilder("| Flag | Environment | Default | Accepted values | Meaning |\n")
        .append("|---|---|---|---|---|\n");
    for (Option o : options) {
      table.append("| `").append(o.flag()).append("` | `").append(o.env()).append("` | ").append(o.defaultShown())
          .append(" | ").append(o.accepted()).append(" | ").append(o.meaning()).append(" |\n");
    }
    return table.toString();
  }

  /** What {@code --help} prints: every option with its variable, default, accepted values and meaning. */
  public static String help(List<Option> options) {
    var help = new StringBuilder("""
        Usage: java -jar exactly-once-lab.jar [--flag value]...
        Each option may also be set by its environment variable; a flag wins over the variable, which wins over the
        default. The same list, as a table: docs/configuration.md.

        """);
    for (Option o : options) {
      help.append("  ").append(o.flag()).append(" (").append(o.env()).append("), default ")
          .append(o.defaultShown().replace("`", "")).append("\n      ").append(o.meaning().replace("`", ""))
          .append("\n      accepts: ").append(o.accepted().replace("`", "")).append('\n');
    }
    return help.toString();
  }
}
