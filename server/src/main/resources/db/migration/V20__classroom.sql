-- The classroom (classroom feature). Portable SQL: H2 2.x and PostgreSQL 12+.

-- A class an instructor hosts on one lesson. join_code is what students type; rotating it replaces it.
-- live_session/current_round: the live question session running now (null when none); leaderboard: off, named
-- or anonymous.
CREATE TABLE classes (
    id            VARCHAR(36)              NOT NULL,
    name          VARCHAR(200)             NOT NULL,
    lesson        VARCHAR(100)             NOT NULL,
    join_code     VARCHAR(12)              NOT NULL,
    created_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    closed_at     TIMESTAMP WITH TIME ZONE,
    live_session  VARCHAR(36),
    current_round VARCHAR(36),
    leaderboard   VARCHAR(16)              NOT NULL,
    CONSTRAINT classes_pk PRIMARY KEY (id),
    CONSTRAINT classes_code_unique UNIQUE (join_code)
);

-- A student in a class. nickname_key is the trimmed, lower-cased nickname: unique in the class. A removed
-- student keeps the row (removed_at) so they cannot rejoin.
CREATE TABLE class_members (
    class_id     VARCHAR(36)              NOT NULL,
    learner_id   VARCHAR(36)              NOT NULL,
    nickname     VARCHAR(200)             NOT NULL,
    nickname_key VARCHAR(200)             NOT NULL,
    joined_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    removed_at   TIMESTAMP WITH TIME ZONE,
    CONSTRAINT class_members_pk PRIMARY KEY (class_id, learner_id),
    CONSTRAINT class_members_nickname_unique UNIQUE (class_id, nickname_key),
    CONSTRAINT class_members_class_fk FOREIGN KEY (class_id) REFERENCES classes (id) ON DELETE CASCADE,
    CONSTRAINT class_members_learner_fk FOREIGN KEY (learner_id) REFERENCES learners (id) ON DELETE CASCADE
);

CREATE INDEX class_members_by_learner ON class_members (learner_id);

-- Ladder answers held back for a class until the instructor releases them (a row per held item).
CREATE TABLE class_holds (
    class_id VARCHAR(36)  NOT NULL,
    item     VARCHAR(100) NOT NULL,
    CONSTRAINT class_holds_pk PRIMARY KEY (class_id, item),
    CONSTRAINT class_holds_class_fk FOREIGN KEY (class_id) REFERENCES classes (id) ON DELETE CASCADE
);

-- A question pushed to a class in a live session. Answers are quiz.answer rows in events whose data names the round.
CREATE TABLE class_rounds (
    id          VARCHAR(36)              NOT NULL,
    class_id    VARCHAR(36)              NOT NULL,
    session_id  VARCHAR(36)              NOT NULL,
    question_id VARCHAR(300)             NOT NULL,
    pushed_at   TIMESTAMP WITH TIME ZONE NOT NULL,
    revealed_at TIMESTAMP WITH TIME ZONE,
    CONSTRAINT class_rounds_pk PRIMARY KEY (id),
    CONSTRAINT class_rounds_class_fk FOREIGN KEY (class_id) REFERENCES classes (id) ON DELETE CASCADE
);

CREATE INDEX class_rounds_by_class ON class_rounds (class_id, pushed_at);
