// Wrong: one transaction, keyed by the event id, but nothing is ever deleted: the inbox grows with every event, long
// Wrong: after any copy of it could come.
// Fails: e5 comes at t=1230, more than twice the redelivery horizon after e1, e2 and e3 | the inbox still holds e1, e2, e3 at t=1230, more than twice the redelivery horizon (600 s) after they were received
class PaymentConsumer implements MessageHandler {
    private final Database db;

    PaymentConsumer(Database db) {
        this.db = db;
    }

    public void handle(Message message) {
        db.inTransaction(tx -> {
            if (tx.inbox().contains(message.eventId())) return;
            tx.inbox().insert(message.eventId());
            tx.charges().insert(message.order(), message.amount());
        });
    }
}
