package lab.exactlyonce.classroom;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The classroom's start-up options. An empty {@code instructorSecret} means: use the one generated into the data
 * directory (made and printed on the first start).
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

  /** Flag name to environment variable name, merged into the app's option table. */
  public static final Map<String, String> FLAGS = flags();

  private static Map<String, String> flags() {
    var flags = new LinkedHashMap<String, String>();
    flags.put("--instructor-secret", "INSTRUCTOR_SECRET");
    flags.put("--join-limit-per-address", "JOIN_LIMIT_PER_ADDRESS");
    flags.put("--join-limit-per-class", "JOIN_LIMIT_PER_CLASS");
    flags.put("--answer-limit-per-student", "ANSWER_LIMIT_PER_STUDENT");
    return Collections.unmodifiableMap(flags);
  }

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
    return new ClassroomSettings(Optional.empty(), 300, 600, 60);
  }

  public ClassroomSettings withInstructorSecret(String secret) {
    return new ClassroomSettings(Optional.of(secret), joinsPerMinutePerAddress, joinsPerMinutePerClass, answersPerMinutePerStudent);
  }

  public ClassroomSettings withLimits(int perAddress, int perClass, int answers) {
    return new ClassroomSettings(instructorSecret, perAddress, perClass, answers);
  }

  public static ClassroomSettings from(Function<String, Optional<String>> option) {
    ClassroomSettings d = defaults();
    return new ClassroomSettings(option.apply("--instructor-secret"),
        number(option, "--join-limit-per-address", d.joinsPerMinutePerAddress()),
        number(option, "--join-limit-per-class", d.joinsPerMinutePerClass()),
        number(option, "--answer-limit-per-student", d.answersPerMinutePerStudent()));
  }

  private static int number(Function<String, Optional<String>> option, String flag, int fallback) {
    return option.apply(flag).map(v -> {
      try {
        return Integer.parseInt(v.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(flag + " must be a number, got '" + v + "'");
      }
    }).orElse(fallback);
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
