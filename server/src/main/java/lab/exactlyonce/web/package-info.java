/**
 * What every feature's HTTP side shares: reading a request, refusing it, and rendering the answer.
 *
 * <h2>Reading a request</h2>
 * A route reads a JSON body with {@link lab.exactlyonce.web.JsonRequests#read}, naming the fields it accepts, and
 * takes each field from the {@link lab.exactlyonce.web.JsonFields} it returns ({@code text}, {@code optionalText},
 * {@code integer}, {@code optionalInteger}, {@code optionalLong}, {@code optionalBool}, {@code optionalIntegers}, {@code texts},
 * {@code optionalObject}, {@code required}); an object inside the body (an event's {@code data}) is read with
 * {@link lab.exactlyonce.web.JsonFields#of}. Every problem is a 4xx in one style that names the field by its path:
 * "unknown field 'lang'; the fields are 'source', 'snippet' and 'params'", "'source' is required",
 * "'data.choice' must be a whole number, got "b"", and for the body itself 415 (not JSON), 413 (too long) and
 * 400 ("the request body is not valid JSON: ...", "the request body must be a JSON object").
 *
 * <h2>Errors: the rule for routes and services</h2>
 * The three kinds of the style guide, never mixed:
 * <ol>
 *   <li>The learner's code failed: that is data ({@code RunResult}, {@code CheckResult}), never an exception.</li>
 *   <li>A bad request throws one of Javalin's 4xx exceptions ({@code BadRequestResponse}, {@code NotFoundResponse},
 *   ...) with a message naming the culprit: "lesson 'exactly-once' has no question L9". A service (the quiz, the
 *   lesson catalog, the progress kinds) MAY throw these, since it is where the rule lives and the message is best
 *   made; what keeps a service free of HTTP is that it never sees a {@code Context}, a path or a header. A service
 *   at its capacity throws a subclass of {@link lab.exactlyonce.web.TooBusyException} (429 with
 *   {@code Retry-After}). The packages that must stay usable outside a request ({@code sandbox.engine},
 *   {@code sandbox.confinement}, {@code store}) use no Javalin at all; {@code ArchitectureTest} holds them to it.</li>
 *   <li>A bug or an outage is any other exception: logged in full, shown only as "internal error".</li>
 * </ol>
 * {@link lab.exactlyonce.web.ErrorResponses} renders all of them, in one place: JSON {@code {"error": "..."}} on API
 * paths, a short page elsewhere. No route catches an exception to build an answer itself. Messages are written as
 * lower-case fragments without a full stop; where a page shows one on its own it goes through
 * {@link lab.exactlyonce.web.Sentence}.
 *
 * <h2>Cross-site requests</h2>
 * {@link lab.exactlyonce.web.SameOriginGuard} refuses state-changing API requests from other sites; a page path that
 * takes a form post (the quiz's start form, the classroom's join) registers {@code SameOriginGuard::check} as a
 * before-handler on that path, so one rule decides everywhere.
 */
package lab.exactlyonce.web;
