package io.spool.perf.lab;

import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.DeathHistory;
import io.spool.queue.Delivery;
import io.spool.queue.Subscription;

import java.nio.file.Path;
import java.util.List;

/**
 * A poison message that every consumer nacks with requeue: how often it comes back in 2 s without a delivery limit,
 * with the default limit and with a limit of 3, and where it ends up. Thread-safe (stateless).
 */
public final class PoisonLab implements Lab
{
    private static final long WINDOW_MILLIS = 2_000;
    /** What one receive-and-nack round costs the consumer, in virtual time. */
    private static final long ROUND_TRIP_MILLIS = 1;

    @Override
    public String name()
    {
        return "poison";
    }

    @Override
    public String summary()
    {
        return "a message nacked with requeue forever: without a delivery limit, by default, and with a limit of 3";
    }

    private record Outcome(int deliveries, String deadReason)
    {
    }

    @Override
    public LabTable run(final Path dir)
    {
        final Outcome unlimited = nackForTwoSeconds(dir.resolve("unlimited"), SubscriptionSettings.UNLIMITED_DELIVERIES);
        final Outcome byDefault = nackForTwoSeconds(dir.resolve("default"), SubscriptionSettings.DEFAULT_DELIVERY_LIMIT);
        final Outcome three = nackForTwoSeconds(dir.resolve("limit-3"), 3);
        return new LabTable("poison: a requeue loop with and without a delivery limit",
            "one message, nacked with requeue on every delivery for " + LabEngine.seconds(WINDOW_MILLIS) +
                " of virtual time, " + ROUND_TRIP_MILLIS + " ms per receive-and-nack")
            .setByLab("no limit (-1): deliveries in 2 s", unlimited.deliveries,
                LabTable.measured(LabTable.RABBITMQ, "17,406-19,869 (classic queue)"),
                "the 2 s window divided by the simulated " + ROUND_TRIP_MILLIS + " ms receive-and-nack round trip")
            .row("no limit (-1): dead-lettered", unlimited.deadReason, "RabbitMQ docs, classic queue: never")
            .row("default limit (20): deliveries", byDefault.deliveries, "RabbitMQ docs, quorum queue default: 21")
            .row("default limit (20): dead-lettered", byDefault.deadReason, "RabbitMQ docs, quorum queue: delivery_limit")
            .row("limit 3: deliveries", three.deliveries, "RabbitMQ docs, quorum x-delivery-limit 3: 4")
            .row("limit 3: dead-lettered", three.deadReason, "RabbitMQ docs, quorum queue: delivery_limit")
            .note("Without a limit the loop runs as fast as the consumer can nack, so the count says nothing about the")
            .note("engine: RabbitMQ's is its real round trip on the machine. A limit of N means N redeliveries after "
                + "the first delivery.");
    }

    private static Outcome nackForTwoSeconds(final Path dir, final int deliveryLimit)
    {
        try (LabEngine lab = new LabEngine(dir))
        {
            lab.createTopic("payments");
            lab.createTopic("payments.dlq");
            final Subscription payments = lab.spool().createSubscription("payments", "payments",
                SubscriptionSettings.builder().deliveryLimit(deliveryLimit).deadLetterTopic("payments.dlq").build());
            lab.publish("payments", null, "poison");
            int deliveries = 0;
            while (lab.now() < WINDOW_MILLIS)
            {
                final List<Delivery> got = payments.receive(1, 0);
                if (got.isEmpty())
                {
                    break;
                }
                deliveries++;
                payments.nack(got.get(0).receipt());
                lab.advanceTo(lab.now() + ROUND_TRIP_MILLIS);
            }
            return new Outcome(deliveries, payments.metrics().dead() == 0 ? "no" : "yes, " + deadReason(lab));
        }
    }

    /** The reason the dead letter carries; it reaches the dead-letter topic as the subscription's agent settles. */
    private static String deadReason(final LabEngine lab)
    {
        final String reason = LabEngine.header(lab.awaitRecords("payments.dlq", 1).get(0), DeathHistory.REASON);
        return reason == null ? "no reason recorded" : reason;
    }
}
