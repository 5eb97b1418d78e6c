/**
 * Fix-the-sink exercises: a starter class the learner completes, checked by a trusted harness the server appends
 * ({@code ExerciseChecks}), which runs the learner's class under many crash points in the sandbox and reports
 * domain verdicts per scenario ({@code Verdicts}). {@code ExerciseRoutes} serves them over HTTP and adds the
 * {@code exercise.passed} progress event type. {@code ExerciseStarters} hands the starters and their checks to the
 * quiz, which asks which verdict each starter gets.
 */
package lab.exactlyonce.exercise;
