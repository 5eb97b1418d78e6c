package lab.exactlyonce.store;

/** {@link Signals} for one node (the embedded database): a message goes straight to the listener. */
final class LocalSignals implements Signals {
  private volatile Listener listener;

  @Override
  public void publish(String message) {
    Listener l = listener;
    if (l != null) l.signal(message);
  }

  @Override
  public void listen(Listener listener) {
    this.listener = listener;
  }

  @Override
  public void close() {
    listener = null;
  }
}
