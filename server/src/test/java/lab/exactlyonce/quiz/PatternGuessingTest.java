package lab.exactlyonce.quiz;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A candidate who knows nothing but answers by pattern scores no better than a blind guess on each bundled lesson's
 * quiz. "No better" allows one standard deviation of guessing above its expected score, so that chance alone does
 * not fail the test; a real pattern beats that by far (every key idea true scored all of them before).
 */
class PatternGuessingTest {
  /** A strategy scores each option of a question; the best-scoring ones are its guess (a tie is split evenly). */
  private static void noBetterThanChance(QuestionBankLintTest.Linted bank, String strategy, Predicate<Question> asked, Function<Question, List<Integer>> score) {
    double expected = 0;
    double variance = 0;
    double got = 0;
    int n = 0;
    for (Question q : bank.questions()) {
      if (q.selfGraded() || q.kind() == Question.Kind.ORDER || !asked.test(q)) continue;
      double p = 1.0 / q.options().size();
      expected += p;
      variance += p * (1 - p);
      List<Integer> scores = score.apply(q);
      int best = scores.stream().mapToInt(Integer::intValue).max().orElse(0);
      long ties = scores.stream().filter(s -> s == best).count();
      if (scores.get(q.answer().get(0)) == best) got += 1.0 / ties;
      n++;
    }
    assertTrue(n >= 3, strategy + ": only " + n + " questions to try it on");
    double limit = expected + Math.sqrt(variance);
    assertTrue(got <= limit, strategy + " scored " + got + " of " + n + "; a blind guess expects " + expected
        + " (limit " + limit + ")");
  }

  private static QuestionBankLintTest.Linted bank(String lesson) {
    return QuestionBankLintTest.load(Path.of("lessons"), Path.of("snippets"), lesson);
  }

  private static String kind(QuestionBankLintTest.Linted bank, Question q) {
    return bank.context().itemKind().apply(q);
  }

  @ParameterizedTest
  @MethodSource("lab.exactlyonce.quiz.QuestionBankLintTest#bundledLessons")
  void always_true_for_key_ideas(String lesson) {
    QuestionBankLintTest.Linted bank = bank(lesson);
    noBetterThanChance(bank, "always True for key ideas", q -> q.kind() == Question.Kind.TRUE_FALSE && kind(bank, q).equals("key idea"),
        q -> List.of(1, 0));
  }

  @ParameterizedTest
  @MethodSource("lab.exactlyonce.quiz.QuestionBankLintTest#bundledLessons")
  void always_false_for_misconceptions(String lesson) {
    QuestionBankLintTest.Linted bank = bank(lesson);
    noBetterThanChance(bank, "always False for misconceptions",
        q -> q.kind() == Question.Kind.TRUE_FALSE && kind(bank, q).equals("misconception"), q -> List.of(0, 1));
  }

  @ParameterizedTest
  @MethodSource("lab.exactlyonce.quiz.QuestionBankLintTest#bundledLessons")
  void always_true_or_always_false(String lesson) {
    QuestionBankLintTest.Linted bank = bank(lesson);
    noBetterThanChance(bank, "always True", q -> q.kind() == Question.Kind.TRUE_FALSE, q -> List.of(1, 0));
    noBetterThanChance(bank, "always False", q -> q.kind() == Question.Kind.TRUE_FALSE, q -> List.of(0, 1));
  }

  @ParameterizedTest
  @MethodSource("lab.exactlyonce.quiz.QuestionBankLintTest#bundledLessons")
  void the_option_sharing_most_words_with_the_prompt_and_its_detail(String lesson) {
    QuestionBankLintTest.Linted bank = bank(lesson);
    noBetterThanChance(bank, "most words shared with the prompt", q -> q.kind() != Question.Kind.TRUE_FALSE, q -> {
      Set<String> shown = BankLinter.stems(q.prompt() + " " + q.detail() + " " + q.topic());
      List<Integer> scores = new ArrayList<>();
      for (String option : q.options()) {
        Set<String> words = BankLinter.stems(option);
        words.retainAll(shown);
        scores.add(words.size());
      }
      return scores;
    });
  }

  @ParameterizedTest
  @MethodSource("lab.exactlyonce.quiz.QuestionBankLintTest#bundledLessons")
  void the_longest_option(String lesson) {
    QuestionBankLintTest.Linted bank = bank(lesson);
    noBetterThanChance(bank, "the longest option", q -> q.kind() != Question.Kind.TRUE_FALSE,
        q -> q.options().stream().map(String::length).toList());
  }

  @ParameterizedTest
  @MethodSource("lab.exactlyonce.quiz.QuestionBankLintTest#bundledLessons")
  void the_shortest_option(String lesson) {
    QuestionBankLintTest.Linted bank = bank(lesson);
    noBetterThanChance(bank, "the shortest option", q -> q.kind() != Question.Kind.TRUE_FALSE,
        q -> q.options().stream().map(o -> -o.length()).toList());
  }
}
