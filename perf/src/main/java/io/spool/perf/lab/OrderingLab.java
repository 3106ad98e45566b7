package io.spool.perf.lab;

import io.spool.queue.Subscription;
import io.spool.queue.SubscriptionSettings;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;

/**
 * Ordering under competing consumers: two keys of 50 events each, two push consumers, one delivery in ten nacked
 * with requeue; counts the events finished after a newer event of their key. Thread-safe (stateless).
 */
public final class OrderingLab implements Lab
{
    private static final int EVENTS_PER_KEY = 50;
    private static final String[] KEYS = {"A", "B"};
    private static final long FIRST_PROCESSING_MILLIS = 10;
    private static final long SECOND_PROCESSING_MILLIS = 14;
    private static final int REQUEUE_ONE_IN = 10;
    /** Fixed, so the same deliveries are requeued every run. */
    private static final long REQUEUE_SEED = 7;

    @Override
    public String name()
    {
        return "ordering";
    }

    @Override
    public String summary()
    {
        return "order per key with competing consumers and 10% requeue";
    }

    private record Outcome(int deliveries, int outOfOrder)
    {
    }

    @Override
    public LabTable run(final Path dir)
    {
        final Outcome competing = competingConsumers(dir.resolve("competing"));
        return new LabTable("ordering: competing consumers with requeues",
            KEYS.length + " keys x " + EVENTS_PER_KEY + " events, published in turn; 2 consumers, prefetch 1, " +
                FIRST_PROCESSING_MILLIS + " and " + SECOND_PROCESSING_MILLIS + " ms a message; 1 delivery in " + REQUEUE_ONE_IN + " nacked with requeue (seeded); virtual time")
            .row("competing consumers: deliveries", competing.deliveries, "RabbitMQ, single active consumer run: 108")
            .row("competing consumers: events finished after a newer one of their key", competing.outOfOrder,
                "RabbitMQ: 3-5")
            .note("Single active consumer and message groups are left out: they are not on main yet.");
    }

    private static Outcome competingConsumers(final Path dir)
    {
        try (LabEngine lab = new LabEngine(dir))
        {
            lab.createTopic("accounts");
            final Subscription accounts = lab.spool().createSubscription("accounts", "accounts",
                SubscriptionSettings.DEFAULT);
            for (int i = 0; i < EVENTS_PER_KEY; i++)
            {
                for (final String key : KEYS)
                {
                    lab.publish("accounts", key, key + ":" + i);
                }
            }
            final Random requeue = new Random(REQUEUE_SEED);
            final Map<String, Integer> newestFinished = new HashMap<>();
            final int[] deliveries = new int[1];
            final int[] outOfOrder = new int[1];
            final int[] finished = new int[1];
            try (PushSimulation simulation = new PushSimulation(lab, accounts))
            {
                simulation.attach(1, FIRST_PROCESSING_MILLIS);
                simulation.attach(1, SECOND_PROCESSING_MILLIS);
                simulation.runUntil(() -> finished[0] == EVENTS_PER_KEY * KEYS.length, message ->
                {
                    deliveries[0]++;
                    if (requeue.nextInt(REQUEUE_ONE_IN) == 0)
                    {
                        return PushSimulation.Outcome.NACK;
                    }
                    final int sequence = Integer.parseInt(message.value().substring(message.key().length() + 1));
                    if (newestFinished.getOrDefault(message.key(), -1) > sequence)
                    {
                        outOfOrder[0]++;
                    }
                    newestFinished.merge(message.key(), sequence, Math::max);
                    finished[0]++;
                    return PushSimulation.Outcome.ACK;
                });
            }
            return new Outcome(deliveries[0], outOfOrder[0]);
        }
    }
}
