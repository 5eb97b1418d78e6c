/**
 * The classroom: an instructor hosts a class, students join with a code and a nickname, the instructor watches a live
 * dashboard, pushes live questions from the lesson's quiz bank, and holds back the ladder's answers.
 *
 * <p>{@code ClassroomRoutes} wires it: {@code InstructorRoutes} and {@code StudentRoutes} speak HTTP (their request
 * fields read by {@code ClassroomRequests}, their JSON shaped by {@code ClassroomJson}) over {@code Classroom}, the
 * service; {@code DashboardPush} keeps watching instructors' dashboards current; {@code HeldAnswers} answers the
 * lesson and quiz views' {@code AnswerHolds} questions.
 *
 * <h2>Instructor access</h2>
 * The secret comes from {@code --instructor-secret} / {@code INSTRUCTOR_SECRET}; without one, a secret is generated
 * once into {@code <data dir>/instructor-secret} (owner-only); that first start prints on stdout where the file is,
 * never the secret itself, which is never logged. {@code POST /teach/login} (form field {@code secret}) sets the signed, HttpOnly, SameSite=Strict
 * cookie {@code eolab_instructor}. Every {@code /teach/...} page without it redirects (303) to {@code /teach/login};
 * every {@code /api/teach/...} endpoint without it answers 401 {@code {"error": "instructor sign-in required ..."}}.
 *
 * <h2>Student API (what the classroom load program drives)</h2>
 * All state-changing requests need a same-origin {@code Origin} header (or {@code Sec-Fetch-Site: same-origin}),
 * exactly as {@code POST /api/events}; the learner is the learner feature's signed {@code eolab_learner} cookie
 * (created on join when missing). JSON bodies are sent with {@code Content-Type: application/json}.
 * <ul>
 *   <li>{@code POST /api/join} {@code {"code": "K7MQ2X", "nickname": "Ada"}} -> 201
 *       {@code {"class": "<class id>", "name": "...", "nickname": "Ada", "page": "/classes/<class id>",
 *       "stream": "/api/classes/<class id>/stream"}}. Joining again with the same learner returns the same
 *       membership (200). Errors: 404 unknown or closed code, 409 nickname taken (case-insensitive), 400 bad
 *       nickname (1-24 characters after trimming, no control characters), 403 removed from the class, 429 too many
 *       joins from this address or into this class (with {@code Retry-After} seconds).
 *       The HTML form is {@code GET /join?code=...} posting to {@code POST /join}.</li>
 *   <li>{@code GET /api/classes/{class}/stream}: Server-Sent Events for a member (403 otherwise, 404 no class).
 *       The student is "online" while this stream is open. Events, each with JSON data:
 *       <ul>
 *         <li>{@code question}: {@code {"round": "<round id>", "question": "<question id>", "kind": "choice" |
 *             "true-false" | "predict", "options": ["...", ...], "pushedAt": "<ISO instant>", "timeLimit": 30 | null,
 *             "remainingMs": 29950 | null, "revealed": false, "html": "<fragment>"}} (sent on connect too, when a
 *             question is open; on connect without one the stream starts with {@code idle}). The page counts down
 *             from {@code remainingMs}, never from the device's clock;</li>
 *         <li>{@code timeup}: {@code {"html"}} the round's time limit ran out: its card with the answers closed;</li>
 *         <li>{@code reveal}: {@code {"round", "answer": <right option index>, "html"}};</li>
 *         <li>{@code leaderboard}: {@code {"html"}}, rendered for each student with "(you)" on their own line and
 *             their place and points under the list: while a session runs its top ten, after it ended its podium
 *             (top three places), empty when the board is off; sent on each reveal, push and session end;
 *             {@code idle}: {@code {"html"}} (no open question);</li>
 *         <li>{@code release}: {@code {"items": ["L1", ...]}} ladder answers released (the lesson page fetches each
 *             from {@code GET /api/lessons/{lesson}/answers/{item}});</li>
 *         <li>{@code closed} / {@code removed}: {@code {"html"}}; the stream then ends.</li>
 *       </ul>
 *       The {@code html} fragments are rendered and escaped by the server; the page inserts them as they are.</li>
 *   <li>{@code POST /api/classes/{class}/answers} {@code {"id": "<client UUID>", "round": "<round id>",
 *       "choice": 0}} -> 200 {@code {"id", "round", "question", "choice", "recordedAt"}}. Recorded exactly once as
 *       a {@code quiz.answer} event through the progress feature's {@code EventLog} (the id is the event id): a
 *       resend of the same id returns the original response; the same id with another body is 409; a second
 *       answer to the same round under another id is 409 "already answered"; an answer to a round that is not
 *       open (revealed, replaced or unknown) is 409/404; from 2 s after the round's time limit (answers a phone
 *       sent in its last second are still on their way) it is 409 "time is up for this question: ..." (a resend of
 *       an answer recorded in time still gets its receipt); more than the per-student limit is 429.</li>
 *   <li>{@code GET /api/classes/{class}/standing}: the student's own place and points {@code {"session", "ended":
 *       false, "place": 1 | null, "of": 3, "points": 1875, "shared": false}} in the running session, or in the one
 *       that ended last (null place: not on the board).</li>
 *   <li>{@code GET /api/classes/{class}/state}: the current question (as the {@code question} event, rendered
 *       with this student's answer marked) or {@code {"round": null, "html"}}, for clients that reconnect.</li>
 *   <li>{@code GET /classes/{class}}: the student's class page (403 for non-members).</li>
 * </ul>
 *
 * <h2>Instructor API</h2>
 * <ul>
 *   <li>{@code GET /teach}: classes and the create form; {@code POST /api/teach/classes} {@code {"name", "lesson"}}
 *       -> 201 class JSON {@code {"id", "name", "lesson", "code", "joinLink", "qr", "closed", "students": [...]}};
 *       {@code GET /api/teach/classes}, {@code GET /api/teach/classes/{class}}.</li>
 *   <li>{@code GET /teach/classes/{class}}: the live dashboard; {@code GET /api/teach/classes/{class}/stream}: its
 *       SSE, events named for the panel they replace ({@code roster}, {@code progress}, {@code quiz},
 *       {@code sandbox}, {@code live}), data {@code {"html"}}.</li>
 *   <li>{@code GET /teach/classes/{class}/projector[?counts=live]}: projector mode, the room's screen;
 *       {@code GET /api/teach/classes/{class}/projector/stream[?counts=live]}: its SSE, only {@code live} events
 *       {@code {"html"}} drawn for the room: how many answered but not which way until the reveal (unless
 *       {@code counts=live}). The dashboard's own {@code live} panel keeps its histogram filling as answers come.</li>
 *   <li>{@code GET /teach/classes/{class}/qr.svg}; {@code GET /teach/classes/{class}/results.csv}.</li>
 *   <li>{@code POST /api/teach/classes/{class}/code} (rotate), {@code POST .../close},
 *       {@code DELETE .../students/{learner}}.</li>
 *   <li>Live questions: {@code GET .../questions} (the bank's choice/true-false/predict questions),
 *       {@code POST .../live/push} {@code {"question": "<id>", "timeLimit": 30}} (starts a live session when none is
 *       running; {@code timeLimit} is optional, whole seconds from 5 to 600, answers after it are refused) -> {@code
 *       {"round", "question", "session", "pushedAt", "deadline": "<ISO instant>" | null}},
 *       {@code POST .../live/next} {@code {"timeLimit": 30}} (optional; the last question's limit when left out)
 *       pushes the first question not asked in this class yet after the last one asked, in the picker's order (409
 *       once every question was asked) -> as push,
 *       {@code POST .../live/reveal}, {@code POST .../live/leaderboard} {@code {"show": true, "anonymous": false}},
 *       {@code POST .../live/end}.</li>
 *   <li>Holds: {@code PUT .../holds} {@code {"held": ["L1", "L2"]}} holds those ladder answers back for members
 *       -> {@code {"held": [...], "released": [...]}}; released items go to members as a {@code release} event. A
 *       held answer is held wherever the lesson and quiz show it: the ladder, the interview questions that rephrase
 *       it, the lesson JSON, quiz pages, quiz results and the {@code quiz.answer} feedback.</li>
 * </ul>
 *
 * <h2>Live sessions and the game</h2>
 * A live session runs from the first question pushed while none runs until End session (or the class closing);
 * the rounds it pushed are its own. Its board ranks the students in it: online now, or who answered one of its
 * revealed questions; a classmate who joined once and left is neither ranked nor counted ("2 of 3 students present
 * answered" counts those online or who answered the round). A right answer earns {@code Points}: Kahoot's
 * {@code round(1000 * (1 - (responseTime / timeLimit) / 2))}, the full 1000 without a limit, 0 for a wrong one.
 * Equal points share a place (1, 1, 3). After End session the podium (top three places) stays on the dashboard and
 * the students' pages until the next push starts a new session, whose board starts clean. The board, the podium and
 * the dashboard's copy of them show while the instructor shows the leaderboard; a student's own standing is always
 * theirs to ask for. The results CSV has each live answer's response time, the time limit and its points.
 *
 * <h2>Limits and hooks</h2>
 * {@code --join-limit-per-address} (60/min), {@code --join-limit-per-class} (600/min) and
 * {@code --answer-limit-per-student} (60/min) are token buckets (a load program joining 300 students from one
 * address raises the first). Wrong sign-in secrets: 10 per minute per browser that signed in before, 10 per address
 * and 30 in all (see {@code SignInThrottle}). {@code ClassroomRoutes} takes a
 * {@code Consumer<SseClient>} told of every stream before {@code keepAlive()} (ops' {@code LiveStreams::add}).
 */
package lab.exactlyonce.classroom;
