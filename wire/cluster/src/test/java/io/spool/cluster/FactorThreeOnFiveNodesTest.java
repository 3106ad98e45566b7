package io.spool.cluster;

import io.spool.api.InvalidRequestException;
import io.spool.api.MetricSample;
import io.spool.api.queue.ConsumerOptions;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.ConsumerRecord;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicDescription;
import io.spool.api.stream.TopicPartition;
import io.spool.testing.SlowTest;
import io.spool.wire.client.ClientConfig;
import io.spool.wire.client.RemoteDeliveryListener;
import io.spool.wire.client.RemoteStreamConsumer;
import io.spool.wire.client.SpoolClient;
import io.spool.wire.server.ServerConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.IntStream;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Five nodes in this JVM, each with a Kafka listener, and a topic of five partitions with replication factor 3:
 * each partition lives on three of the five nodes, every node holds some. Records, queue deliveries and committed
 * offsets work on every partition wherever it is placed; a node holding no copy of a partition describes it as held
 * by the nodes that hold it, refuses a native read of it, a node-local subscription of its topic and a group's
 * commit in it naming those nodes, and its Kafka listener names the partition's replicas and leader, where
 * a consumer then fetches. One of a partition's three nodes lost, it goes on; two lost, it waits while the
 * partitions placed elsewhere go on; with three of five lost, a partition with two of its nodes left still confirms.
 */
@SlowTest
class FactorThreeOnFiveNodesTest
{
    private static final String TOPIC = "orders";
    private static final int PARTITIONS = 5;
    private static final int FACTOR = 3;
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** How long a publish to a partition with no majority of its nodes is watched not to confirm. */
    private static final Duration NO_MAJORITY_WATCH = Duration.ofSeconds(2);

    @TempDir
    Path dir;

    private InJvmCluster cluster;
    private ClusterClient client;
    private ClusterGroups groups;

    @BeforeEach
    void startWithTopic()
    {
        cluster = new InJvmCluster(5, dir, config -> new ClusterNodeConfig(config.nodeId(), config.members(),
            config.dataDir(), ServerConfig.builder().port(0).kafka("127.0.0.1", 0), TestNodes.ELECTION_TIMEOUT))
            .startAll();
        client = ClusterClient.connect(cluster.members());
        client.createTopic(TOPIC, FACTOR, TopicConfig.of(PARTITIONS));
        groups = new ClusterGroups(cluster.members());
    }

    @AfterEach
    void stop()
    {
        client.close();
        cluster.close();
    }

    @Test
    void eachPartitionLivesOnThreeDistinctNodesAndEveryNodeHoldsSome()
    {
        final Set<Integer> holding = new TreeSet<>();
        for (int partition = 0; partition < PARTITIONS; partition++)
        {
            assertThat(new HashSet<>(holders(partition))).as("nodes of partition %d", partition).hasSize(FACTOR);
            holding.addAll(holders(partition));
        }
        assertThat(holding).containsExactly(1, 2, 3, 4, 5);
        for (final ClusterNode node : cluster.nodes())
        {
            final long placed = IntStream.range(0, PARTITIONS).filter(p -> holders(p).contains(node.nodeId())).count();
            assertThat(placed).as("partitions placed on node %d", node.nodeId()).isEqualTo(3);
            Eventually.holds(() -> groupsOf(node, "spool_cluster_groups") == 1 + placed &&
                    groupsOf(node, "spool_cluster_leaderless_groups") == 0, WAIT,
                () -> "node " + node.nodeId() + " in the metadata group and the groups of its " + placed +
                    " partitions, each with a leader");
        }
    }

    @Test
    void recordsQueueDeliveriesAndCommittedOffsetsWorkOnEveryPartitionWhereverItIsPlaced() throws Exception
    {
        publishTwoToEveryPartition();
        for (int partition = 0; partition < PARTITIONS; partition++)
        {
            for (final int holder : holders(partition))
            {
                assertThat(readNatively(holder, partition)).as("partition %d read on node %d", partition, holder)
                    .containsExactly(partition + "-a", partition + "-b");
            }
        }

        client.createSubscription(TOPIC, "billing", SubscriptionSettings.DEFAULT);
        for (int partition = 0; partition < PARTITIONS; partition++)
        {
            final List<ClusterDelivery> deliveries = client.receive(TOPIC, partition, "billing", 10, 30_000);
            assertThat(deliveries).extracting(ClusterDelivery::offset).containsExactly(0L, 1L);
            deliveries.forEach(delivery -> client.ack(delivery.receipt()));
            assertThat(client.receive(TOPIC, partition, "billing", 10, 30_000)).as("acked, never again").isEmpty();

            client.commitOffset("audit", TOPIC, partition, 2);
            assertThat(client.committedOffset("audit", TOPIC, partition)).isEqualTo(2);
        }
    }

    @Test
    void aNodeHoldingNoCopyRefusesANativeReadNamingItsHoldersAndKafkaClientsAreSentToTheLeader() throws Exception
    {
        publishTwoToEveryPartition();
        final List<Integer> holders = holders(0);
        final int outsider = outsiderOf(0);
        try (SpoolClient reader = SpoolClient.connect(ClientConfig.builder()
                .port(cluster.node(outsider).server().port()).build());
             RemoteStreamConsumer stream = reader.newStreamReader())
        {
            final TopicPartition partition = new TopicPartition(TOPIC, 0);
            stream.assign(List.of(partition));
            stream.seek(partition, 0);
            assertThatThrownBy(() -> stream.poll(10, 1 << 20, WAIT))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("node " + outsider + " holds no copy of " + TOPIC + "-0 (replication factor 3 " +
                    "of the cluster's 5 nodes): read it from node " + holders.get(0) + ", " + holders.get(1) + " or " +
                    holders.get(2) + ", which hold it");
        }

        for (final ClusterNode node : cluster.nodes())
        {
            Eventually.holds(() -> describesEveryPartitionRightly(node), WAIT, () -> "node " + node.nodeId() +
                " names each partition's replicas and leader, but says " + describe(node));
        }

        final int leader = client.leaderOf(TOPIC, 0);
        cluster.stop(leader);
        assertThat(send(0, "0-c").get(WAIT.toSeconds(), TimeUnit.SECONDS).baseOffset()).isEqualTo(2);
        final int successor = client.leaderOf(TOPIC, 0);
        Eventually.holds(() -> describe(cluster.node(outsider)).get(0).leader() == successor, WAIT,
            () -> "node " + outsider + " names the new leader " + successor + " of partition 0, but says " +
                describe(cluster.node(outsider)).get(0));

        final Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafkaAddress(outsider));
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props))
        {
            final org.apache.kafka.common.TopicPartition partition =
                new org.apache.kafka.common.TopicPartition(TOPIC, 0);
            consumer.assign(List.of(partition));
            consumer.seek(partition, 0);
            final List<String> read = new ArrayList<>();
            Eventually.holds(() ->
            {
                consumer.poll(Duration.ofMillis(100)).forEach(record -> read.add(new String(record.value(), UTF_8)));
                return read.size() >= 3;
            }, WAIT, () -> "a consumer bootstrapped at node " + outsider + " read " + read);
            assertThat(read).containsExactly("0-a", "0-b", "0-c");
        }
    }

    @Test
    void aPartitionServesWithOneOfItsThreeNodesLostAndWaitsWithTwoLostWhileThoseElsewhereGoOn() throws Exception
    {
        final List<Integer> holders = holders(0);
        cluster.stop(holders.get(0));
        for (int partition = 0; partition < PARTITIONS; partition++)
        {
            assertThat(send(partition, "one-lost").get(WAIT.toSeconds(), TimeUnit.SECONDS).count())
                .as("partition %d with node %d stopped", partition, holders.get(0)).isEqualTo(1);
        }

        cluster.stop(holders.get(1));
        final List<Integer> stopped = List.of(holders.get(0), holders.get(1));
        final CompletableFuture<ClusterProducer.Confirm> waiting = send(0, "two-lost");
        int servedElsewhere = 0;
        for (int partition = 1; partition < PARTITIONS; partition++)
        {
            if (!holders(partition).containsAll(stopped))
            {
                assertThat(send(partition, "two-lost").get(WAIT.toSeconds(), TimeUnit.SECONDS).count())
                    .as("partition %d, on %s, with nodes %s stopped", partition, holders(partition), stopped)
                    .isEqualTo(1);
                servedElsewhere++;
            }
        }
        // two nodes are both in at most two of the five partitions
        assertThat(servedElsewhere).as("partitions that lost at most one of their nodes").isGreaterThanOrEqualTo(3);
        assertThatThrownBy(() -> waiting.get(NO_MAJORITY_WATCH.toMillis(), TimeUnit.MILLISECONDS))
            .as("a publish to partition 0 with two of its three nodes stopped").isInstanceOf(TimeoutException.class);

        cluster.start(holders.get(1));
        assertThat(waiting.get(WAIT.toSeconds(), TimeUnit.SECONDS).baseOffset())
            .as("the waiting publish, once two of partition 0's nodes are up").isEqualTo(1);
    }

    /** The metadata group has no majority then, but a client that knows the topic needs none of it. */
    @Test
    void withThreeOfFiveLostAPartitionWithTwoOfItsNodesLeftStillConfirms() throws Exception
    {
        final List<Integer> holders = holders(0);
        IntStream.rangeClosed(1, 5).filter(id -> id != holders.get(0) && id != holders.get(1)).forEach(cluster::stop);

        assertThat(send(0, "three-lost").get(WAIT.toSeconds(), TimeUnit.SECONDS).baseOffset())
            .as("partition 0 with its nodes %s and %s left", holders.get(0), holders.get(1)).isZero();
    }

    /** The partition's nodes, by id. */
    /**
     * A node's native server describes each partition it holds no copy of as held by the nodes that do, and refuses
     * a node-local subscription of the topic (created, received from, consumed) and a group's commit in such a
     * partition with the message its reads get; a commit in a partition it holds is taken.
     */
    @Test
    void aNodeHoldingNoCopyDescribesItAsHeldElsewhereAndRefusesItsSubscriptionsAndCommits() throws Exception
    {
        publishTwoToEveryPartition();
        final int outsider = outsiderOf(0);
        final int held = IntStream.range(0, PARTITIONS).filter(p -> holders(p).contains(outsider)).findFirst()
            .orElseThrow();
        final List<Integer> holders = holders(0);
        final String refusal = "node " + outsider + " holds no copy of " + TOPIC + "-0 (replication factor 3 of " +
            "the cluster's 5 nodes): read it from node " + holders.get(0) + ", " + holders.get(1) + " or " +
            holders.get(2) + ", which hold it";
        cluster.node(outsider).engine().createSubscription("local", TOPIC, SubscriptionSettings.DEFAULT);
        try (SpoolClient onOutsider = SpoolClient.connect(ClientConfig.builder()
                .port(cluster.node(outsider).server().port()).build()))
        {
            final TopicDescription described = onOutsider.admin().describeTopic(TOPIC);
            assertThat(described.partitions()).hasSize(PARTITIONS);
            for (final TopicDescription.PartitionDescription partition : described.partitions())
            {
                final boolean here = holders(partition.partition()).contains(outsider);
                assertThat(partition.heldElsewhere()).as("partition %d", partition.partition())
                    .isEqualTo(here ? List.of() : holders(partition.partition()));
                Eventually.holds(() -> !here || onOutsider.admin().describeTopic(TOPIC).partitions()
                    .get(partition.partition()).endOffset() == 2, WAIT,
                    () -> "node " + outsider + " describes the two records of partition " + partition.partition());
            }

            assertThatThrownBy(() -> onOutsider.admin().createSubscription("billing", TOPIC,
                SubscriptionSettings.DEFAULT))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining(refusal);
            assertThat(onOutsider.admin().listSubscriptions()).containsExactly("local");
            assertThatThrownBy(() -> onOutsider.subscription("local").receive(10, 0))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining(refusal);
            assertThatThrownBy(() -> onOutsider.subscription("local").consume(ConsumerOptions.prefetch(10),
                (RemoteDeliveryListener)(delivery, consumer) -> consumer.ack(delivery.receipt())))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining(refusal);
            assertThatThrownBy(() -> onOutsider.groups().commitStandalone("audit",
                Map.of(new TopicPartition(TOPIC, 0), 1L)))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining(refusal);
            onOutsider.groups().commitStandalone("audit", Map.of(new TopicPartition(TOPIC, held), 1L));
            assertThat(onOutsider.groups().committed("audit")).containsExactly(
                Map.entry(new TopicPartition(TOPIC, held), 1L));
        }
    }

    private List<Integer> holders(final int partition)
    {
        // the nodes are picked by the topic's name; its generation only tells its groups from a deleted namesake's
        return groups.partition(TOPIC, partition, FACTOR, 0).getPeers().stream()
            .map(peer -> ClusterGroups.nodeId(peer.getId())).sorted().toList();
    }

    private int outsiderOf(final int partition)
    {
        return IntStream.rangeClosed(1, 5).filter(id -> !holders(partition).contains(id)).findFirst().orElseThrow();
    }

    private static double groupsOf(final ClusterNode node, final String series)
    {
        return MetricSample.valueOf(node.clusterMetrics(), series, Map.of());
    }

    private void publishTwoToEveryPartition() throws Exception
    {
        final ClusterProducer producer = client.newProducer();
        for (int partition = 0; partition < PARTITIONS; partition++)
        {
            final List<ProducerRecord> records = List.of(
                ProducerRecord.toPartition(TOPIC, partition, null, (partition + "-a").getBytes(UTF_8)),
                ProducerRecord.toPartition(TOPIC, partition, null, (partition + "-b").getBytes(UTF_8)));
            assertThat(producer.send(TOPIC, partition, records).get(WAIT.toSeconds(), TimeUnit.SECONDS).baseOffset())
                .isZero();
        }
    }

    private CompletableFuture<ClusterProducer.Confirm> send(final int partition, final String value)
    {
        return client.newProducer().send(TOPIC, partition,
            List.of(ProducerRecord.toPartition(TOPIC, partition, null, value.getBytes(UTF_8))));
    }

    /** The partition's values as a {@code SpoolClient} reads them from the node's native server. */
    private List<String> readNatively(final int nodeId, final int partition)
    {
        final TopicPartition where = new TopicPartition(TOPIC, partition);
        try (SpoolClient reader = SpoolClient.connect(ClientConfig.builder()
                .port(cluster.node(nodeId).server().port()).build());
             RemoteStreamConsumer stream = reader.newStreamReader())
        {
            stream.assign(List.of(where));
            stream.seek(where, 0);
            final List<String> values = new ArrayList<>();
            Eventually.holds(() ->
            {
                for (final ConsumerRecord record : stream.poll(10, 1 << 20, Duration.ofMillis(100)))
                {
                    values.add(new String(record.value(), UTF_8));
                }
                return values.size() >= 2;
            }, WAIT, () -> "node " + nodeId + " served " + values + " of partition " + partition);
            return values;
        }
    }

    private boolean describesEveryPartitionRightly(final ClusterNode node)
    {
        final Map<Integer, RawMetadata.Partition> described = describe(node);
        for (int partition = 0; partition < PARTITIONS; partition++)
        {
            final RawMetadata.Partition told = described.get(partition);
            if (told == null || !told.error().equals("NONE") || !told.replicas().equals(holders(partition)) ||
                told.leader() != client.leaderOf(TOPIC, partition))
            {
                return false;
            }
        }
        return true;
    }

    private Map<Integer, RawMetadata.Partition> describe(final ClusterNode node)
    {
        try
        {
            return RawMetadata.describe(kafkaAddress(node.nodeId()), TOPIC);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private String kafkaAddress(final int nodeId)
    {
        final var listener = cluster.node(nodeId).server().kafkaListener();
        return listener.host() + ":" + listener.port();
    }
}
