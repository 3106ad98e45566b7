package io.spool.perf.lab;

import io.spool.api.queue.QueueHeaders;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.Delivery;
import io.spool.queue.Subscription;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Per-message delays without head-of-line blocking: a message due in 5 s goes first, one due in 0.5 s second, and a
 * consumer polls every 100 ms to see when each comes out; once with delays on publish, once with nack and a delay.
 * Thread-safe (stateless).
 */
public final class DelayLab implements Lab
{
    private static final long LONG_DELAY_MILLIS = 5_000;
    private static final long SHORT_DELAY_MILLIS = 500;
    private static final long POLL_EVERY_MILLIS = 100;
    private static final String LONG = "due in 5 s";
    private static final String SHORT = "due in 0.5 s";

    @Override
    public String name()
    {
        return "delay";
    }

    @Override
    public String summary()
    {
        return "a 0.5 s delay behind a 5 s one, on publish and on nack: each comes out on time";
    }

    @Override
    public LabTable run(final Path dir)
    {
        final Map<String, Long> onPublish = delayedOnPublish(dir.resolve("publish"));
        final Map<String, Long> onNack = delayedOnNack(dir.resolve("nack"));
        return new LabTable("delay: per-message delays, each due on time",
            "two messages delayed, the 5 s one first; a consumer polls every " + POLL_EVERY_MILLIS + " ms; virtual time")
            .setByLab("delay on publish (" + QueueHeaders.DELAY + "): 0.5 s message came out at",
                at(onPublish, SHORT), LabTable.measured(LabTable.RABBITMQ, "5.011 s (TTL wait queue)"), pollNote())
            .setByLab("delay on publish: 5 s message came out at", at(onPublish, LONG),
                "RabbitMQ docs, TTL wait queue: at 5 s", pollNote())
            .setByLab("nack with delay: 0.5 s message came out at", at(onNack, SHORT),
                LabTable.measured(LabTable.RABBITMQ, "5.011 s (TTL wait queue)"), pollNote())
            .setByLab("nack with delay: 5 s message came out at", at(onNack, LONG),
                "RabbitMQ docs, TTL wait queue: at 5 s", pollNote())
            .note("RabbitMQ expires per-message TTLs only at the head of the wait queue; Spool keeps each delay on a")
            .note("timer wheel, so no delay waits for another.");
    }

    private static Map<String, Long> delayedOnPublish(final Path dir)
    {
        try (LabEngine lab = new LabEngine(dir))
        {
            final Subscription emails = emails(lab);
            lab.publish("emails", LONG, Map.of(QueueHeaders.DELAY, Long.toString(LONG_DELAY_MILLIS)));
            lab.publish("emails", SHORT, Map.of(QueueHeaders.DELAY, Long.toString(SHORT_DELAY_MILLIS)));
            return pollUntilBothCameOut(lab, emails);
        }
    }

    private static Map<String, Long> delayedOnNack(final Path dir)
    {
        try (LabEngine lab = new LabEngine(dir))
        {
            final Subscription emails = emails(lab);
            lab.publish("emails", null, LONG);
            lab.publish("emails", null, SHORT);
            final List<Delivery> first = emails.receive(2, 0);
            emails.nack(first.get(0).receipt(), LONG_DELAY_MILLIS);
            emails.nack(first.get(1).receipt(), SHORT_DELAY_MILLIS);
            return pollUntilBothCameOut(lab, emails);
        }
    }

    private static Subscription emails(final LabEngine lab)
    {
        lab.createTopic("emails");
        return lab.spool().createSubscription("emails", "emails", SubscriptionSettings.DEFAULT);
    }

    private static Map<String, Long> pollUntilBothCameOut(final LabEngine lab, final Subscription emails)
    {
        final Map<String, Long> cameOutAt = new HashMap<>();
        for (long t = POLL_EVERY_MILLIS; cameOutAt.size() < 2 && t <= 2 * LONG_DELAY_MILLIS; t += POLL_EVERY_MILLIS)
        {
            lab.advanceTo(t, emails);
            for (final Delivery delivery : emails.receive(10, 0))
            {
                cameOutAt.put(delivery.valueAsString(), t);
                emails.ack(delivery.receipt());
            }
        }
        return cameOutAt;
    }

    /** What sets the times Spool's rows show: the delays themselves, met at the consumer's polls. */
    private static String pollNote()
    {
        return "each delay on the virtual clock, met at the consumer's next poll (every " + POLL_EVERY_MILLIS + " ms)";
    }

    private static String at(final Map<String, Long> cameOutAt, final String message)
    {
        final Long millis = cameOutAt.get(message);
        return millis == null ? "never" : LabEngine.seconds(millis);
    }
}
