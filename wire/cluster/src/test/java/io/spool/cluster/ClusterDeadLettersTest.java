package io.spool.cluster;

import io.spool.api.InvalidRequestException;
import io.spool.api.log.HeadersCodec;
import io.spool.api.log.RecordView;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicPartition;
import io.spool.log.LogReader;
import io.spool.log.PartitionLog;
import io.spool.queue.DeathHistory;
import io.spool.testing.SlowTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Dead messages of a replicated subscription are copied to its dead-letter topic by the partition's leader, once
 * each, even when the leader is closed after a message went dead and before its copy was confirmed, and across a
 * snapshot and restart. The copying is held at a chosen point ({@link DeadLetterSender.Hold}) so that the leader is
 * closed exactly there; messages go dead by nacks and rejects, so nothing waits for a lock to run out.
 */
@SlowTest
class ClusterDeadLettersTest
{
    private static final String TOPIC = "orders";
    private static final String DEAD_LETTERS = "orders-dead";
    private static final String SUBSCRIPTION = "billing";
    private static final TopicPartition WHERE = new TopicPartition(TOPIC, 0);
    private static final long LOCK = 600_000;
    /** One redelivery: the second nack of a message kills it. */
    private static final int DELIVERY_LIMIT = 1;
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private InJvmCluster cluster;

    @BeforeEach
    void create()
    {
        cluster = new InJvmCluster(3, dir);
    }

    @AfterEach
    void stop()
    {
        cluster.close();
    }

    @Test
    void aLeaderClosedAfterItsCopyWasStoredAndBeforeItWasConfirmedLeavesEachDeadMessageCopiedOnce()
    {
        leaderClosedWhileCopiesAreHeldAt(DeadLetterSender.Hold.BEFORE_CONFIRM);
    }

    @Test
    void aLeaderClosedBeforeItCopiedLeavesTheCopiesToTheNextLeader()
    {
        leaderClosedWhileCopiesAreHeldAt(DeadLetterSender.Hold.BEFORE_COPY);
    }

    private void leaderClosedWhileCopiesAreHeldAt(final DeadLetterSender.Hold hold)
    {
        cluster.startAll();
        try (ClusterClient client = ClusterClient.connect(cluster.members()))
        {
            createTopicsAndSubscription(client);
            cluster.nodes().forEach(node -> node.holdDeadLetterCopies(hold));
            killThreeMessages(client);
            for (final ClusterNode node : cluster.nodes())
            {
                Eventually.holds(() -> owed(node).size() == 3, WAIT,
                    () -> "node " + node.nodeId() + " owes three copies, not " + owed(node));
            }
            final int expectedBeforeClose = hold == DeadLetterSender.Hold.BEFORE_CONFIRM ? 1 : 0;
            Eventually.holds(() -> client.endOffset(DEAD_LETTERS, 0) == expectedBeforeClose, WAIT,
                () -> "the dead-letter topic holds " + expectedBeforeClose + " copies before the leader is closed");

            cluster.stop(client.leaderOf(TOPIC, 0));
            cluster.nodes().forEach(node -> node.holdDeadLetterCopies(DeadLetterSender.Hold.NONE));

            awaitNothingOwed();
            assertThat(client.endOffset(DEAD_LETTERS, 0)).as("copies stored, each once").isEqualTo(3);
            assertCopiesOfTheThreeDeadMessages(cluster.nodes().get(0), client);
        }
    }

    @Test
    void copiesOwedWhenEveryNodeSnapshotsAndRestartsAreMadeOnceAfterTheRestart() throws IOException
    {
        cluster.startAll();
        try (ClusterClient client = ClusterClient.connect(cluster.members()))
        {
            createTopicsAndSubscription(client);
            cluster.nodes().forEach(node -> node.holdDeadLetterCopies(DeadLetterSender.Hold.BEFORE_COPY));
            killThreeMessages(client);
            for (final ClusterNode node : cluster.nodes())
            {
                Eventually.holds(() -> owed(node).size() == 3, WAIT, () -> "node " + node.nodeId() + " owes three");
                node.takeSnapshot(WHERE);
            }
        }
        cluster.stopAll();

        cluster.startAll();
        try (ClusterClient client = ClusterClient.connect(cluster.members()))
        {
            awaitNothingOwed();
            assertThat(client.endOffset(DEAD_LETTERS, 0)).as("copies stored, each once").isEqualTo(3);
            assertCopiesOfTheThreeDeadMessages(cluster.nodes().get(0), client);

            // the ordinals go on from the snapshot's: a fourth dead letter is no retry of the first
            client.newProducer().send(TOPIC, 0, List.of(ProducerRecord.toPartition(TOPIC, 0, null,
                "order 3".getBytes(UTF_8)))).join();
            client.reject(client.receive(TOPIC, 0, SUBSCRIPTION, 1, LOCK).get(0).receipt());
            awaitNothingOwed();
            Eventually.holds(() -> client.endOffset(DEAD_LETTERS, 0) == 4, WAIT, () -> "a fourth copy is stored");
        }
    }

    @Test
    void aDeadLetterTopicThatIsNoReplicatedTopicIsRefusedByName()
    {
        cluster.startAll();
        try (ClusterClient client = ClusterClient.connect(cluster.members()))
        {
            client.createTopic(TOPIC, 3, TopicConfig.of(1));
            assertThatThrownBy(() -> client.createSubscription(TOPIC, SUBSCRIPTION, SubscriptionSettings.builder()
                .deadLetterTopic("nowhere").build()))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("dead-letter topic nowhere is no replicated topic of the cluster")
                .hasMessageContaining("ClusterClient.createTopic");
        }
    }

    private void createTopicsAndSubscription(final ClusterClient client)
    {
        client.createTopic(TOPIC, 3, TopicConfig.of(1));
        client.createTopic(DEAD_LETTERS, 3, TopicConfig.of(1));
        final List<ProducerRecord> records = new ArrayList<>();
        for (int i = 0; i < 3; i++)
        {
            records.add(new ProducerRecord(TOPIC, 0, null, Map.of("trace", ("t" + i).getBytes(UTF_8)),
                ("order " + i).getBytes(UTF_8)));
        }
        client.newProducer().send(TOPIC, 0, records).join();
        client.createSubscription(TOPIC, SUBSCRIPTION, SubscriptionSettings.builder().lockTimeoutMillis(LOCK)
            .deliveryLimit(DELIVERY_LIMIT).deadLetterTopic(DEAD_LETTERS).build());
    }

    /** Offset 2 is rejected; offsets 0 and 1 reach the delivery limit, in that order. */
    private static void killThreeMessages(final ClusterClient client)
    {
        final List<ClusterDelivery> first = client.receive(TOPIC, 0, SUBSCRIPTION, 3, LOCK);
        assertThat(first).hasSize(3);
        client.nack(first.get(0).receipt(), 0);
        client.nack(first.get(1).receipt(), 0);
        client.reject(first.get(2).receipt());
        final List<ClusterDelivery> second = client.receive(TOPIC, 0, SUBSCRIPTION, 2, LOCK);
        assertThat(second).extracting(ClusterDelivery::offset).containsExactly(0L, 1L);
        second.forEach(delivery -> client.nack(delivery.receipt(), 0));
    }

    private void awaitNothingOwed()
    {
        for (final ClusterNode node : cluster.nodes())
        {
            Eventually.holds(() -> owed(node).isEmpty(), WAIT,
                () -> "node " + node.nodeId() + " owes no copies, not " + owed(node));
        }
    }

    private static void assertCopiesOfTheThreeDeadMessages(final ClusterNode node, final ClusterClient client)
    {
        Eventually.holds(() -> letters(node).size() == 3, WAIT, () -> "node " + node.nodeId() + " stores 3 copies");
        final List<Letter> letters = letters(node);
        assertThat(letters).extracting(Letter::value).containsExactly("order 2", "order 0", "order 1");
        assertThat(letters).extracting(letter -> letter.header(DeathHistory.REASON))
            .containsExactly("rejected", "delivery_limit", "delivery_limit");
        assertThat(letters).extracting(letter -> letter.header(DeathHistory.OFFSET)).containsExactly("2", "0", "1");
        assertThat(letters).extracting(letter -> letter.header(DeathHistory.DELIVERIES))
            .containsExactly("1", "2", "2");
        for (final Letter letter : letters)
        {
            assertThat(letter.header(DeathHistory.TOPIC)).isEqualTo(TOPIC);
            assertThat(letter.header(DeathHistory.SUBSCRIPTION)).isEqualTo(SUBSCRIPTION);
            assertThat(letter.header(DeathHistory.PARTITION)).isEqualTo("0");
            assertThat(letter.header(DeathHistory.COUNT)).isEqualTo("1");
            assertThat(letter.header("trace")).as("the original header").isEqualTo("t" + letter.header(
                DeathHistory.OFFSET));
        }
    }

    private record Letter(String value, Map<String, byte[]> headers)
    {
        String header(final String name)
        {
            final byte[] value = headers.get(name);
            return value == null ? null : new String(value, UTF_8);
        }
    }

    private static List<Letter> letters(final ClusterNode node)
    {
        final PartitionLog log = node.engine().streams().topics().topic(DEAD_LETTERS).partition(0);
        final List<Letter> letters = new ArrayList<>();
        try (LogReader reader = log.newReader())
        {
            RecordView record;
            while ((record = reader.next()) != null)
            {
                letters.add(new Letter(new String(record.valueBytes(), UTF_8),
                    HeadersCodec.decode(record.buffer(), record.headersOffset(), record.headersLength())));
            }
        }
        return letters;
    }

    private static List<DeadLetterCopies.OwedCopy> owed(final ClusterNode node)
    {
        try
        {
            return node.owedDeadLetterCopies(WHERE);
        }
        catch (final IOException notYet)
        {
            throw new UncheckedIOException(notYet);
        }
    }
}
