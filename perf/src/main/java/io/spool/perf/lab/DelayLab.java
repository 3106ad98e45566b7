package io.spool.perf.lab;

import io.spool.queue.Delivery;
import io.spool.queue.Subscription;
import io.spool.queue.SubscriptionSettings;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Per-message delays without head-of-line blocking: a message due in 5 s is delayed first, one due in 0.5 s second,
 * and a consumer polls every 100 ms to see when each comes out. Thread-safe (stateless).
 */
public final class DelayLab implements Lab
{
    private static final long LONG_DELAY_MILLIS = 5_000;
    private static final long SHORT_DELAY_MILLIS = 500;
    private static final long POLL_EVERY_MILLIS = 100;

    @Override
    public String name()
    {
        return "delay";
    }

    @Override
    public String summary()
    {
        return "a 0.5 s retry delay behind a 5 s one: each comes out on time, no head-of-line blocking";
    }

    @Override
    public LabTable run(final Path dir)
    {
        try (LabEngine lab = new LabEngine(dir))
        {
            lab.createTopic("emails");
            final Subscription emails = lab.spool().createSubscription("emails", "emails", SubscriptionSettings.DEFAULT);
            lab.publish("emails", null, "retry-in-5s");
            lab.publish("emails", null, "retry-in-0.5s");
            final List<Delivery> first = emails.receive(2, 0);
            emails.nack(first.get(0).receipt(), LONG_DELAY_MILLIS);
            emails.nack(first.get(1).receipt(), SHORT_DELAY_MILLIS);

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
            return new LabTable("delay: per-message delays, each due on time",
                "two messages nacked with a delay, the 5 s one first; a consumer polls every " + POLL_EVERY_MILLIS +
                    " ms; virtual time")
                .row("0.5 s delay (queued behind the 5 s one) came out at", at(cameOutAt, "retry-in-0.5s"),
                    "RabbitMQ TTL wait queue: 5.00 s")
                .row("5 s delay came out at", at(cameOutAt, "retry-in-5s"), "RabbitMQ TTL wait queue: 5.00 s")
                .note("RabbitMQ expires per-message TTLs only at the head of the wait queue; Spool keeps each delay on a")
                .note("timer wheel, so no delay waits for another. Delays here use nack with a delay.");
        }
    }

    private static String at(final Map<String, Long> cameOutAt, final String message)
    {
        final Long millis = cameOutAt.get(message);
        return millis == null ? "never" : LabEngine.seconds(millis);
    }
}
