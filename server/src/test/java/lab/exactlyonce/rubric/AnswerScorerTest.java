package lab.exactlyonce.rubric;

import lab.exactlyonce.ContentFolder;
import lab.exactlyonce.lesson.Block;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.lesson.LessonCatalog;
import lab.exactlyonce.lesson.Section;
import lab.exactlyonce.snippet.SnippetCatalog;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The matcher on the bundled lesson's rubrics: fair to a candidate who knows the answer, not fooled by one who does not. */
class AnswerScorerTest {
  private static final Path LESSONS = ContentFolder.resolve(Optional.empty(), "lessons");
  private static final LessonCatalog CATALOG = LessonCatalog.load(LESSONS,
      SnippetCatalog.load(ContentFolder.resolve(Optional.empty(), "snippets"))::idsIn);
  private static final RubricCatalog RUBRICS = RubricCatalog.load(LESSONS, CATALOG);
  private static final Lesson LESSON = CATALOG.require("exactly-once");

  private static AnswerScore score(String question, String answer) {
    return RUBRICS.score("exactly-once", question, answer).orElseThrow();
  }

  private static List<String> hit(AnswerScore score) {
    return score.hit().stream().map(AnswerScore.Hit::label).toList();
  }

  @Test
  void synonyms_of_a_point_each_make_it() {
    AnswerScore score = score("L5", "The producer's transactional.id is registered with the coordinator and every "
        + "initTransactions call bumps the epoch, so writes from the paused instance are rejected.");
    assertTrue(score.scored(), score.note());
    assertEquals(List.of(), score.missed(), "all three points made");
    AnswerScore other = score("L5", "Each producer has a txn id; when a new instance starts with it the epoch goes up, "
        + "and anything the old instance sends with the previous epoch is refused by the broker.");
    assertEquals(List.of(), other.missed(), "the same points in other words: " + hit(other));
  }

  @Test
  void case_punctuation_hyphens_spaces_and_inflections_do_not_matter() {
    List<String> forms = List.of(
        "When the BARRIER arrives the sink pre-commits, and it committed once the checkpoint completed; a crash aborts it and the source replays.",
        "at the barrier the sink precommits. it commits when the checkpoint is complete, aborting on failure so the source is replayed",
        "On the barrier it will pre commit, then commit on checkpoint completion... a failure is aborted, the records replaying.");
    for (String answer : forms) {
      AnswerScore score = score("L2", answer);
      assertTrue(score.scored(), score.note());
      assertTrue(hit(score).containsAll(List.of(
          "On the barrier it pre-commits: flushed and durable, still invisible",
          "A failure aborts what was not committed",
          "The source replays from the checkpoint")), answer + " -> " + hit(score));
    }
    AnswerScore id = score("L5", "The TRANSACTIONAL_ID of the producer, which its new session bumps the epoch of, "
        + "is how the coordinator knows it.");
    assertTrue(hit(id).contains("A transactional.id registered with the transaction coordinator"), hit(id).toString());
  }

  @Test
  void a_point_not_made_is_listed_as_missed_with_the_words_that_made_the_others() {
    AnswerScore score = score("L3", "The consumers use read_committed, so they only see the records after the "
        + "transaction is committed by the job.");
    assertEquals(List.of("Readers see the output only after its transaction commits"), hit(score));
    assertEquals(List.of("The commit waits for the checkpoint to complete",
        "About one checkpoint interval, plus the time the checkpoint takes, plus the time to commit"), score.missed());
    assertEquals("read_committed", score.hit().get(0).evidence(), "the candidate's own words, as written");
    assertEquals(1, score.suggested(), "fewer than half the points: Again");
    assertEquals("You made 1 of 3 key points.", score.note());
  }

  @Test
  void the_suggestion_follows_the_share_of_points_and_never_says_easy() {
    String all = "A replayable source, a consistent snapshot of state with its offsets, and an idempotent sink.";
    assertEquals(3, score("L1", all).suggested());
    assertEquals(2, score("L1", "A replayable source and a consistent snapshot of the state, and nothing else here.")
        .suggested());
  }

  @Test
  void pasting_the_question_back_scores_nothing() {
    for (Map.Entry<String, String> q : prompts().entrySet()) {
      AnswerScore pasted = score(q.getKey(), q.getValue());
      assertFalse(pasted.scored(), q.getKey() + ": " + pasted.note());
      AnswerScore twice = score(q.getKey(), q.getValue() + " " + q.getValue() + " " + q.getValue());
      assertFalse(twice.scored(), q.getKey() + " pasted three times: " + twice.note());
      assertTrue(twice.note().startsWith("Write your answer in your own words"), twice.note());
    }
  }

  /** The prompt pasted with a vague sentence around it is scored, and makes no point of any rubric. */
  @TestFactory
  Stream<DynamicTest> no_rubric_point_is_made_by_its_question_text() {
    return prompts().entrySet().stream().map(q -> DynamicTest.dynamicTest(q.getKey(), () -> {
      AnswerScore score = score(q.getKey(), q.getValue() + " I am not sure about this one, and I would have to "
          + "think about it for a while.");
      assertTrue(score.scored(), score.note());
      assertEquals(List.of(), hit(score), "the question's words alone");
    }));
  }

  @Test
  void a_keyword_salad_is_not_scored() {
    AnswerScore salad = score("L5", "transactional.id epoch bump initTransactions reject stale epoch coordinator zombie "
        + "ProducerFencedException fencing");
    // Ten or more terms in a row with no pause and no word such as "the": a salad.
    assertFalse(salad.scored());
    assertTrue(salad.note().startsWith("That reads as a list of terms"), salad.note());
    assertEquals(List.of(), salad.hit());
    assertEquals(List.of(), salad.missed(), "no labels for an answer that was not scored");
    assertEquals(0, salad.suggested());
  }

  @Test
  void two_words_that_make_no_point_are_sent_back_but_a_terse_answer_is_scored_by_its_concepts() {
    AnswerScore two = score("L5", "No idea.");
    assertFalse(two.scored());
    assertTrue(two.note().startsWith("Write your answer in your own words"), two.note());
    AnswerScore bump = score("L5", "Epoch bump.");
    assertTrue(bump.scored(), "two words that make a point are an answer: " + bump.note());
    assertEquals(List.of("Each new session (initTransactions) bumps the id's epoch"), hit(bump));
    assertEquals(1, bump.suggested());
    assertTrue(score("sq-data", "o3 and o4.").scored(), "the scenario's question answered in its own two words");
    AnswerScore terse = score("L1", "replayable source, consistent snapshot, idempotent sink");
    assertTrue(terse.scored(), terse.note());
    assertEquals(List.of(), terse.missed(), "six words make all three points");
    assertEquals(3, terse.suggested());
  }

  @Test
  void a_misconception_in_the_right_words_cancels_the_points_it_contradicts_and_says_why() {
    AnswerScore wrong = score("L2", "Each checkpoint period has its own transaction. When the barrier arrives the sink "
        + "commits it, and once the checkpoint completes it opens the next one; a crash aborts and replays from the "
        + "checkpoint.");
    assertTrue(wrong.scored(), wrong.note());
    assertEquals(1, wrong.misconceptions().size(), wrong.misconceptions().toString());
    AnswerScore.Stated stated = wrong.misconceptions().get(0);
    assertTrue(stated.says().startsWith("The sink does not commit when the barrier reaches it"), stated.says());
    assertEquals("barrier arrives the sink commits", stated.evidence());
    assertTrue(wrong.missed().contains("It commits once the checkpoint is complete"), wrong.missed().toString());
    assertTrue(wrong.suggested() <= 2, "a misconception is never Good");
    assertTrue(wrong.note().endsWith("The answer also states a misconception: see below."), wrong.note());
  }

  @Test
  void a_right_answer_that_refutes_the_misconception_keeps_its_marks() {
    AnswerScore right = score("L2", "The sink does not commit at the barrier. At the barrier it only pre-commits: it "
        + "flushes its transaction for that checkpoint period and opens a new one. It commits once the checkpoint "
        + "completes; a failure aborts what was not committed and the source replays from the checkpoint.");
    assertEquals(List.of(), right.misconceptions());
    assertEquals(List.of(), right.missed());
    assertEquals(3, right.suggested());
  }

  @Test
  void a_negated_point_is_not_made() {
    AnswerScore negated = score("L4", "Never use an idempotent sink for keyed results; a transactional sink is never "
        + "needed for append-only output.");
    assertFalse(hit(negated).contains("Transactional: append-only output"), hit(negated).toString());
    assertFalse(hit(negated).contains("Idempotent: results have a natural key and may be overwritten"),
        hit(negated).toString());
    AnswerScore doesnt = score("fu-abort-rewind", "The abort doesn't rewind the consumer, so seek back to the last "
        + "committed offsets and reprocess those records in a new transaction, or they are lost.");
    assertEquals(List.of(), doesnt.missed(), "\"doesn't rewind\" is the point, not its negation");
  }

  @Test
  void terms_listed_one_by_one_are_a_salad_too() {
    AnswerScore listed = score("L2", "barrier, flush, commit, checkpoint complete, own transaction, abort, failure, "
        + "replay, checkpoint.");
    assertFalse(listed.scored());
    assertTrue(listed.note().startsWith("That reads as a list of terms"), listed.note());
    AnswerScore command = score("fu-stuck-lag", "A lingering transaction left open after the prefix changed pins "
        + "the LSO until the broker aborts it at transaction.timeout.ms. Confirm with kafka-transactions.sh "
        + "--bootstrap-server kafka1 describe-producers --topic out --partition 0 and abort it.");
    assertTrue(command.scored(), "a pasted command is not a salad: " + command.note());
  }

  @Test
  void contractions_with_or_without_their_apostrophe_negate_and_were_is_no_prefix() {
    AnswerScore bare = score("L3", "Writes arent slower. read_committed consumers only see data after the commit, "
        + "and the commit waits for the checkpoint to complete, so the delay is the interval plus its duration plus "
        + "the commit time.");
    assertEquals(List.of(), bare.misconceptions(), "\"arent slower\" refutes the slow-writes misconception");
    assertEquals(3, bare.suggested(), bare.missed().toString());
    AnswerScore theyre = score("L2", "Each checkpoint period's writes go into their own transaction. At the barrier "
        + "they're flushed but still invisible; they're committed once the checkpoint completes. On a crash they're "
        + "aborted, and the source replays from the checkpoint.");
    assertEquals(List.of(), theyre.missed(), "\"they're flushed\" is not \"reflushed\"");
  }

  @Test
  void what_an_answer_supposes_states_no_misconception() {
    AnswerScore right = score("fu-missed-notification", "Commit everything pending up to checkpoint 8, 7's "
        + "transaction included: a later completed checkpoint subsumes the earlier ones. If it commits only the "
        + "transaction for 8, 7's output is lost, so the state keeps every pending transaction.");
    assertEquals(List.of(), right.misconceptions());
    assertEquals(3, right.suggested(), right.missed().toString());
  }

  @Test
  void every_ladder_interview_and_scenario_question_has_key_points() {
    assertEquals(List.copyOf(prompts().keySet()), RUBRICS.questions("exactly-once").stream()
        .sorted((a, b) -> order().indexOf(a) - order().indexOf(b)).toList());
  }

  @Test
  void an_interview_question_shares_the_rubric_of_the_ladder_question_it_rephrases() {
    String answer = "Each producer session bumps the epoch of the transactional id, and the old epoch is rejected.";
    assertEquals(hit(score("L5", answer)), hit(score("iq5", answer)));
    assertEquals("iq5", score("iq5", answer).question());
  }

  @Test
  void stems_meet_simple_inflections() {
    for (String[] same : new String[][] {{"commits", "committed"}, {"committing", "commit"}, {"fencing", "fenced"},
        {"fences", "fence"}, {"retries", "retried"}, {"epochs", "epoch"}, {"ids", "id"}, {"replayed", "replays"},
        {"duplicates", "duplicated"}, {"charging", "charged"}}) {
      assertEquals(Words.stem(same[0]), Words.stem(same[1]), String.join(" / ", same));
    }
  }

  /** A rubric that the lesson's own model answer does not satisfy has drifted from the lesson (or the other way). */
  @TestFactory
  Stream<DynamicTest> each_model_answer_makes_every_point_of_its_rubric() {
    return answers().entrySet().stream().map(q -> DynamicTest.dynamicTest(q.getKey(), () -> {
      AnswerScore score = score(q.getKey(), q.getValue());
      assertTrue(score.scored(), score.note());
      assertEquals(List.of(), score.missed(), "the model answer of " + q.getKey() + " misses points");
    }));
  }

  /** Every such question's model answer, in page order. */
  private static Map<String, String> answers() {
    var answers = new LinkedHashMap<String, String>();
    for (Section section : LESSON.sections()) {
      for (Block block : section.blocks()) {
        if (block instanceof Block.Questions q) q.items().forEach(i -> answers.put(i.id(), i.answer()));
        if (block instanceof Block.Scenario s) s.questions().forEach(i -> answers.put(i.id(), i.answer()));
      }
    }
    return answers;
  }

  private static List<String> order() {
    return new ArrayList<>(prompts().keySet());
  }

  /** Every question a candidate answers in their own words, to its prompt, in page order. */
  private static Map<String, String> prompts() {
    var prompts = new LinkedHashMap<String, String>();
    for (Section section : LESSON.sections()) {
      for (Block block : section.blocks()) {
        if (block instanceof Block.Questions q) q.items().forEach(i -> prompts.put(i.id(), i.question()));
        if (block instanceof Block.Scenario s) s.questions().forEach(i -> prompts.put(i.id(), s.prompt() + " " + i.question()));
      }
    }
    return prompts;
  }
}
