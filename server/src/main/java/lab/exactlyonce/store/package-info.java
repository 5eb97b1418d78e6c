/**
 * Storage shared by the features that remember learners: one {@link lab.exactlyonce.store.Database} (HikariCP
 * over H2 by default, PostgreSQL by JDBC URL), its schema migrated by Flyway from
 * {@code server/src/main/resources/db/migration}. Migration numbers: the progress feature (learners, events) owns
 * V1 to V9; the quiz feature starts at V10, the classroom at V20, the share links at V40; V30 to V39 are changes
 * across features (such as the events' unique {@code fact} key), written as Java migrations in {@code db.migration}
 * where existing rows must be read to be migrated. Flyway refuses a version below the newest one applied, so a later
 * change to a feature's tables takes the next number above all of them (the classroom's round deadlines are V41, the shared signing keys and sign-outs V42). SQL stays portable: standard types, plain INSERT/SELECT/UPDATE/DELETE,
 * duplicate keys detected by SQLState 23505 (never by H2-only MERGE or PostgreSQL-only ON CONFLICT). Statements run
 * through {@link lab.exactlyonce.store.Sql} (bind, execute, map rows) inside {@link lab.exactlyonce.store.Database#inTransaction}.
 */
package lab.exactlyonce.store;
