/**
 * Study progress, recorded exactly once.
 *
 * <h2>HTTP</h2>
 * <ul>
 *   <li>{@code POST /api/events} {@code {"id": "<uuid>", "type", "lesson", "item", "data": {...}}} (JSON, at most
 *   4096 bytes) answers 200 {@code {"id", "type", "lesson", "item", "recordedAt", "result"}}. A repeat of an id by
 *   the same learner stores nothing and answers the identical original body; a repeat with a different body answers
 *   409 {@code {"error", "original"}}. Bad input is 400 (or 413 too large, 415 not JSON, 403 cross-site) with
 *   {@code {"error"}} naming the culprit, and nothing is stored, not even a new learner.</li>
 *   <li>{@code GET /api/progress/{lesson}}: {@link lab.exactlyonce.progress.Progress}, derived from the learner's
 *   events after the latest reset by {@link lab.exactlyonce.progress.Progresses}, which the classroom dashboard
 *   derives through too.</li>
 *   <li>{@code DELETE /api/progress/{lesson}}: reset. Appends a {@code progress.reset} event (never deletes), so
 *   retries of older events stay no-ops, the export keeps the history, and other features' events (quiz answers)
 *   are untouched; progress shows zero. Answers the (empty) progress.</li>
 * </ul>
 * Types and their items: {@code section.read} (section ids), {@code map.node} / {@code map.edge} (ids in the lesson's
 * maps), {@code ladder.reveal} and {@code self.rating} ({@code data.rating} 1..4 = Again/Hard/Good/Easy; ladder
 * question ids), {@code snippet.run} ({@code data.status} an {@code Outcome} id; snippet ids of the lesson's snippet
 * blocks). The exercise feature records {@code exercise.check} itself (never accepted here): progress shows each
 * exercise's checks and whether one passed, and the Sandbox tab counts passed exercises. State-changing requests must
 * come from this site ({@code web.SameOriginGuard}).
 *
 * <h2>For other features (the quiz)</h2>
 * <ul>
 *   <li>Record through {@link lab.exactlyonce.progress.EventLog#record(String, NewEvent, java.util.function.Function)}:
 *   {@code log.record(learnerId, new NewEvent(id, "quiz.answer", lesson, questionId, data), e -> grade(e))}. The
 *   function runs only for an id not stored yet; its JSON is stored with the event and returned on every retry, so a
 *   retried answer gets the same verdict. The result is {@code Stored}, {@code Replayed} (same body, the original
 *   returned) or {@code Conflict} (id reused for another body: answer 409). Validate first, so bad input stores
 *   nothing; get the learner with {@code Learners.current(ctx)} (reads) or {@code Learners.currentOrCreate(ctx)}
 *   (writes, after validation).</li>
 *   <li>What may be recorded only once whatever id it comes under (an answer to one question of a session, to one
 *   live round) is a {@link lab.exactlyonce.progress.Fact}: pass it to
 *   {@code record(learnerId, event, fact, result)} (or return it from {@code EventKind.fact}). Its key is unique in
 *   the events table, so of two racing events one is stored and the other gets {@code Taken} (answer 409 with the
 *   fact's refusal); never check "already answered?" and then insert.</li>
 *   <li>Or accept answers through {@code POST /api/events} and the browser outbox: pass an
 *   {@link lab.exactlyonce.progress.EventKind} for {@code quiz.answer} to {@link lab.exactlyonce.progress.EventRoutes}
 *   in {@code App}; its {@code validate} checks the item and data, its {@code result} grades (once per id). In the
 *   page: {@code import {record} from '/assets/js/outbox.js'; record('quiz.answer', lesson, questionId, {...})}.</li>
 *   <li>Read back with {@link lab.exactlyonce.progress.EventLog#ofType} (every {@code quiz.answer} of a learner, oldest
 *   first, each with its stored result) or {@link lab.exactlyonce.progress.EventLog#inLesson}; derive scores and
 *   schedules from them, never count in place.</li>
 *   <li>A feature with its own tables implements {@code learner.LearnerData} (export and forget-me) and is handed to
 *   {@code MeRoutes} in {@code App}; its migrations start at V10 (see {@code store}).</li>
 * </ul>
 */
package lab.exactlyonce.progress;
