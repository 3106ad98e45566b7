package io.spool.perf.lab;

import io.spool.api.queue.ConsumerOptions;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.Delivery;
import io.spool.queue.Subscription;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Auto-ack against manual ack when a consumer dies: 100 messages, prefetch 10, the consumer dies while handling its
 * 21st message (its work done, its ack not sent); then a second consumer drains what is left.
 * Thread-safe (stateless).
 */
public final class AckLab implements Lab
{
    private static final int MESSAGES = 100;
    private static final int PREFETCH = 10;
    private static final int FINISHED_BEFORE_DEATH = 20;

    @Override
    public String name()
    {
        return "ack";
    }

    @Override
    public String summary()
    {
        return "auto-ack against manual ack when a consumer dies after 20 of 100 (prefetch 10)";
    }

    private record Outcome(int handedOver, int leftInQueue, int flaggedRedelivered, int lost, int processedTwice)
    {
    }

    @Override
    public LabTable run(final Path dir)
    {
        final Outcome auto = dieMidway(dir.resolve("auto-ack"), ConsumerOptions.autoAck(PREFETCH));
        final Outcome manual = dieMidway(dir.resolve("manual"), ConsumerOptions.prefetch(PREFETCH));
        return new LabTable("ack: auto-ack against manual ack when a consumer dies",
            MESSAGES + " messages; prefetch " + PREFETCH + "; the consumer dies while handling message " +
                (FINISHED_BEFORE_DEATH + 1) + " (work done, ack not sent); a second consumer drains the rest")
            .row("auto-ack: handed to the consumer before it died", auto.handedOver,
                "RabbitMQ docs: all 100 (auto-ack ignores the prefetch)")
            .row("auto-ack: lost", auto.lost, LabTable.measured(LabTable.RABBITMQ, "80"))
            .row("manual ack: left in the queue", manual.leftInQueue, LabTable.measured(LabTable.RABBITMQ, "80"))
            .row("manual ack: flagged redelivered", manual.flaggedRedelivered,
                LabTable.measured(LabTable.RABBITMQ, "10"))
            .row("manual ack: lost", manual.lost, LabTable.measured(LabTable.RABBITMQ, "0"))
            .row("manual ack: processed twice", manual.processedTwice, LabTable.measured(LabTable.RABBITMQ, "1"))
            .note("Under auto-ack Spool still holds back all but the prefetch, so the loss is what the consumer had in")
            .note("hand: the prefetch, not the queue. The consumer's death here is a clean close of its QueueConsumer")
            .note("in the middle of a delivery, which the engine sees at once, as RabbitMQ sees a closed connection;")
            .note("the wire module's KilledConsumerTest kills a consumer's JVM with SIGKILL over the network instead and")
            .note("finds the same: nothing lost under manual acks, the unacked ones redelivered.");
    }

    private static Outcome dieMidway(final Path dir, final ConsumerOptions options)
    {
        try (LabEngine lab = new LabEngine(dir))
        {
            lab.createTopic("tasks");
            final Subscription tasks = lab.spool().createSubscription("tasks", "tasks", SubscriptionSettings.DEFAULT);
            for (int i = 0; i < MESSAGES; i++)
            {
                lab.publish("tasks", null, "task-" + i);
            }
            final Set<String> processed = new HashSet<>();
            int processedTwice = 0;

            final InlineConsumer doomed = new InlineConsumer(tasks, options);
            for (int i = 0; i < FINISHED_BEFORE_DEATH; i++)
            {
                processed.add(doomed.next().value());
                doomed.finish();
            }
            processed.add(doomed.next().value());
            final int handedOver = MESSAGES - (int)tasks.metrics().ready();
            doomed.kill();

            final int leftInQueue = (int)tasks.metrics().ready();
            int flagged = 0;
            List<Delivery> batch;
            while (!(batch = tasks.receive(PREFETCH, 0)).isEmpty())
            {
                for (final Delivery delivery : batch)
                {
                    flagged += delivery.redelivered() ? 1 : 0;
                    processedTwice += processed.add(delivery.valueAsString()) ? 0 : 1;
                    tasks.ack(delivery.receipt());
                }
            }
            return new Outcome(handedOver, leftInQueue, flagged, MESSAGES - processed.size(), processedTwice);
        }
    }
}
