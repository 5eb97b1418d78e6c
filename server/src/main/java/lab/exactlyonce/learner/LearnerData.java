package lab.exactlyonce.learner;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * What one feature stores about a learner, so "export my data" includes it and "forget me" deletes it. App hands
 * every feature's {@code LearnerData} to {@link MeRoutes}; both calls run inside the caller's transaction.
 */
public interface LearnerData {
  /** The key of this feature's part of the export, for example {@code "events"}. */
  String name();

  /** Everything this feature holds about the learner, as a value Jackson can write. */
  Object export(Connection connection, String learnerId) throws SQLException;

  /** Deletes every row this feature holds about the learner. */
  void forget(Connection connection, String learnerId) throws SQLException;
}
