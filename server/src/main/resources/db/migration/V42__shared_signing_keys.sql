-- What every app node on one database must agree on, so that any node can serve any request.

-- The keys that sign cookies, by purpose ('learner-cookie', 'instructor-session'). The highest generation signs;
-- it and the one before it verify, so rotating a key logs nobody out. secret is base64.
CREATE TABLE signing_keys (
    purpose    VARCHAR(40)              NOT NULL,
    generation INT                      NOT NULL,
    secret     VARCHAR(200)             NOT NULL,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT signing_keys_pk PRIMARY KEY (purpose, generation)
);

-- Instructor sessions that were signed out (classroom feature), by their nonce, until they would have expired.
CREATE TABLE instructor_signouts (
    nonce      VARCHAR(40)              NOT NULL,
    expires_at TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT instructor_signouts_pk PRIMARY KEY (nonce)
);
