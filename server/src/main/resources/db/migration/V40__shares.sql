-- Share links (share feature). Portable SQL: H2 2.x and PostgreSQL 12+. A row is a shared source under its
-- content-derived id and the snippet whose editor it opens in (null: the first demo's). No learner id: a share is
-- not personal data.
CREATE TABLE shares (
    id         VARCHAR(43)              NOT NULL,
    snippet    VARCHAR(100),
    source     VARCHAR(1000000)         NOT NULL,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT shares_pk PRIMARY KEY (id)
);
