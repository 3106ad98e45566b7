package io.spool.cluster;

import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.queue.UnknownSubscriptionException;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicPartition;
import io.spool.api.stream.UnknownTopicException;
import io.spool.testing.SlowTest;
import io.spool.wire.client.ClientConfig;
import io.spool.wire.client.SpoolClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Three nodes in this JVM: a topic deleted through the metadata group is gone from every node (its records, its
 * groups' Raft storage, its replicated subscriptions), also from a node that was down, and its name makes a new
 * topic.
 */
@SlowTest
class TopicDeletionTest
{
    private static final String TOPIC = "orders";
    private static final int PARTITIONS = 2;
    private static final int RECORDS = 5;
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path dir;
    private InJvmCluster cluster;

    @BeforeEach
    void startCluster()
    {
        cluster = new InJvmCluster(3, dir).startAll();
    }

    @AfterEach
    void stopCluster()
    {
        cluster.close();
    }

    @Test
    void aDeletedTopicIsGoneFromEveryNodeWithItsSubscriptionAndItsNameMakesANewTopic() throws Exception
    {
        try (ClusterClient client = ClusterClient.connect(cluster.members()))
        {
            createAndFill(client);
            client.createSubscription(TOPIC, "billing", SubscriptionSettings.builder().build());
            assertThat(client.receive(TOPIC, 0, "billing", 2, 60_000)).hasSize(2);
            final List<String> deletedGroups = groupDirectories(1, 0);

            client.deleteTopic(TOPIC);

            for (final ClusterNode node : cluster.nodes())
            {
                awaitGone(node);
            }
            assertThatThrownBy(() -> client.newProducer().send(TOPIC, 0, records(1)))
                .isInstanceOf(UnknownTopicException.class).hasMessageContaining("no topic " + TOPIC);

            client.createTopic(TOPIC, 3, TopicConfig.of(1));
            final ClusterProducer.Confirm confirm = client.newProducer().send(TOPIC, 0, records(1))
                .get(30, TimeUnit.SECONDS);
            assertThat(confirm.baseOffset()).as("the new topic's first offset").isZero();
            assertThatThrownBy(() -> client.receive(TOPIC, 0, "billing", 1, 60_000))
                .isInstanceOf(UnknownSubscriptionException.class);
            for (final ClusterNode node : cluster.nodes())
            {
                Eventually.holds(() -> endOffset(node) == 1, WAIT,
                    () -> "node " + node.nodeId() + " stores the new topic's record at offset 0");
                assertThat(groupDirectories(node.nodeId(), 0)).hasSize(1).doesNotContainAnyElementsOf(deletedGroups);
            }
        }
    }

    @Test
    void aClientThatKnewTheDeletedTopicPublishesToTheNewOneOfItsName() throws Exception
    {
        try (ClusterClient knowing = ClusterClient.connect(cluster.members());
             ClusterClient deleting = ClusterClient.connect(cluster.members()))
        {
            createAndFill(knowing);
            deleting.deleteTopic(TOPIC);
            deleting.createTopic(TOPIC, 3, TopicConfig.of(1));

            final ClusterProducer.Confirm confirm = knowing.newProducer().send(TOPIC, 0, records(1))
                .get(30, TimeUnit.SECONDS);

            assertThat(confirm.baseOffset()).as("the new topic's first offset").isZero();
            assertThat(knowing.endOffset(TOPIC, 0)).isEqualTo(1);
        }
    }

    @Test
    void deletingATopicTheClusterDoesNotHaveIsRefusedNamingIt()
    {
        try (ClusterClient client = ClusterClient.connect(cluster.members());
             SpoolClient nativeClient = SpoolClient.connect(ClientConfig.builder()
                 .port(cluster.node(2).server().port()).build()))
        {
            assertThatThrownBy(() -> client.deleteTopic("missing"))
                .isInstanceOf(UnknownTopicException.class).hasMessageContaining("no topic missing");
            assertThatThrownBy(() -> nativeClient.admin().deleteTopic("missing"))
                .isInstanceOf(UnknownTopicException.class).hasMessageContaining("no topic missing");
        }
    }

    @Test
    void aNodesNativeServerDeletesATopicThroughTheCluster() throws Exception
    {
        try (ClusterClient client = ClusterClient.connect(cluster.members());
             SpoolClient nativeClient = SpoolClient.connect(ClientConfig.builder()
                 .port(cluster.node(2).server().port()).build()))
        {
            createAndFill(client);

            nativeClient.admin().deleteTopic(TOPIC);

            for (final ClusterNode node : cluster.nodes())
            {
                awaitGone(node);
            }
        }
    }

    @Test
    void aNodeDownDuringTheDeleteRemovesTheTopicAndTakesTheNewOneWhenItStartsAgain() throws Exception
    {
        try (ClusterClient client = ClusterClient.connect(cluster.members()))
        {
            createAndFill(client);
            cluster.stop(3);

            client.deleteTopic(TOPIC);
            client.createTopic(TOPIC, 3, TopicConfig.of(1));
            client.newProducer().send(TOPIC, 0, records(1)).get(30, TimeUnit.SECONDS);
            awaitOnlyTheNewTopicOn(cluster.start(3));
        }
    }

    @Test
    void aRestartAfterASnapshotTakenPastTheDeleteDoesNotBringTheTopicBack() throws Exception
    {
        try (ClusterClient client = ClusterClient.connect(cluster.members()))
        {
            createAndFill(client);
            client.deleteTopic(TOPIC);
            for (final ClusterNode node : cluster.nodes())
            {
                awaitGone(node);
                node.takeMetadataSnapshot();
            }
        }
        cluster.close();
        cluster.startAll();
        try (ClusterClient client = ClusterClient.connect(cluster.members()))
        {
            for (final ClusterNode node : cluster.nodes())
            {
                assertThat(node.engine().streams().topics().topicOrNull(TOPIC)).as("node %d's topic", node.nodeId())
                    .isNull();
            }
            assertThatThrownBy(() -> client.deleteTopic(TOPIC)).isInstanceOf(UnknownTopicException.class);
            client.createTopic(TOPIC, 3, TopicConfig.of(1));
            assertThat(client.newProducer().send(TOPIC, 0, records(1)).get(30, TimeUnit.SECONDS).baseOffset())
                .isZero();
        }
    }

    @Test
    void aNodeGivenASnapshotTakenAfterTheDeleteRemovesTheTopicAndItsGroups() throws Exception
    {
        try (ClusterClient client = ClusterClient.connect(cluster.members()))
        {
            createAndFill(client);
            cluster.stop(3);
            client.deleteTopic(TOPIC);
            cluster.giveStoppedNodeTheMetadataSnapshotOf(1, 3);

            awaitGone(cluster.start(3));
        }
    }

    @Test
    void aNodeGivenASnapshotWithANewTopicOfTheNameReplacesItsCopyOfTheDeletedOne() throws Exception
    {
        try (ClusterClient client = ClusterClient.connect(cluster.members()))
        {
            createAndFill(client);
            cluster.stop(3);
            client.deleteTopic(TOPIC);
            client.createTopic(TOPIC, 3, TopicConfig.of(1));
            client.newProducer().send(TOPIC, 0, records(1)).get(30, TimeUnit.SECONDS);
            cluster.giveStoppedNodeTheMetadataSnapshotOf(1, 3);

            awaitOnlyTheNewTopicOn(cluster.start(3));
        }
    }

    /**
     * Waits until the node holds the one-partition topic created again with its one record, the same frames as node
     * 1, and the new topic's group only.
     */
    private void awaitOnlyTheNewTopicOn(final ClusterNode returned)
    {
        Eventually.holds(() -> endOffset(returned) == 1 && returned.engine().streams().topics().topic(TOPIC)
                .partitionCount() == 1, WAIT,
            () -> "the returned node holds the new one-partition topic with its one record");
        assertThat(StoredFrames.of(returned.engine(), TOPIC, 0))
            .containsExactlyElementsOf(StoredFrames.of(cluster.node(1).engine(), TOPIC, 0));
        Eventually.holds(() -> groupDirectories(returned.nodeId(), 0).equals(groupDirectories(1, 0)), WAIT,
            () -> "the returned node holds the new topic's group and not the deleted one's");
        assertThat(groupDirectories(returned.nodeId(), 1)).as("the deleted topic's second partition's group")
            .isEmpty();
    }

    /** Creates the topic and publishes {@link #RECORDS} records to each partition, held by every node. */
    private void createAndFill(final ClusterClient client) throws Exception
    {
        client.createTopic(TOPIC, 3, TopicConfig.of(PARTITIONS));
        final ClusterProducer producer = client.newProducer();
        for (int partition = 0; partition < PARTITIONS; partition++)
        {
            producer.send(TOPIC, partition, records(RECORDS)).get(30, TimeUnit.SECONDS);
        }
        for (final ClusterNode node : cluster.nodes())
        {
            Eventually.holds(() -> endOffset(node) == RECORDS, WAIT,
                () -> "node " + node.nodeId() + " stores the records");
        }
    }

    private static List<ProducerRecord> records(final int count)
    {
        final List<ProducerRecord> records = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            records.add(new ProducerRecord(TOPIC, 0, 1_000L + i, null, Map.of(), ("order " + i).getBytes(UTF_8)));
        }
        return records;
    }

    private void awaitGone(final ClusterNode node)
    {
        Eventually.holds(() -> node.engine().streams().topics().topicOrNull(TOPIC) == null, WAIT,
            () -> "node " + node.nodeId() + " deletes the topic from its engine");
        for (int partition = 0; partition < PARTITIONS; partition++)
        {
            final int of = partition;
            Eventually.holds(() -> groupDirectories(node.nodeId(), of).isEmpty(), WAIT,
                () -> "node " + node.nodeId() + " removes the Raft storage of partition " + of);
        }
    }

    private static long endOffset(final ClusterNode node)
    {
        final var topic = node.engine().streams().topics().topicOrNull(TOPIC);
        return topic == null ? -1 : topic.partition(0).endOffset();
    }

    /** The names of the partition's group directories on the node: its groups' ids. */
    private List<String> groupDirectories(final int nodeId, final int partition)
    {
        return RaftDirectories.ofPartition(cluster.directory(nodeId), cluster.members(),
                new TopicPartition(TOPIC, partition))
            .stream().map(directory -> directory.getFileName().toString()).toList();
    }
}
