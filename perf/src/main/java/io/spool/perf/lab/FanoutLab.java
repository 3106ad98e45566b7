package io.spool.perf.lab;

import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.Delivery;
import io.spool.queue.Subscription;

import java.nio.file.Path;
import java.util.List;

/**
 * Pub/sub against point-to-point: two subscriptions on one topic each get every message, two consumers on one
 * subscription share the messages, and the topic stores each message once either way. Thread-safe (stateless).
 */
public final class FanoutLab implements Lab
{
    private static final int MESSAGES = 100;
    private static final int BATCH = 10;

    @Override
    public String name()
    {
        return "fanout";
    }

    @Override
    public String summary()
    {
        return "pub/sub (two subscriptions) against a shared queue (two consumers on one subscription)";
    }

    @Override
    public LabTable run(final Path dir)
    {
        try (LabEngine lab = new LabEngine(dir))
        {
            lab.createTopic("orders");
            final Subscription email = lab.spool().createSubscription("email", "orders", SubscriptionSettings.DEFAULT);
            final Subscription stats = lab.spool().createSubscription("stats", "orders", SubscriptionSettings.DEFAULT);
            final Subscription work = lab.spool().createSubscription("work", "orders", SubscriptionSettings.DEFAULT);
            for (int i = 0; i < MESSAGES; i++)
            {
                lab.publish("orders", null, "order-" + i);
            }

            final int emailGot = drain(email);
            final int statsGot = drain(stats);
            // two workers on one subscription, taking turns at receiving up to 10 at a time
            final int[] workerGot = new int[2];
            for (int turn = 0; ; turn = 1 - turn)
            {
                final int got = receiveAndAck(work);
                if (got == 0)
                {
                    break;
                }
                workerGot[turn] += got;
            }
            final long stored = lab.spool().streams().topics().topic("orders").partition(0).endOffset();

            return new LabTable("fanout: pub/sub against a shared queue",
                MESSAGES + " messages on one topic; subscriptions email and stats; workers A and B share subscription work")
                .row("pub/sub: email got", emailGot + " of " + MESSAGES, "RabbitMQ 4.1 lab, fanout: 100 of 100")
                .row("pub/sub: stats got", statsGot + " of " + MESSAGES, "RabbitMQ 4.1 lab, fanout: 100 of 100")
                .row("point-to-point: worker A / worker B", workerGot[0] + " / " + workerGot[1],
                    LabTable.measured(LabTable.RABBITMQ, "50 / 50"))
                .row("records stored for 3 subscriptions", stored, "RabbitMQ docs: one copy per queue, 300")
                .note("The 4.1 lab figures are from earlier runs on RabbitMQ 4.1, not repeated.");
        }
    }

    private static int drain(final Subscription subscription)
    {
        int total = 0;
        int got;
        while ((got = receiveAndAck(subscription)) > 0)
        {
            total += got;
        }
        return total;
    }

    private static int receiveAndAck(final Subscription subscription)
    {
        final List<Delivery> deliveries = subscription.receive(BATCH, 0);
        for (final Delivery delivery : deliveries)
        {
            subscription.ack(delivery.receipt());
        }
        return deliveries.size();
    }
}
