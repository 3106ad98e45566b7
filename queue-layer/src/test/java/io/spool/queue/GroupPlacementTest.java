package io.spool.queue;

import io.spool.api.queue.GroupKeySource;
import io.spool.api.queue.GroupMode;
import io.spool.api.queue.QueueHeaders;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.PublishResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static io.spool.queue.QueueFixture.values;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A keyless publish in a message group goes to the partition its group id names, so that a group lives in one
 * partition and never has a message in flight in two (groups are kept per partition).
 */
class GroupPlacementTest
{
    private static final int PARTITIONS = 4;

    @TempDir
    Path dir;
    QueueFixture fx;
    Subscription work;

    @BeforeEach
    void open()
    {
        fx = new QueueFixture(dir);
        fx.topic("orders", PARTITIONS);
        work = fx.spool.createSubscription("work", "orders", SubscriptionSettings.builder()
            .messageGroups(GroupMode.ORDERED, GroupKeySource.HEADER).build());
    }

    @AfterEach
    void close()
    {
        fx.close();
    }

    private static ProducerRecord grouped(final String group, final String value)
    {
        return new ProducerRecord("orders", ProducerRecord.ANY_PARTITION, null,
            Map.of(QueueHeaders.GROUP_ID, group.getBytes(StandardCharsets.UTF_8)),
            value.getBytes(StandardCharsets.UTF_8));
    }

    private List<PublishResult> publishAll(final Function<ProducerRecord, PublishResult> path)
    {
        final List<PublishResult> placed = new ArrayList<>();
        for (int i = 0; i < 2 * PARTITIONS; i++)
        {
            placed.add(path.apply(grouped("customer-42", "m" + i)));
        }
        return placed;
    }

    @Test
    void theRouterKeepsAKeylessGroupInOnePartitionAndHandsItOutInOrderToOneReceiverAtATime()
    {
        final List<PublishResult> placed = publishAll(r -> fx.spool.router().send(r).join());

        assertThat(placed).extracting(PublishResult::partition).containsOnly(placed.get(0).partition());
        final List<Delivery> first = work.receive(3, 0);
        assertThat(values(first)).containsExactly("m0", "m1", "m2");
        assertThat(work.receive(10, 0)).isEmpty();
        work.ack(first.stream().map(Delivery::receipt).toList());
        assertThat(values(work.receive(1, 0))).containsExactly("m3");
    }

    @Test
    void theEmbeddedProducerAndItsBatchesPlaceAGroupByItsId()
    {
        final List<PublishResult> sent = publishAll(r -> fx.spool.newProducer().send(r).join());
        final List<PublishResult> batch = fx.spool.newProducer()
            .sendBatch(List.of(grouped("customer-42", "b0"), grouped("customer-42", "b1"))).join();

        assertThat(sent).extracting(PublishResult::partition).containsOnly(sent.get(0).partition());
        assertThat(batch).extracting(PublishResult::partition).containsOnly(sent.get(0).partition());
    }

    @Test
    void aNamedPartitionOrAKeyStillDecides()
    {
        final ProducerRecord toPartition = new ProducerRecord("orders", 3, null,
            Map.of(QueueHeaders.GROUP_ID, "g".getBytes(StandardCharsets.UTF_8)), new byte[1]);
        final ProducerRecord keyed = new ProducerRecord("orders", ProducerRecord.ANY_PARTITION,
            "k".getBytes(StandardCharsets.UTF_8), Map.of(QueueHeaders.GROUP_ID, "g".getBytes(StandardCharsets.UTF_8)),
            new byte[1]);

        assertThat(fx.spool.router().placedByGroup(toPartition)).isSameAs(toPartition);
        assertThat(fx.spool.router().placedByGroup(keyed)).isSameAs(keyed);
    }
}
