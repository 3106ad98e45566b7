package io.spool.perf.lab;

import io.spool.api.log.DedupKey;
import io.spool.api.queue.RedriveResult;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.ConsumerRecord;
import io.spool.queue.DeathHistory;
import io.spool.queue.Delivery;
import io.spool.queue.Redriver;
import io.spool.queue.Subscription;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * SQS's maxReceiveCount and redrive on Spool: a message received three times and never deleted moves to the
 * dead-letter topic; after the fix, a redrive moves it back to its subscription with its id, once.
 * Thread-safe (stateless).
 */
public final class RedriveLab implements Lab
{
    private static final long LOCK_MILLIS = 1_000;
    /** SQS counts receives, Spool redeliveries: maxReceiveCount 3 is a delivery limit of 2. */
    private static final int DELIVERY_LIMIT = 2;
    private static final int MAX_ROUNDS = 10;

    @Override
    public String name()
    {
        return "redrive";
    }

    @Override
    public String summary()
    {
        return "maxReceiveCount 3: a message never deleted moves to the dead-letter topic, then is redriven once";
    }

    @Override
    public LabTable run(final Path dir)
    {
        try (LabEngine lab = new LabEngine(dir))
        {
            lab.createTopic("invoices");
            lab.createTopic("invoices.dlq");
            final Subscription invoices = lab.spool().createSubscription("invoices", "invoices",
                SubscriptionSettings.builder().lockTimeoutMillis(LOCK_MILLIS).deliveryLimit(DELIVERY_LIMIT)
                    .deadLetterTopic("invoices.dlq").build());
            lab.publish("invoices", "invoice-42", Map.of(DedupKey.HEADER, "invoice-42"));

            // a consumer that crashes on this message: it receives, never deletes, the lock runs out
            int receives = 0;
            while (receives < MAX_ROUNDS && !invoices.receive(1, 0).isEmpty())
            {
                receives++;
                lab.advanceTo(lab.now() + LOCK_MILLIS, invoices);
            }
            final ConsumerRecord dead = lab.awaitRecords("invoices.dlq", 1).get(0);

            // the consumer is fixed: move the dead letters back, then try again from where the first redrive stopped
            final RedriveResult redrive = lab.spool().redriver().redriveAll("invoices.dlq");
            final List<Delivery> again = invoices.receive(10, 0);
            final Delivery back = again.get(0);
            invoices.ack(back.receipt());
            final RedriveResult secondRedrive = lab.spool().redriver()
                .redrive("invoices.dlq", redrive.nextOffset()[0], Long.MAX_VALUE);

            return new LabTable("redrive: maxReceiveCount, the dead-letter topic and back",
                "one message; lock " + LabEngine.seconds(LOCK_MILLIS) + "; delivery limit " + DELIVERY_LIMIT +
                    " (maxReceiveCount 3); a consumer receives it and never acks; virtual time")
                .row("receives before it moved to the dead-letter topic", receives,
                    LabTable.measured(LabTable.ELASTICMQ, "3 (moved at 3.3 s)"))
                .row("dead letter: reason, deliveries", LabEngine.header(dead, DeathHistory.REASON) + ", " +
                    LabEngine.header(dead, DeathHistory.DELIVERIES), "SQS docs: moved to the DLQ")
                .row("redrive all: moved", redrive.moved(), "SQS docs: redrive moves them back to the source queue")
                .row("after redrive: received again", again.size() + ", " + back.valueAsString(), "SQS docs: 1")
                .row("after redrive: message id (dedup id) kept", back.header(DedupKey.HEADER), "SQS docs: yes")
                .row("after redrive: read from", back.header(Redriver.REDRIVEN_FROM), "-")
                .row("redrive again from where the first stopped: moved", secondRedrive.moved(),
                    "SQS docs: 0, the DLQ is empty after a redrive")
                .note("The dead-letter topic is a log: redriving leaves the dead letter there, and the offset a redrive")
                .note("returns is where the next one starts, so each dead letter goes back once.");
        }
    }
}
