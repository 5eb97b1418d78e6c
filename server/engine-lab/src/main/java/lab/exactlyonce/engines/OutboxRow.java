package lab.exactlyonce.engines;

/** A row of the outbox table: its id is the message id every copy of the event carries ("m" and the id). */
record OutboxRow(int id, String order, int amount) {
  String messageId() {
    return "m" + id;
  }
}
