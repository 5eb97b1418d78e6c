-- Who is online in a live class, on whichever node their stream is open: one row per class, student and node, kept
-- fresh by that node's heartbeat. A node that died stops refreshing its rows, and they stop counting.
CREATE TABLE class_presence (
    class_id   VARCHAR(36)              NOT NULL,
    learner_id VARCHAR(36)              NOT NULL,
    node_id    VARCHAR(36)              NOT NULL,
    seen_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT class_presence_pk PRIMARY KEY (class_id, learner_id, node_id),
    CONSTRAINT class_presence_class_fk FOREIGN KEY (class_id) REFERENCES classes (id) ON DELETE CASCADE,
    CONSTRAINT class_presence_learner_fk FOREIGN KEY (learner_id) REFERENCES learners (id) ON DELETE CASCADE
);
CREATE INDEX class_presence_by_node ON class_presence (node_id);
