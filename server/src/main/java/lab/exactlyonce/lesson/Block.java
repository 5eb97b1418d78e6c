package lab.exactlyonce.lesson;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.List;

/**
 * The kinds of content a section holds. {@code kind} in YAML picks the record. Every block and every item
 * inside one has an id that is unique in the lesson (progress and quizzes point at them; never rename one).
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "kind")
@JsonSubTypes({
    @JsonSubTypes.Type(value = Block.Text.class, name = "text"),
    @JsonSubTypes.Type(value = Block.Steps.class, name = "steps"),
    @JsonSubTypes.Type(value = Block.Table.class, name = "table"),
    @JsonSubTypes.Type(value = Block.Cards.class, name = "cards"),
    @JsonSubTypes.Type(value = Block.Pairs.class, name = "pairs"),
    @JsonSubTypes.Type(value = Block.Compare.class, name = "compare"),
    @JsonSubTypes.Type(value = Block.Questions.class, name = "questions"),
    @JsonSubTypes.Type(value = Block.Scenario.class, name = "scenario"),
    @JsonSubTypes.Type(value = Block.Exercise.class, name = "exercise"),
    @JsonSubTypes.Type(value = Block.Snippet.class, name = "snippet"),
    @JsonSubTypes.Type(value = Block.Note.class, name = "note"),
})
public sealed interface Block {
  String id();

  /** Paragraphs of Markdown. */
  record Text(String id, String body) implements Block {
    public Text {
      id = Checks.id(id, "id");
      body = Checks.text(body, "body");
    }
  }

  /** A numbered list of titled steps. */
  record Steps(String id, String title, List<Item> items) implements Block {
    public Steps {
      id = Checks.id(id, "id");
      title = Checks.optional(title);
      items = Checks.nonEmpty(items, "items");
    }
  }

  /** A table: {@code columns} are header labels; each row has one Markdown cell per column. */
  record Table(String id, String title, String caption, List<String> columns, List<Row> rows) implements Block {
    public Table {
      id = Checks.id(id, "id");
      title = Checks.optional(title);
      caption = Checks.optional(caption);
      columns = Checks.nonEmpty(columns, "columns");
      rows = Checks.nonEmpty(rows, "rows");
      for (Row row : rows) {
        if (row.cells().size() != columns.size()) {
          throw new IllegalArgumentException("row '" + row.id() + "' has " + row.cells().size() + " cells but the table has "
              + columns.size() + " columns");
        }
      }
    }
  }

  /** Titled cards, such as failure modes. */
  record Cards(String id, String title, List<Item> items) implements Block {
    public Cards {
      id = Checks.id(id, "id");
      title = Checks.optional(title);
      items = Checks.nonEmpty(items, "items");
    }
  }

  /** Statement and response pairs, such as misconception and correction, or trap and counter. */
  record Pairs(String id, String title, String claimLabel, String responseLabel, List<Pair> items) implements Block {
    public Pairs {
      id = Checks.id(id, "id");
      title = Checks.optional(title);
      claimLabel = Checks.text(claimLabel, "claimLabel");
      responseLabel = Checks.text(responseLabel, "responseLabel");
      items = Checks.nonEmpty(items, "items");
    }
  }

  /** The approach to prefer against the tempting alternative. */
  record Compare(String id, String title, Side prefer, Side alternative) implements Block {
    public Compare {
      id = Checks.id(id, "id");
      title = Checks.optional(title);
      if (prefer == null) throw new IllegalArgumentException("missing required field 'prefer'");
      if (alternative == null) throw new IllegalArgumentException("missing required field 'alternative'");
    }
  }

  /** Questions with model answers: a ladder (levelled, climbed in order) or interview questions. */
  record Questions(String id, String title, Style style, List<Question> items) implements Block {
    public Questions {
      id = Checks.id(id, "id");
      title = Checks.optional(title);
      if (style == null) throw new IllegalArgumentException("missing required field 'style'");
      items = Checks.nonEmpty(items, "items");
    }

    public boolean ladder() {
      return style == Style.LADDER;
    }

    /** How a questions block is climbed; {@code style} in YAML. */
    public enum Style {
      LADDER("ladder"), INTERVIEW("interview");

      private final String id;

      Style(String id) {
        this.id = id;
      }

      @JsonValue
      public String id() {
        return id;
      }

      @JsonCreator
      static Style of(String text) {
        for (Style s : values()) if (s.id.equals(text == null ? null : text.strip())) return s;
        if (text == null || text.isBlank()) throw new IllegalArgumentException("missing required field 'style'");
        throw new IllegalArgumentException("'style' must be ladder or interview, got '" + text + "'");
      }
    }
  }

  /** A design scenario: the prompt, requirement cards, assumptions, constraints and questions with model answers. */
  record Scenario(String id, String title, String prompt, List<Item> cards, List<String> failureAssumptions,
                  List<String> constraints, List<ScenarioQuestion> questions) implements Block {
    public Scenario {
      id = Checks.id(id, "id");
      title = Checks.optional(title);
      prompt = Checks.text(prompt, "prompt");
      cards = Checks.list(cards);
      failureAssumptions = Checks.list(failureAssumptions);
      constraints = Checks.list(constraints);
      questions = Checks.nonEmpty(questions, "questions");
    }
  }

  /** An exercise about a snippet's output; {@code snippet} is a snippet id of the same lesson. */
  record Exercise(String id, String title, String prompt, String snippet, String answer) implements Block {
    public Exercise {
      id = Checks.id(id, "id");
      title = Checks.optional(title);
      prompt = Checks.text(prompt, "prompt");
      snippet = Checks.id(snippet, "snippet");
      answer = Checks.text(answer, "answer");
    }
  }

  /** A runnable snippet from {@code snippets/<lesson>/}; {@code snippet} is its {@code // Id:}. */
  record Snippet(String id, String snippet, String intro) implements Block {
    public Snippet {
      id = Checks.id(id, "id");
      snippet = Checks.id(snippet, "snippet");
      intro = Checks.optional(intro);
    }
  }

  /** A titled call-out. */
  record Note(String id, String title, String body) implements Block {
    public Note {
      id = Checks.id(id, "id");
      title = Checks.text(title, "title");
      body = Checks.text(body, "body");
    }
  }

  /** A titled item with a Markdown body, used by steps, cards and scenario cards. */
  record Item(String id, String title, String body) {
    public Item {
      id = Checks.id(id, "id");
      title = Checks.text(title, "title");
      body = Checks.text(body, "body");
    }
  }

  record Row(String id, List<String> cells) {
    public Row {
      id = Checks.id(id, "id");
      cells = Checks.nonEmpty(cells, "cells");
    }
  }

  record Pair(String id, String claim, String response) {
    public Pair {
      id = Checks.id(id, "id");
      claim = Checks.text(claim, "claim");
      response = Checks.text(response, "response");
    }
  }

  record Side(String title, String summary, List<String> points) {
    public Side {
      title = Checks.text(title, "title");
      summary = Checks.text(summary, "summary");
      points = Checks.list(points);
    }
  }

  /**
   * {@code level} is the ladder rung label (L1..L7) and may be absent for interview questions; {@code rephrases} is
   * the id of the ladder question an interview question asks again in other words (its answer gives the ladder's
   * answer away), or absent.
   */
  record Question(String id, String level, String topic, String question, String answer, String rephrases)
      implements Comparable<Question> {
    public Question {
      id = Checks.id(id, "id");
      level = Checks.optional(level);
      topic = Checks.optional(topic);
      question = Checks.text(question, "question");
      answer = Checks.text(answer, "answer");
      rephrases = rephrases == null ? null : Checks.id(rephrases, "rephrases");
    }

    @Override
    public int compareTo(Question other) {
      return id.compareTo(other.id);
    }
  }

  /** {@code area} is API, Data or Architecture (free text). */
  record ScenarioQuestion(String id, String area, String question, String answer) {
    public ScenarioQuestion {
      id = Checks.id(id, "id");
      area = Checks.text(area, "area");
      question = Checks.text(question, "question");
      answer = Checks.text(answer, "answer");
    }
  }
}
