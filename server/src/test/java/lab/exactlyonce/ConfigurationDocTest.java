package lab.exactlyonce;

import lab.exactlyonce.option.Option;
import lab.exactlyonce.option.OptionTable;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The configuration reference cannot drift from the code: {@code docs/configuration.md}'s table is what the
 * declared options render, every option the settings read is declared (so the command line accepts it) and every
 * declared one is read (so a value given is never ignored), and each declared default is the value the app uses.
 */
class ConfigurationDocTest {
  static final Path DOC = Path.of("docs/configuration.md");
  static final String BEGIN = "<!-- options:begin (rendered from the option declarations; ConfigurationDocTest) -->\n";
  static final String END = "<!-- options:end -->";

  @Test
  void the_documented_table_is_what_the_declared_options_render() throws IOException {
    String doc = Files.readString(DOC);
    int begin = doc.indexOf(BEGIN);
    int end = doc.indexOf(END);
    assertTrue(begin >= 0 && end > begin, DOC + " must hold the option table between the lines " + BEGIN.strip()
        + " and " + END);
    String documented = doc.substring(begin + BEGIN.length(), end);
    String rendered = OptionTable.markdown(Config.OPTIONS);
    if (!documented.equals(rendered)) {
      fail(DOC + "'s option table differs from the options the code declares (each *Settings record's OPTIONS and "
          + "Config's own); first difference at line " + firstDifferentLine(documented, rendered)
          + ". The table the declarations render, to paste between the markers:\n\n" + rendered);
    }
  }

  @Test
  void every_option_read_is_declared_and_every_declared_option_is_read() {
    Set<Option> read = new LinkedHashSet<>();
    Config.read(option -> {
      read.add(option);
      return Optional.empty();
    });
    Set<Option> declared = new LinkedHashSet<>(Config.OPTIONS);
    Set<Option> undeclared = new LinkedHashSet<>(read);
    undeclared.removeAll(declared);
    Set<Option> unread = new LinkedHashSet<>(declared);
    unread.removeAll(read);
    assertEquals(List.of(), flags(undeclared), "options the settings read but Config.OPTIONS does not declare (the"
        + " command line refuses them and the reference leaves them out)");
    assertEquals(List.of(), flags(unread), "options declared in Config.OPTIONS that no settings read (a value given"
        + " would be accepted and ignored)");
    assertEquals(Config.OPTIONS.size(), new HashSet<>(flags(declared)).size(), "a flag is declared twice");
  }

  @Test
  void each_declared_default_is_the_value_the_app_uses_without_one() {
    Config withoutValues = Config.read(option -> Optional.empty());
    for (Option option : Config.OPTIONS) {
      option.defaultValue().ifPresent(value -> assertEquals(withoutValues,
          Config.read(o -> o.equals(option) ? Optional.of(value) : Optional.empty()),
          option.flag() + " " + value + " (its declared default) configures another app than no value does"));
    }
  }

  @Test
  void help_explains_each_option_with_its_variable_default_and_accepted_values() {
    String help = Config.help();
    assertTrue(help.contains("  --port (PORT), default 7070\n      HTTP port (0 picks a free one)\n"
        + "      accepts: 0 to 65535\n"), help);
    for (Option option : Config.OPTIONS) {
      assertTrue(help.contains("  " + option.flag() + " (" + option.env() + "), default "), option.flag());
    }
  }

  @Test
  void an_unknown_flag_is_refused_with_the_known_ones() {
    var refused = assertThrows(Config.ConfigException.class,
        () -> Config.from(new String[] {"--prot", "80"}, Map.of()));
    assertTrue(refused.getMessage().startsWith("unknown option '--prot'; known options: --port, --host, --data-dir"),
        refused.getMessage());
    assertTrue(refused.getMessage().endsWith("(--help explains each)"), refused.getMessage());
  }

  private static List<String> flags(Set<Option> options) {
    return options.stream().map(Option::flag).toList();
  }

  private static int firstDifferentLine(String documented, String rendered) {
    String[] a = documented.split("\n", -1);
    String[] b = rendered.split("\n", -1);
    int line = 0;
    while (line < a.length && line < b.length && a[line].equals(b[line])) line++;
    return line + 1;
  }
}
