// Wrong: records the event in the inbox and commits that, then charges in a second transaction. A crash between the
// Wrong: two leaves the event marked as handled and never charged: the next copy is skipped.
// Fails: crash after o2's transaction commits, before its offset is committed; a new consumer polls o2 again | order o2 never charged: its message was recorded in the inbox before the charge committed
class PaymentConsumer implements MessageHandler {
    static final long REDELIVERY_HORIZON_SECONDS = 600;
    private final Database db;

    PaymentConsumer(Database db) {
        this.db = db;
    }

    public void handle(Message message) {
        boolean[] fresh = new boolean[1];
        db.inTransaction(tx -> {
            tx.inbox().deleteReceivedBefore(tx.now() - REDELIVERY_HORIZON_SECONDS);
            if (tx.inbox().contains(message.eventId())) return;
            tx.inbox().insert(message.eventId());
            fresh[0] = true;
        });
        if (fresh[0]) db.inTransaction(tx -> tx.charges().insert(message.order(), message.amount()));
    }
}
