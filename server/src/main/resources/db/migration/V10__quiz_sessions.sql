-- Quiz sessions (quiz feature). Portable SQL: H2 2.x and PostgreSQL 12+. A session is the plan of one quiz: its
-- questions in order, fixed when it starts. Answers are quiz.answer rows in events; scores are derived from them.
CREATE TABLE quiz_sessions (
    id                   VARCHAR(36)              NOT NULL,
    learner_id           VARCHAR(36)              NOT NULL,
    lesson               VARCHAR(100)             NOT NULL,
    mode                 VARCHAR(16)              NOT NULL,
    seed                 BIGINT                   NOT NULL,
    seconds_per_question INTEGER                  NOT NULL,
    questions            VARCHAR(16000)           NOT NULL,
    created_at           TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT quiz_sessions_pk PRIMARY KEY (id),
    CONSTRAINT quiz_sessions_learner_fk FOREIGN KEY (learner_id) REFERENCES learners (id) ON DELETE CASCADE
);

CREATE INDEX quiz_sessions_by_learner ON quiz_sessions (learner_id, created_at);
