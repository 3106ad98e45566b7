package io.spool.perf.lab;

import io.spool.api.queue.GroupKeySource;
import io.spool.api.queue.GroupMode;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.Delivery;
import io.spool.queue.Subscription;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Ordering per key: two keys of 50 events each, two push consumers, one delivery in ten nacked with requeue; counts
 * the events finished after a newer event of their key, with competing consumers, a single active consumer, and
 * message groups by key. Thread-safe (stateless).
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
        return "order per key with 10% requeue: competing consumers, single active consumer, message groups";
    }

    private record Outcome(int firstDeliveries, int secondDeliveries, int outOfOrder, long millis)
    {
        String split()
        {
            return firstDeliveries + " / " + secondDeliveries;
        }
    }

    @Override
    public LabTable run(final Path dir)
    {
        final Outcome competing = pushToTwo(dir.resolve("competing"), SubscriptionSettings.builder());
        final Outcome single = pushToTwo(dir.resolve("single-active"),
            SubscriptionSettings.builder().singleActiveConsumer(true));
        final Outcome groups = pullByTwo(dir.resolve("groups"),
            SubscriptionSettings.builder().messageGroups(GroupMode.ORDERED, GroupKeySource.RECORD_KEY));
        return new LabTable("ordering: competing consumers, single active consumer, message groups",
            KEYS.length + " keys x " + EVENTS_PER_KEY + " events, published in turn; 2 consumers taking " +
                FIRST_PROCESSING_MILLIS + " and " + SECOND_PROCESSING_MILLIS + " ms a message, one at a time; 1 " +
                "delivery in " + REQUEUE_ONE_IN + " nacked with requeue (seeded); virtual time")
            .row("competing (push, prefetch 1): deliveries to first / second", competing.split(),
                "RabbitMQ docs: shared")
            .setByLab("competing: events finished after a newer one of their key", competing.outOfOrder,
                LabTable.measured(LabTable.RABBITMQ, "3-10"),
                "the seeded choice of which deliveries are requeued and the consumers' simulated times; the engine's " +
                    "part is that an unordered queue lets order go")
            .row("single active consumer (push): deliveries to first / second", single.split(),
                LabTable.measured(LabTable.RABBITMQ, "109-116 / 0"))
            .row("single active consumer: out of order", single.outOfOrder, LabTable.measured(LabTable.RABBITMQ, "0"))
            .row("message groups by key (pull): deliveries to first / second", groups.split(),
                "SQS docs, FIFO: a group's messages in order, to one receiver at a time")
            .row("message groups: out of order", groups.outOfOrder, "SQS docs, FIFO: 0")
            .setByLab("all done after: competing / single active / groups", LabEngine.seconds(competing.millis) +
                " / " + LabEngine.seconds(single.millis) + " / " + LabEngine.seconds(groups.millis), "-",
                "the consumers' simulated " + FIRST_PROCESSING_MILLIS + " ms and " + SECOND_PROCESSING_MILLIS +
                    " ms a message on the virtual clock")
            .note("Groups keep each key in order and still use both consumers; a single active consumer keeps order by")
            .note("leaving the other idle. The groups run pulls, as SQS FIFO consumers do.");
    }

    /** Decides which deliveries are requeued and counts the events finished after a newer one of their key. */
    private static final class OrderCheck implements PushSimulation.Worker
    {
        private final Random requeue = new Random(REQUEUE_SEED);
        private final Map<String, Integer> newestFinished = new HashMap<>();
        private int outOfOrder;
        private int finished;

        boolean done()
        {
            return finished == EVENTS_PER_KEY * KEYS.length;
        }

        @Override
        public PushSimulation.Outcome finish(final Received message)
        {
            if (requeue.nextInt(REQUEUE_ONE_IN) == 0)
            {
                return PushSimulation.Outcome.NACK;
            }
            final int sequence = Integer.parseInt(message.value().substring(message.key().length() + 1));
            if (newestFinished.getOrDefault(message.key(), -1) > sequence)
            {
                outOfOrder++;
            }
            newestFinished.merge(message.key(), sequence, Math::max);
            finished++;
            return PushSimulation.Outcome.ACK;
        }
    }

    private static Subscription publishEvents(final LabEngine lab, final SubscriptionSettings.Builder settings)
    {
        lab.createTopic("accounts");
        final Subscription accounts = lab.spool().createSubscription("accounts", "accounts", settings.build());
        for (int i = 0; i < EVENTS_PER_KEY; i++)
        {
            for (final String key : KEYS)
            {
                lab.publish("accounts", key, key + ":" + i);
            }
        }
        return accounts;
    }

    private static Outcome pushToTwo(final Path dir, final SubscriptionSettings.Builder settings)
    {
        try (LabEngine lab = new LabEngine(dir))
        {
            final Subscription accounts = publishEvents(lab, settings);
            final OrderCheck check = new OrderCheck();
            try (PushSimulation simulation = new PushSimulation(lab, accounts))
            {
                final PushSimulation.SimulatedConsumer first = simulation.attach(1, FIRST_PROCESSING_MILLIS);
                final PushSimulation.SimulatedConsumer second = simulation.attach(1, SECOND_PROCESSING_MILLIS);
                simulation.runUntil(check::done, check);
                return new Outcome(first.handled(), second.handled(), check.outOfOrder, lab.now());
            }
        }
    }

    /**
     * Two pull consumers, each receiving one message whenever it is idle. Pulling, the lab decides who asks first,
     * so who gets a message released by a group never depends on thread timing.
     */
    private static Outcome pullByTwo(final Path dir, final SubscriptionSettings.Builder settings)
    {
        try (LabEngine lab = new LabEngine(dir))
        {
            final Subscription accounts = publishEvents(lab, settings);
            final OrderCheck check = new OrderCheck();
            final long[] processingMillis = {FIRST_PROCESSING_MILLIS, SECOND_PROCESSING_MILLIS};
            final Delivery[] current = new Delivery[2];
            final long[] finishAt = new long[2];
            final int[] handled = new int[2];
            while (!check.done())
            {
                for (int c = 0; c < 2; c++)
                {
                    final List<Delivery> got = current[c] == null ? accounts.receive(1, 0) : List.of();
                    if (!got.isEmpty())
                    {
                        current[c] = got.get(0);
                        finishAt[c] = lab.now() + processingMillis[c];
                    }
                }
                final long next = Math.min(current[0] == null ? Long.MAX_VALUE : finishAt[0],
                    current[1] == null ? Long.MAX_VALUE : finishAt[1]);
                lab.advanceTo(next, accounts);
                for (int c = 0; c < 2; c++)
                {
                    if (current[c] != null && finishAt[c] == next)
                    {
                        final Delivery delivery = current[c];
                        current[c] = null;
                        handled[c]++;
                        if (check.finish(Received.of(delivery)) == PushSimulation.Outcome.ACK)
                        {
                            accounts.ack(delivery.receipt());
                        }
                        else
                        {
                            accounts.nack(delivery.receipt());
                        }
                    }
                }
            }
            return new Outcome(handled[0], handled[1], check.outOfOrder, lab.now());
        }
    }
}
