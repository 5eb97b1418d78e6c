package lab.exactlyonce.store;

/**
 * Short text messages every app node on the same database hears, in the order they were sent: what keeps live pages
 * on several nodes in step. On PostgreSQL they travel by {@code NOTIFY}/{@code LISTEN} (a node hears its own too);
 * on the embedded database there is one node, and a message is handed to the listener before {@link #publish}
 * returns. A message is at most {@value #MAX_BYTES} bytes (PostgreSQL's limit is 8000).
 */
public interface Signals extends AutoCloseable {
  int MAX_BYTES = 7000;

  /** What hears the messages. */
  interface Listener {
    void signal(String message);

    /**
     * Messages may have been missed (the node lost its connection to the database and has it again): whatever the
     * listener keeps up to date from messages must be brought up to date from the database.
     */
    void resync();
  }

  /** Sends {@code message} to every node, this one included. */
  void publish(String message);

  /** Starts delivering messages to {@code listener}; call once, before the first {@link #publish}. */
  void listen(Listener listener);

  @Override
  void close();
}
