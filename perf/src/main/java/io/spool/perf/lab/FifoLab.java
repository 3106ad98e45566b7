package io.spool.perf.lab;

import io.spool.api.log.DedupKey;
import io.spool.api.queue.GroupKeySource;
import io.spool.api.queue.GroupMode;
import io.spool.api.queue.QueueHeaders;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.Delivery;
import io.spool.queue.Subscription;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * SQS FIFO on Spool: groups A, B and C of four messages each; while A0 is in flight group A waits and a receive
 * takes runs of B and C in order, and a dedup id keeps a repeated publish out. Thread-safe (stateless).
 */
public final class FifoLab implements Lab
{
    private static final String[] GROUPS = {"A", "B", "C"};
    private static final int PER_GROUP = 4;

    @Override
    public String name()
    {
        return "fifo";
    }

    @Override
    public String summary()
    {
        return "FIFO message groups (a busy group waits, the others flow in runs) and dedup of a repeated publish";
    }

    @Override
    public LabTable run(final Path dir)
    {
        try (LabEngine lab = new LabEngine(dir))
        {
            lab.createTopic("orders");
            final Subscription orders = lab.spool().createSubscription("orders", "orders", SubscriptionSettings.builder()
                .messageGroups(GroupMode.ORDERED, GroupKeySource.HEADER).build());
            final Map<String, Long> offsets = new HashMap<>();
            for (int i = 0; i < PER_GROUP; i++)
            {
                for (final String group : GROUPS)
                {
                    offsets.put(group + i, publish(lab, group + i));
                }
            }
            final long b0Again = publish(lab, "B0");

            final List<String> delivered = new ArrayList<>();
            final Delivery a0 = orders.receive(1, 0).get(0);
            delivered.add(a0.valueAsString());
            final List<Delivery> whileA0InFlight = orders.receive(10, 0);
            orders.ack(a0.receipt());
            final List<Delivery> afterA0Acked = orders.receive(10, 0);
            ackAll(orders, whileA0InFlight, delivered);
            ackAll(orders, afterA0Acked, delivered);
            List<Delivery> rest;
            while (!(rest = orders.receive(10, 0)).isEmpty())
            {
                ackAll(orders, rest, delivered);
            }
            final Map<String, Long> perGroup = delivered.stream()
                .collect(Collectors.groupingBy(value -> value.substring(0, 1), Collectors.counting()));

            return new LabTable("fifo: message groups and dedup",
                "groups A, B, C of " + PER_GROUP + " messages published in turn, the group in " + QueueHeaders.GROUP_ID +
                    ", each with a dedup id (" + DedupKey.HEADER + "); B0 published a second time")
                .row("first receive of 1", a0.valueAsString(), LabTable.measured(LabTable.ELASTICMQ, "A0"))
                .row("receive of 10 while A0 is in flight", values(whileA0InFlight),
                    LabTable.measured(LabTable.ELASTICMQ, "B0, B1, B2, B3, C0, C1, C2, C3"))
                .row("receive of 10 after A0 is acked", values(afterA0Acked),
                    LabTable.measured(LabTable.ELASTICMQ, "A1, A2, A3"))
                .row("B0 published again: stored again", b0Again == offsets.get("B0") ? "no, the first offset came back" :
                    "yes", "SQS docs, FIFO: no (same dedup id within 5 minutes)")
                .row("delivered per group A / B / C",
                    perGroup.get("A") + " / " + perGroup.get("B") + " / " + perGroup.get("C"),
                    "SQS FIFO lab (ElasticMQ): group B had 4")
                .note("A receive that takes a group's first message takes the ones behind it along, in order; the group")
                .note("then waits until all of them are settled, and one nacked or timed out brings back those after it.");
        }
    }

    /** Publishes one message of a group, its text doubling as its dedup id. */
    private static long publish(final LabEngine lab, final String message)
    {
        return lab.publish("orders", message,
            Map.of(QueueHeaders.GROUP_ID, message.substring(0, 1), DedupKey.HEADER, message));
    }

    private static void ackAll(final Subscription orders, final List<Delivery> deliveries, final List<String> delivered)
    {
        for (final Delivery delivery : deliveries)
        {
            delivered.add(delivery.valueAsString());
            orders.ack(delivery.receipt());
        }
    }

    private static String values(final List<Delivery> deliveries)
    {
        return deliveries.stream().map(Delivery::valueAsString).collect(Collectors.joining(", "));
    }
}
