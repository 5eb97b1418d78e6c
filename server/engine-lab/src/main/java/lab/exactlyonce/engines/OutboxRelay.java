package lab.exactlyonce.engines;

/**
 * Carries committed outbox rows to the payments topic, at least once: it records its progress only after
 * publishing, so a relay that dies in between publishes again, after its restart, what it had published.
 */
interface OutboxRelay extends AutoCloseable {
  /**
   * Publishes every committed row it has not recorded up to row {@code newest}; with {@code dieAfterNewest}, dies
   * right after publishing that row, before recording its progress.
   *
   * @return whether it died
   */
  boolean catchUp(int newest, boolean dieAfterNewest) throws Exception;

  /** A new relay process in place of the dead one, starting from what the dead one recorded. */
  void restart() throws Exception;

  /** What the relay had recorded as its progress when it restarted, in the lesson's words. */
  String recorded();

  /** The outbox position (the row id less one) the restarted relay reads from, as the simulation's replay counts. */
  int resumesAt();
}
