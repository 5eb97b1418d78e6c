/**
 * Fix-the-sink exercises: a starter class the learner completes, the code the exercise provides to it (the
 * interface the learner's class implements, the table or gateway it talks to) and a trusted checker. The sandbox
 * compiles and loads the three apart ({@code ExerciseChecks} hands it the learner's source and the exercise's
 * {@code CheckSpec}); the checker drives the learner's class under many crash points and reports domain verdicts per
 * scenario over the worker protocol, never through the program's output. {@code ExerciseRoutes} serves them over
 * HTTP and records each check the server ran as the learner's {@code exercise.check} event, exactly once per attempt
 * id ({@code CheckLog}); progress and the quiz derive from those, never from a client's claim. {@code ExerciseViews}
 * draws the exercises on the lesson page. {@code ExerciseStarters} hands the starters and their checks to the quiz,
 * which asks which verdict each starter gets.
 */
package lab.exactlyonce.exercise;
