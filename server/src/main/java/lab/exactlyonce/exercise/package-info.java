/**
 * Fix-the-sink exercises: a starter class the learner completes, checked by a trusted harness the server appends
 * ({@code ExerciseChecks}), which runs the learner's class under many crash points in the sandbox and reports
 * domain verdicts per scenario ({@code Verdicts}). {@code ExerciseRoutes} serves them over HTTP and records each
 * check the server ran as the learner's {@code exercise.check} event, exactly once per attempt id ({@code CheckLog});
 * progress and the quiz derive from those, never from a client's claim. {@code ExerciseViews} draws the exercises on
 * the lesson page. {@code ExerciseStarters} hands the starters and their checks to the quiz, which asks which
 * verdict each starter gets.
 */
package lab.exactlyonce.exercise;
