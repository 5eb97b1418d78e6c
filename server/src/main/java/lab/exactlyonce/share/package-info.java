/**
 * Short share links, as the Go Playground has them: a learner's edited code kept on the server under a short id.
 *
 * <h2>HTTP</h2>
 * <ul>
 *   <li>{@code POST /api/shares} {@code {"source": "...", "snippet": "<snippet id, optional>"}} (JSON; the source at
 *   most the sandbox's source limit, {@code --sandbox-max-source-bytes}) answers 200 {@code {"id", "url": "/s/<id>"}}.
 *   The id is random ({@code ShareIds}: 12 base64url characters, 72 bits), never derived from the code. Bad input is
 *   400 (a missing or blank source, an unknown field or snippet), 413 too large, 415 not JSON, 403 cross-site
 *   ({@code web.SameOriginGuard}), and 429 with {@code Retry-After} past a learner's
 *   {@code ShareRoutes.PER_LEARNER_PER_MINUTE} or a network's {@code --share-limit-per-address} links a minute
 *   ({@code web.FairLimit}), or when the links together hold {@code --share-storage-mb} of code.</li>
 *   <li>{@code GET /api/shares/{id}}: {@code {"id", "snippet", "source", "url", "knobs"}} (snippet null when none was
 *   named; knobs the value the code sets for each knob of the editor it opens in, read from the code itself), 404 for
 *   an unknown id.</li>
 *   <li>{@code GET /s/{id}}: 303 to the snippet's lesson page, {@code #sandbox/<snippet>?share=<id>}, where
 *   {@code sandbox.js} fetches the code into that editor and the knob fields follow the code ({@code knobs.js}); an
 *   unknown id is a 404 page.</li>
 * </ul>
 *
 * <h2>Storage</h2>
 * The {@code shares} table (migrations V40 to V49, see {@code store}). A link nobody opened for
 * {@code --share-expiry-days} is gone; links are removed that way, oldest first, whenever a new one is made. A share holds no learner id or cookie and
 * nothing about who made it: it is not personal data, so it implements no {@code learner.LearnerData}, a learner's
 * export does not list it and forget-me leaves it, as a link handed to others must keep working.
 */
package lab.exactlyonce.share;
