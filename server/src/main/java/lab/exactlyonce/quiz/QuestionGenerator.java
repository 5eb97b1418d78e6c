package lab.exactlyonce.quiz;

import lab.exactlyonce.lesson.Block;
import lab.exactlyonce.lesson.DecisionFlow;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.lesson.Section;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Builds the questions a lesson's data implies, so a new lesson gets a quiz without code. Deterministic: the same
 * lesson gives the same questions, ids, options and option order every time.
 * <ul>
 *   <li>{@code questions} blocks (ladder, interview), scenario questions, trap pairs and exercises: self-graded</li>
 *   <li>{@code pairs} whose claim label is "Myth" or "Misconception": true/false (the myth is false), and the key
 *       ideas as the true statements</li>
 *   <li>a {@code table} whose first column names the options (3+ rows, distinct short names): "which one fits",
 *       described by the table's second and last columns</li>
 *   <li>{@code cards}: show a card's body, choose its title</li>
 *   <li>a {@code DecisionFlow}: order the steps along each path from the start to an end</li>
 * </ul>
 * Predict-the-output questions come from running snippets: see {@link OutputQuestions}.
 */
final class QuestionGenerator {
  private static final int MAX_OPTIONS = 4;
  private static final int MAX_OPTION_WORDS = 8;

  List<Question> generate(Lesson lesson) {
    return generate(lesson, true);
  }

  /**
   * @param recognition whether to make the kinds a lesson's written bank replaces, since a pattern answers them:
   *                    true/false from myths and key ideas, "which one fits" from tables, and card titles
   */
  List<Question> generate(Lesson lesson, boolean recognition) {
    List<Question> out = new ArrayList<>();
    for (Section section : lesson.sections()) {
      for (Block block : section.blocks()) {
        boolean replaced = block instanceof Block.Table || block instanceof Block.Cards
            || block instanceof Block.Pairs p && isMythLabel(p.claimLabel());
        if (recognition || !replaced) out.addAll(fromBlock(lesson, section, block));
      }
    }
    if (recognition) out.addAll(keyIdeas(lesson));
    for (DecisionFlow flow : lesson.flows()) out.addAll(ordering(lesson, flow));
    return List.copyOf(out);
  }

  private List<Question> fromBlock(Lesson lesson, Section section, Block block) {
    String tab = section.tab().id();
    String topic = lesson.topicOf(section, null).title();
    List<Question> out = new ArrayList<>();
    if (block instanceof Block.Questions qs) {
      for (Block.Question q : qs.items()) {
        out.add(selfGraded(lesson, q.id(), tab, lesson.topicOf(section, q.topic()).title(), q.question(), q.answer()));
      }
    } else if (block instanceof Block.Scenario sc) {
      for (Block.ScenarioQuestion q : sc.questions()) {
        out.add(new Question(lesson.id() + "/" + q.id(), lesson.id(), q.id(), Question.Kind.SELF_GRADED, topic,
            q.question(), sc.prompt(), List.of(), List.of(), q.answer(), link(lesson, tab, q.id())));
      }
    } else if (block instanceof Block.Exercise ex) {
      out.add(selfGraded(lesson, ex.id(), tab, topic, ex.prompt(), ex.answer()));
    } else if (block instanceof Block.Pairs pairs) {
      boolean myths = isMythLabel(pairs.claimLabel());
      for (Block.Pair pair : pairs.items()) {
        if (myths) {
          out.add(new Question(lesson.id() + "/" + pair.id(), lesson.id(), pair.id(), Question.Kind.TRUE_FALSE,
              topic, pair.claim(), "True or false?", List.of("True", "False"), List.of(1),
              pairs.responseLabel() + ": " + pair.response(), link(lesson, tab, pair.id())));
        } else {
          out.add(new Question(lesson.id() + "/" + pair.id(), lesson.id(), pair.id(), Question.Kind.SELF_GRADED,
              topic, pairs.claimLabel() + ": " + pair.claim(), "How do you answer it?", List.of(), List.of(),
              pair.response(), link(lesson, tab, pair.id())));
        }
      }
    } else if (block instanceof Block.Table table) {
      out.addAll(whichFits(lesson, section, table));
    } else if (block instanceof Block.Cards cards) {
      out.addAll(whichCard(lesson, section, cards));
    }
    return out;
  }

  private static Question selfGraded(Lesson lesson, String item, String tab, String topic, String prompt, String answer) {
    return new Question(lesson.id() + "/" + item, lesson.id(), item, Question.Kind.SELF_GRADED, topic, prompt, "",
        List.of(), List.of(), answer, link(lesson, tab, item));
  }

  static boolean isMythLabel(String label) {
    String l = label.toLowerCase(Locale.ROOT);
    return l.contains("myth") || l.contains("misconception");
  }

  /** Key ideas are true statements: they balance the myths, so "false" is not always the answer. */
  private static List<Question> keyIdeas(Lesson lesson) {
    boolean hasMyths = lesson.sections().stream().flatMap(s -> s.blocks().stream())
        .anyMatch(b -> b instanceof Block.Pairs p && isMythLabel(p.claimLabel()));
    if (!hasMyths) return List.of();
    List<Question> out = new ArrayList<>();
    for (Lesson.KeyIdea idea : lesson.keyIdeas()) {
      out.add(new Question(lesson.id() + "/" + idea.id(), lesson.id(), idea.id(), Question.Kind.TRUE_FALSE,
          lesson.topic(idea.topic()).title(), idea.text(), "True or false?", List.of("True", "False"), List.of(0), "True: it is one of the lesson's key ideas.",
          link(lesson, "gist", idea.id())));
    }
    return out;
  }

  /** A table whose first column names distinct, short options: ask which one a row's description fits. */
  private static List<Question> whichFits(Lesson lesson, Section section, Block.Table table) {
    List<Block.Row> rows = table.rows();
    if (rows.size() < 3 || table.columns().size() < 2) return List.of();
    Set<String> names = new HashSet<>();
    for (Block.Row row : rows) {
      String name = row.cells().get(0);
      if (name.split("\\s+").length > MAX_OPTION_WORDS || !names.add(name)) return List.of();
    }
    List<String> columns = table.columns();
    int last = columns.size() - 1;
    String tab = section.tab().id();
    List<Question> out = new ArrayList<>();
    for (int r = 0; r < rows.size(); r++) {
      Block.Row row = rows.get(r);
      String id = lesson.id() + "/" + row.id();
      StringBuilder detail = new StringBuilder(columns.get(1)).append(": ").append(row.cells().get(1));
      if (last > 1) detail.append("\n").append(columns.get(last)).append(": ").append(row.cells().get(last));
      List<String> others = new ArrayList<>();
      for (Block.Row other : rows) if (other != row) others.add(other.cells().get(0));
      Choice choice = Choice.of(id, row.cells().get(0), others);
      StringBuilder explanation = new StringBuilder(row.cells().get(0)).append(". ");
      for (int c = 1; c < columns.size(); c++) {
        explanation.append(columns.get(c)).append(": ").append(row.cells().get(c)).append(c < last ? " · " : "");
      }
      out.add(new Question(id, lesson.id(), row.id(), Question.Kind.CHOICE, lesson.topicOf(section, null).title(),
          "Which " + columns.get(0).toLowerCase(Locale.ROOT) + " fits?", detail.toString(), choice.options(),
          List.of(choice.answer()), explanation.toString(), link(lesson, tab, row.id())));
    }
    return out;
  }

  /** Cards: show the body, choose the title. */
  private static List<Question> whichCard(Lesson lesson, Section section, Block.Cards cards) {
    if (cards.items().size() < 2) return List.of();
    String tab = section.tab().id();
    String heading = cards.title() != null ? cards.title() : section.title();
    List<Question> out = new ArrayList<>();
    for (Block.Item item : cards.items()) {
      String id = lesson.id() + "/" + item.id();
      List<String> others = new ArrayList<>();
      for (Block.Item other : cards.items()) if (other != item) others.add(other.title());
      Choice choice = Choice.of(id, item.title(), others);
      out.add(new Question(id, lesson.id(), item.id(), Question.Kind.CHOICE, lesson.topicOf(section, null).title(),
          "Which of the " + heading.toLowerCase(Locale.ROOT) + " is this?", item.body(), choice.options(),
          List.of(choice.answer()), item.title() + ": " + item.body(), link(lesson, tab, item.id())));
    }
    return out;
  }

  /** One ordering question per end of the flow: the steps along the first path from the start to that end. */
  private static List<Question> ordering(Lesson lesson, DecisionFlow flow) {
    Map<String, DecisionFlow.Step> byId = new LinkedHashMap<>();
    for (DecisionFlow.Step step : flow.steps()) byId.put(step.id(), step);
    List<Question> out = new ArrayList<>();
    for (DecisionFlow.Step end : flow.steps()) {
      if (!end.next().isEmpty()) continue;
      List<DecisionFlow.Step> path = pathTo(byId, flow.start(), end.id(), new LinkedHashSet<>());
      if (path == null || path.size() < 3) continue;
      String id = lesson.id() + "/" + flow.id() + "/" + end.id();
      List<String> labels = path.stream().map(DecisionFlow.Step::label).toList();
      if (new HashSet<>(labels).size() != labels.size()) continue;
      List<Integer> shuffled = shuffledIndexes(labels.size(), id);
      List<String> options = shuffled.stream().map(labels::get).toList();
      List<Integer> answer = new ArrayList<>();
      for (int step = 0; step < labels.size(); step++) answer.add(shuffled.indexOf(step));
      StringBuilder explanation = new StringBuilder();
      for (DecisionFlow.Step step : path) explanation.append(step.number()).append(". ").append(step.label()).append("\n");
      out.add(new Question(id, lesson.id(), flow.id(), Question.Kind.ORDER, lesson.topic(flow.topic()).title(),
          "Put the steps of “" + flow.title() + "” in order, ending with “" + end.label() + "”.",
          "Choose the steps from first to last.", options, answer, explanation.toString().strip(),
          "/lessons/" + lesson.id() + "#maps/flow/" + flow.id()));
    }
    return out;
  }

  private static List<DecisionFlow.Step> pathTo(Map<String, DecisionFlow.Step> steps, String from, String to,
                                                LinkedHashSet<String> seen) {
    DecisionFlow.Step step = steps.get(from);
    if (step == null || !seen.add(from)) return null;
    if (from.equals(to)) return List.of(step);
    for (DecisionFlow.Next next : step.next()) {
      List<DecisionFlow.Step> rest = pathTo(steps, next.to(), to, seen);
      if (rest != null) {
        List<DecisionFlow.Step> path = new ArrayList<>();
        path.add(step);
        path.addAll(rest);
        return path;
      }
    }
    seen.remove(from);
    return null;
  }

  static String link(Lesson lesson, String tab, String item) {
    return "/lessons/" + lesson.id() + "#" + tab + "/" + item;
  }

  /** A permutation of 0..n-1 seeded by {@code key}, never the identity (for n > 1). */
  static List<Integer> shuffledIndexes(int n, String key) {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < n; i++) order.add(i);
    Random random = new Random(seed(key));
    Collections.shuffle(order, random);
    if (n > 1 && isIdentity(order)) Collections.rotate(order, 1);
    return order;
  }

  private static boolean isIdentity(List<Integer> order) {
    for (int i = 0; i < order.size(); i++) if (order.get(i) != i) return false;
    return true;
  }

  static long seed(String key) {
    long h = 1125899906842597L;
    for (int i = 0; i < key.length(); i++) h = 31 * h + key.charAt(i);
    return h;
  }

  /** The right option among up to three others, picked and ordered by a seed from the question id. */
  record Choice(List<String> options, int answer) {
    static Choice of(String questionId, String right, List<String> wrong) {
      List<String> distractors = new ArrayList<>(new LinkedHashSet<>(wrong));
      distractors.remove(right);
      Collections.shuffle(distractors, new Random(seed(questionId + "#distractors")));
      List<String> options = new ArrayList<>();
      options.add(right);
      options.addAll(distractors.subList(0, Math.min(MAX_OPTIONS - 1, distractors.size())));
      Collections.shuffle(options, new Random(seed(questionId + "#options")));
      return new Choice(List.copyOf(options), options.indexOf(right));
    }
  }
}
