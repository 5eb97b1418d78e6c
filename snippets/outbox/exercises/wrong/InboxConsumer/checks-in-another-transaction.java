// Wrong: checks the inbox in one transaction, charges in a second and records the event in a third. A crash between
// Wrong: the charge and the inbox row, or a second consumer between the check and the charge, charges the order again.
// Fails: crash after o2's transaction commits, before its offset is committed; a new consumer polls o2 again | order o2 charged twice: the inbox was checked in one transaction and the charge committed in another
// Fails: rebalance while o2's transaction is open: a second consumer handles o2 before the first one commits | order o2 charged twice: the inbox was checked in one transaction and the charge committed in another
class PaymentConsumer implements MessageHandler {
    static final long REDELIVERY_HORIZON_SECONDS = 600;
    private final Database db;

    PaymentConsumer(Database db) {
        this.db = db;
    }

    public void handle(Message message) {
        boolean[] seen = new boolean[1];
        db.inTransaction(tx -> seen[0] = tx.inbox().contains(message.eventId()));
        if (seen[0]) return;
        db.inTransaction(tx -> tx.charges().insert(message.order(), message.amount()));
        db.inTransaction(tx -> {
            tx.inbox().deleteReceivedBefore(tx.now() - REDELIVERY_HORIZON_SECONDS);
            tx.inbox().insert(message.eventId());
        });
    }
}
