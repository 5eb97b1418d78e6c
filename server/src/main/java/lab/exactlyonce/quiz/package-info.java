/**
 * Quiz mode: questions written for a lesson or generated from its data, answered as {@code quiz.answer} events,
 * scheduled with FSRS-6.
 *
 * <ul>
 *   <li>{@link lab.exactlyonce.quiz.WrittenQuestions} reads a lesson's written bank ({@code questions.yaml}) at
 *   start; {@link lab.exactlyonce.quiz.QuestionGenerator} turns blocks, key ideas and flows into questions (without
 *   the kinds a written bank replaces);
 *   {@link lab.exactlyonce.quiz.OutputQuestions} runs each snippet with its {@code static final} constants varied
 *   and asks what a line printed (the answer is the real output); {@link lab.exactlyonce.quiz.VerdictQuestions}
 *   runs each fix-the-sink exercise's starter through its checker ({@link lab.exactlyonce.quiz.StarterChecks},
 *   implemented by the exercise feature) and asks which verdict it reports (id {@code <lesson>/<exercise>/verdict}).
 *   Both kinds are built on a lesson's first quiz request and their runs are kept in one
 *   {@link lab.exactlyonce.quiz.RunCache} (by the SHA-256 of what ran, under {@code <data dir>/quiz-outputs/}).
 *   {@link lab.exactlyonce.quiz.QuestionBank} holds them all; ids are {@code <lesson>/<item>[/<variant>]}.
 *   {@link lab.exactlyonce.quiz.RecordedRuns} reads what the engine lab's real Kafka and Flink gave
 *   ({@code real-runs.yaml}) at start, and {@link lab.exactlyonce.quiz.RealRunQuestions} asks about those figures
 *   without running the engines (the engine lab's {@code EngineLabIT} runs every entry again).
 *   {@code lessons/SCHEMA.md} tells authors which data becomes which question.</li>
 *   <li>{@link lab.exactlyonce.quiz.Quiz} starts sessions (due first, then new in seeded order, then later), checks
 *   and grades answers, and derives schedules and results from the stored events; nothing is counted in place.
 *   Sessions are rows in {@code quiz_sessions} (migration V10); answers are rows in the progress feature's
 *   {@code events}, graded once per client id (the {@code result} of the event), so a retry gets the original
 *   verdict.</li>
 *   <li>{@link lab.exactlyonce.quiz.Fsrs} is FSRS-6 with py-fsrs 6 defaults (one learning step in the quiz, so a
 *   right answer is not due again today); each rating button and each answer's feedback says how long until the
 *   question comes back, as the scheduler has it ({@link lab.exactlyonce.quiz.Interval}: "1 min", "2 days"), and so
 *   do the lesson page's ladder rating buttons ({@code GET /api/quiz/lessons/{id}/intervals}); the entry page counts
 *   new, due and learned questions and says why the bank grows; the home and lesson pages show the reviews due with
 *   a button to review exactly those, and the results page offers a review of exactly the session's misses
 *   ({@link lab.exactlyonce.quiz.Reviews}, shown through {@link lab.exactlyonce.quiz.QuizFeature#dueReviews()}). A
 *   self-graded answer is the learner's rating and never counts as right in a score: results list it apart. A
 *   card's state is replayed from the learner's ratings (quiz answers, the lesson page's self-ratings of the same
 *   items, and {@code exercise.check} events: a failed check of an exercise is Again for its verdict question, a
 *   passed one Good).</li>
 *   <li>{@link lab.exactlyonce.quiz.QuizFeature} builds all of it for the app and hands other features the
 *   {@code quiz.answer} event type, the live bank and the sessions' learner data.
 *   {@link lab.exactlyonce.quiz.QuizRoutes} (HTTP), {@link lab.exactlyonce.quiz.QuizPages} (server-rendered pages),
 *   {@code web/js/quiz.js} (one question at a time, keyboard first, answers through {@code outbox.js}),
 *   {@code web/css/quiz.css}.</li>
 * </ul>
 */
package lab.exactlyonce.quiz;
