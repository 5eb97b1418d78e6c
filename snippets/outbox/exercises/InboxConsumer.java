// Id: inbox-consumer
// Title: Make the payment consumer idempotent with an inbox
// Summary: A consumer charges an order for each payment event the outbox relay publishes. The relay and the broker
// Summary: deliver at least once: a consumer restarted after a crash polls a message again, a relay that crashed
// Summary: publishes an event again at a new offset, and after a rebalance two consumers may handle one message. As
// Summary: written, every copy is charged. Keep an inbox of handled event ids, written in the same transaction as
// Summary: the charge, so that every order is charged exactly once.
import java.util.*;

// The instructions above the editor say what you are given and how the consumer loop calls you.
class PaymentConsumer implements MessageHandler {
    static final long REDELIVERY_HORIZON_SECONDS = 600;
    private final Database db;

    PaymentConsumer(Database db) {
        this.db = db;
    }

    public void handle(Message message) {
        // No inbox: nothing records that the event was handled, so every copy of it is charged again.
        db.inTransaction(tx -> tx.charges().insert(message.order(), message.amount()));
    }
}
