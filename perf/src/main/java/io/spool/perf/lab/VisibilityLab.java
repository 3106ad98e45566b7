package io.spool.perf.lab;

import io.spool.api.queue.QueueException;
import io.spool.api.queue.Receipt;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.Delivery;
import io.spool.queue.Subscription;

import java.nio.file.Path;
import java.util.List;

/**
 * SQS's visibility timeout on Spool: a consumer takes 3 s over a message locked for 2 s, while a second consumer
 * polls every 100 ms; then the same with the lock extended every second; then the first consumer's late delete.
 * Thread-safe (stateless).
 */
public final class VisibilityLab implements Lab
{
    private static final long LOCK_MILLIS = 2_000;
    private static final long PROCESSING_MILLIS = 3_000;
    private static final long POLL_EVERY_MILLIS = 100;
    private static final long EXTEND_EVERY_MILLIS = 1_000;

    @Override
    public String name()
    {
        return "visibility";
    }

    @Override
    public String summary()
    {
        return "visibility timeout: 3 s of work under a 2 s lock, with and without extending it; the stale receipt";
    }

    private record Outcome(String secondConsumerGotItAt, String lateAck, String secondConsumersAck)
    {
    }

    @Override
    public LabTable run(final Path dir)
    {
        final Outcome plain = slowWork(dir.resolve("plain"), false);
        final Outcome extended = slowWork(dir.resolve("extended"), true);
        return new LabTable("visibility: a lock shorter than the work",
            "consumer A works " + LabEngine.seconds(PROCESSING_MILLIS) + " on a message locked for " +
                LabEngine.seconds(LOCK_MILLIS) + "; consumer B polls every " + POLL_EVERY_MILLIS + " ms; virtual time")
            .setByLab("no extension: B receives the message at", plain.secondConsumerGotItAt,
                LabTable.measured(LabTable.ELASTICMQ, "2.04-2.06 s"),
                "the " + LabEngine.seconds(LOCK_MILLIS) + " lock on the virtual clock, met at B's next poll (every " +
                    POLL_EVERY_MILLIS + " ms)")
            .row("extend every 1 s: B receives the message at", extended.secondConsumerGotItAt,
                "SQS docs: never (ChangeMessageVisibility)")
            .row("extend every 1 s: A's ack at 3 s", extended.lateAck, "SQS docs: deleted")
            .row("no extension: A's ack at 3 s with its old receipt", plain.lateAck,
                LabTable.measured(LabTable.ELASTICMQ, "ReceiptHandleIsInvalid") + "; SQS docs: \"succeeds\", not " +
                    "deleted")
            .row("no extension: B's ack after that", plain.secondConsumersAck, "SQS docs: deleted");
    }

    private static Outcome slowWork(final Path dir, final boolean extend)
    {
        try (LabEngine lab = new LabEngine(dir))
        {
            lab.createTopic("reports");
            final Subscription reports = lab.spool().createSubscription("reports", "reports",
                SubscriptionSettings.builder().lockTimeoutMillis(LOCK_MILLIS).build());
            lab.publish("reports", null, "monthly-report");
            final Receipt held = reports.receive(1, 0).get(0).receipt();
            Receipt secondConsumers = null;
            String secondConsumerGotItAt = "never";
            for (long t = POLL_EVERY_MILLIS; t <= PROCESSING_MILLIS; t += POLL_EVERY_MILLIS)
            {
                lab.advanceTo(t, reports);
                if (extend && t % EXTEND_EVERY_MILLIS == 0 && t < PROCESSING_MILLIS)
                {
                    reports.extend(held, LOCK_MILLIS);
                }
                final List<Delivery> got = reports.receive(1, 0);
                if (!got.isEmpty() && secondConsumers == null)
                {
                    secondConsumers = got.get(0).receipt();
                    secondConsumerGotItAt = LabEngine.seconds(t);
                }
            }
            final String lateAck = settle(reports, held);
            final String secondConsumersAck = secondConsumers == null ? "-" : settle(reports, secondConsumers);
            return new Outcome(secondConsumerGotItAt, lateAck, secondConsumersAck);
        }
    }

    private static String settle(final Subscription subscription, final Receipt receipt)
    {
        try
        {
            subscription.ack(receipt);
            return "acked";
        }
        catch (final QueueException refused)
        {
            return "refused: " + refused.getClass().getSimpleName();
        }
    }
}
