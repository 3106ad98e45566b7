package io.spool.cluster;

import io.spool.api.queue.AlreadySettledException;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.queue.UnknownSubscriptionException;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.cluster.StoredFrames.Stored;
import io.spool.testing.CrashTest;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A replicated subscription on three child-JVM nodes: receive, ack and nack, SIGKILL the partition's leader, and
 * go on with the new one. Locks are long (a minute), so nothing here waits for one to run out; what the test shows
 * is that the new leader holds the old one's decisions: acks, delivery counts, held locks and dead messages.
 * <p>
 * Then the same under load, in the spirit of Jepsen: a subscription consumed while its topic is published to, the
 * leader killed and started again {@code spool.cluster.rounds} times (more under the soak profile), every receive
 * and ack noted in a {@link QueueHistory} and every publish in a {@link PublishHistory}, both checked once the
 * subscription has settled every record.
 */
@CrashTest
class ReplicatedQueueFailoverTest extends ChildNodesTest
{
    private static final String TOPIC = "tasks";
    private static final String SUBSCRIPTION = "workers";
    private static final int RECORDS = 10;
    private static final long LOCK = 60_000;
    /** Two redeliveries: the third nack of a message kills it. */
    private static final int DELIVERY_LIMIT = 2;
    private static final int ROUNDS = Integer.getInteger("spool.cluster.rounds", 1);
    /** Messages acked between two faults: enough to show the subscription served again. */
    private static final int PROGRESS = 100;
    private static final Duration PROGRESS_WAIT = Duration.ofSeconds(60);
    /** Short enough that a delivery whose receive answer a failover lost comes back soon. */
    private static final long SHORT_LOCK = 3_000;

    @Test
    void theNewLeaderKeepsAcksDeliveryCountsLocksAndDeadMessages()
    {
        cluster = ChildNodes.launch(dir, 3);
        try (ClusterClient client = ClusterClient.connect(cluster.members()))
        {
            client.createTopic(TOPIC, 3, TopicConfig.of(1));
            final List<ProducerRecord> records = new ArrayList<>();
            for (int i = 0; i < RECORDS; i++)
            {
                records.add(ProducerRecord.toPartition(TOPIC, 0, null,
                    ("task " + i).getBytes(StandardCharsets.UTF_8)));
            }
            client.newProducer().send(TOPIC, 0, records).join();
            client.createSubscription(TOPIC, SUBSCRIPTION,
                SubscriptionSettings.builder().lockTimeoutMillis(LOCK).deliveryLimit(DELIVERY_LIMIT).build());

            final Map<Long, ClusterReceipt> first = byOffset(client.receive(TOPIC, 0, SUBSCRIPTION, 5, LOCK));
            assertThat(first).containsOnlyKeys(0L, 1L, 2L, 3L, 4L);
            client.ack(first.get(0L));
            client.ack(first.get(1L));
            client.ack(first.get(2L));
            client.nack(first.get(3L), 0);
            client.nack(first.get(4L), 0);
            final Map<Long, ClusterReceipt> second = byOffset(client.receive(TOPIC, 0, SUBSCRIPTION, 2, LOCK));
            assertThat(second.get(3L).deliveryNumber()).isEqualTo(2);
            assertThat(second.get(4L).deliveryNumber()).isEqualTo(2);
            client.nack(second.get(4L), 0);
            final ClusterReceipt lastOfFour = client.receive(TOPIC, 0, SUBSCRIPTION, 1, LOCK).get(0).receipt();
            assertThat(lastOfFour.offset()).isEqualTo(4L);
            assertThat(lastOfFour.deliveryNumber()).isEqualTo(3);

            final int oldLeader = client.leaderOf(TOPIC, 0);
            cluster.node(oldLeader).kill();

            // the new leader holds what the old one decided
            assertThatThrownBy(() -> client.ack(first.get(0L))).isInstanceOf(AlreadySettledException.class);
            client.nack(lastOfFour, 0);         // the third delivery at a limit of two redeliveries: dead
            client.nack(second.get(3L), 0);     // held across the failover, released now
            final Map<Long, ClusterReceipt> after = byOffset(client.receive(TOPIC, 0, SUBSCRIPTION, RECORDS, LOCK));
            assertThat(client.leaderOf(TOPIC, 0)).isNotEqualTo(oldLeader);
            assertThat(after).containsOnlyKeys(3L, 5L, 6L, 7L, 8L, 9L);
            assertThat(after.get(3L).deliveryNumber()).isEqualTo(3);
            assertThat(after.get(5L).deliveryNumber()).isEqualTo(1);

            assertThatThrownBy(() -> client.receive(TOPIC, 0, "nobody", 1, LOCK))
                .isInstanceOf(UnknownSubscriptionException.class).hasMessageContaining("nobody");
            for (final ClusterReceipt receipt : after.values())
            {
                client.ack(receipt);
            }
            assertThat(client.receive(TOPIC, 0, SUBSCRIPTION, RECORDS, LOCK)).isEmpty();
        }
    }

    @Test
    void noAckedMessageComesBackAndNoDeliveryCountGoesBackWhenTheLeaderIsKilled() throws Exception
    {
        cluster = ChildNodes.launch(dir, 3);
        final PublishHistory published = new PublishHistory();
        final QueueHistory consumed = new QueueHistory();
        final long end;
        try (ClusterClient client = ClusterClient.connect(cluster.members()))
        {
            client.createTopic(TOPIC, 3, TopicConfig.of(1));
            client.createSubscription(TOPIC, SUBSCRIPTION,
                SubscriptionSettings.builder().lockTimeoutMillis(SHORT_LOCK).deliveryLimit(10).build());
            try (ReceiveLoad consumer = new ReceiveLoad(client, TOPIC, SUBSCRIPTION, SHORT_LOCK, consumed))
            {
                // each ack is an entry of its own, so the consumer is far slower than publishing: twice what it
                // must ack is published, and the rest is drained at the end
                try (PublishLoad load = new PublishLoad(client.newProducer()::send, TOPIC, 1, published,
                    2L * PROGRESS * (1 + 2 * ROUNDS) / PublishLoad.RECORDS_PER_BATCH))
                {
                    int expected = PROGRESS;
                    consumed.awaitAcked(expected, PROGRESS_WAIT);
                    for (int round = 0; round < ROUNDS; round++)
                    {
                        final NodeProcess leader = cluster.node(client.leaderOf(TOPIC, 0));
                        leader.kill();
                        consumed.awaitAcked(expected += PROGRESS, PROGRESS_WAIT);
                        leader.start();
                        consumed.awaitAcked(expected += PROGRESS, PROGRESS_WAIT);
                    }
                }
                end = client.endOffset(TOPIC, 0);
                Eventually.holds(() -> consumed.settledBelow(end), PROGRESS_WAIT,
                    () -> "the subscription settles every one of the partition's " + end + " records");
            }
            cluster.awaitCaughtUp(client, TOPIC, 1, PROGRESS_WAIT);
        }
        final Map<Integer, List<Stored>> stored = cluster.stopAndCompare(TOPIC, 1);
        assertThat(stored.get(0)).hasSize((int)end);
        assertThat(consumed.violations(end)).isEmpty();
        assertThat(published.violations(stored)).isEmpty();
    }

    private static Map<Long, ClusterReceipt> byOffset(final List<ClusterDelivery> deliveries)
    {
        return deliveries.stream().collect(Collectors.toMap(ClusterDelivery::offset, ClusterDelivery::receipt));
    }
}
