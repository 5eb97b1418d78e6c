package lab.exactlyonce.rubric;

import java.util.List;

/** The whole of a {@code rubrics.yaml}: one rubric per question, in any order. */
record RubricFile(List<Rubric> rubrics) {
  RubricFile {
    if (rubrics == null || rubrics.isEmpty()) throw new IllegalArgumentException("'rubrics' needs at least one rubric");
    rubrics = List.copyOf(rubrics);
  }
}
