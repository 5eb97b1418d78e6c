package lab.exactlyonce.classroom;

import lab.exactlyonce.option.Option;
import lab.exactlyonce.option.OptionValues;

import java.util.List;
import java.util.Optional;

/**
 * The classroom's start-up options. An empty {@code instructorSecret} means: use the one generated into the data
 * directory (made on the first start, which prints where it is).
 *
 * @param joinsPerMinutePerAddress how many failed joins (a wrong class code, a refused nickname) one client address
 *     may make per minute: a class behind one NAT shares an address, and its typos must not lock it out, so this is
 *     generous; a class code has 31^6 values, so guessing one at this rate takes centuries
 * @param joinsPerMinutePerClass how many joins one class accepts per minute
 * @param answersPerMinutePerStudent how many live answers one student may send per minute
 */
public record ClassroomSettings(Optional<String> instructorSecret, int joinsPerMinutePerAddress,
                                int joinsPerMinutePerClass, int answersPerMinutePerStudent) {

  public static final int MIN_SECRET_LENGTH = 12;

  private static final Option INSTRUCTOR_SECRET = Option.withoutDefault("--instructor-secret", "INSTRUCTOR_SECRET",
      "generated into `<data dir>/instructor-secret`", "at least " + MIN_SECRET_LENGTH + " characters and about 60"
      + " bits by a conservative estimate, e.g. four unrelated words", "the instructor's sign-in secret (prefer the"
      + " environment variable)");
  private static final Option JOIN_LIMIT_PER_ADDRESS = Option.of("--join-limit-per-address", "JOIN_LIMIT_PER_ADDRESS",
      "300", "1 or more", "failed class joins (wrong code, refused nickname) per minute from one client address;"
      + " joins that work are not counted");
  private static final Option JOIN_LIMIT_PER_CLASS = Option.of("--join-limit-per-class", "JOIN_LIMIT_PER_CLASS", "600",
      "1 or more", "joins per minute into one class");
  private static final Option ANSWER_LIMIT_PER_STUDENT = Option.of("--answer-limit-per-student",
      "ANSWER_LIMIT_PER_STUDENT", "60", "1 or more", "live answers per minute from one student");

  /** The classroom's options. */
  public static final List<Option> OPTIONS = List.of(INSTRUCTOR_SECRET, JOIN_LIMIT_PER_ADDRESS, JOIN_LIMIT_PER_CLASS,
      ANSWER_LIMIT_PER_STUDENT);

  public ClassroomSettings {
    instructorSecret = instructorSecret == null ? Optional.empty() : instructorSecret.map(String::strip).filter(s -> !s.isEmpty());
    instructorSecret.ifPresent(s -> {
      if (s.length() < MIN_SECRET_LENGTH) {
        throw new IllegalArgumentException("--instructor-secret must be at least " + MIN_SECRET_LENGTH
            + " characters long, got " + s.length());
      }
      String weak = SecretStrength.problem(s);
      if (weak != null) throw new IllegalArgumentException(weak);
    });
    positive(joinsPerMinutePerAddress, "--join-limit-per-address");
    positive(joinsPerMinutePerClass, "--join-limit-per-class");
    positive(answersPerMinutePerStudent, "--answer-limit-per-student");
  }

  public static ClassroomSettings defaults() {
    return from(OptionValues.none());
  }

  public ClassroomSettings withInstructorSecret(String secret) {
    return new ClassroomSettings(Optional.of(secret), joinsPerMinutePerAddress, joinsPerMinutePerClass, answersPerMinutePerStudent);
  }

  public ClassroomSettings withLimits(int perAddress, int perClass, int answers) {
    return new ClassroomSettings(instructorSecret, perAddress, perClass, answers);
  }

  public static ClassroomSettings from(OptionValues values) {
    return new ClassroomSettings(values.given(INSTRUCTOR_SECRET), number(values, JOIN_LIMIT_PER_ADDRESS),
        number(values, JOIN_LIMIT_PER_CLASS), number(values, ANSWER_LIMIT_PER_STUDENT));
  }

  private static int number(OptionValues values, Option option) {
    String text = values.orDefault(option);
    try {
      return Integer.parseInt(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option.flag() + " must be a number, got '" + text + "'");
    }
  }

  private static void positive(int value, String flag) {
    if (value < 1) throw new IllegalArgumentException(flag + " must be at least 1, got " + value);
  }

  /** Never shows the secret. */
  @Override
  public String toString() {
    return "ClassroomSettings[instructorSecret=" + (instructorSecret.isPresent() ? "***" : "generated")
        + ", joinsPerMinutePerAddress=" + joinsPerMinutePerAddress + ", joinsPerMinutePerClass=" + joinsPerMinutePerClass
        + ", answersPerMinutePerStudent=" + answersPerMinutePerStudent + "]";
  }
}
