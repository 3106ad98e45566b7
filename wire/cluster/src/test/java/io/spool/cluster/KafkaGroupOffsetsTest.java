package io.spool.cluster;

import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicPartition;
import io.spool.testing.SlowTest;
import io.spool.wire.kafka.KafkaCluster;
import io.spool.wire.kafka.KafkaListener;
import io.spool.wire.kafka.KafkaListenerConfig;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.OffsetCommitRequest;
import org.apache.kafka.common.requests.OffsetCommitResponse;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A group's committed offsets on a three-node cluster with Kafka listeners: a coordinator of an older epoch cannot
 * move them once a newer one has committed, and DeleteGroups removes them from every node, after which a consumer
 * of the group starts by its reset policy.
 */
@SlowTest
class KafkaGroupOffsetsTest
{
    private static final String TOPIC = "orders";
    private static final int PARTITIONS = 2;
    private static final int RECORDS = 10;
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private InJvmCluster cluster;
    private ClusterClient client;
    /** Closed before the cluster, last opened first. */
    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void stop() throws Exception
    {
        Collections.reverse(opened);
        for (final AutoCloseable closeable : opened)
        {
            closeable.close();
        }
        cluster.close();
    }

    @Test
    void aCoordinatorOfAnOlderEpochIsToldNotCoordinatorOnceANewerOneHasCommitted() throws Exception
    {
        start();
        final String newer = track(KafkaListener.start(cluster.node(1).engine(),
            KafkaListenerConfig.builder().nodeId(1).port(0).build(), new PosingCoordinator(1, 7))).bootstrapServers();
        final String older = track(KafkaListener.start(cluster.node(2).engine(),
            KafkaListenerConfig.builder().nodeId(2).port(0).build(), new PosingCoordinator(2, 5))).bootstrapServers();

        assertThat(commit(older, 2)).as("the older coordinator, first to commit").isEqualTo(Errors.NONE);
        assertThat(commit(newer, 6)).isEqualTo(Errors.NONE);
        assertThat(commit(older, 3)).as("the older coordinator, after the newer one committed")
            .isEqualTo(Errors.NOT_COORDINATOR);
        assertThat(client.committedOffset("billing", TOPIC, 0)).isEqualTo(6);

        client.commitOffset("billing", TOPIC, 0, 4);
        assertThat(client.committedOffset("billing", TOPIC, 0)).as("a ClusterClient's commit, never fenced")
            .isEqualTo(4);
        assertThat(commit(older, 5)).as("the older coordinator, after an unfenced commit")
            .isEqualTo(Errors.NOT_COORDINATOR);
        Eventually.holds(() -> cluster.nodes().stream().allMatch(node ->
                node.engine().streams().groups().committed("billing", new TopicPartition(TOPIC, 0)) == 4), WAIT,
            () -> "every node holds the last offset committed");
    }

    @Test
    void deletingAGroupRemovesItsOffsetsFromEveryNodeAndItsNextConsumerStartsByItsResetPolicy() throws Exception
    {
        start();
        final String bootstrap = String.join(",", cluster.nodes().stream()
            .map(node -> "127.0.0.1:" + node.server().kafkaListener().port()).toList());
        final Admin admin = track(Admin.create(adminProps(bootstrap)));
        Eventually.holds(() -> brokers(admin) == 3, WAIT, () -> "every node's listener was announced");
        final Set<String> firstRead;
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(bootstrap))
        {
            consumer.subscribe(List.of(TOPIC));
            firstRead = consumeAll(consumer);
            consumer.commitSync();
        }
        assertThat(offsets(admin)).hasSize(PARTITIONS);

        admin.deleteConsumerGroups(List.of("billing")).all().get(30, TimeUnit.SECONDS);
        assertThat(offsets(admin)).as("the group's offsets after its deletion").isEmpty();
        Eventually.holds(() -> cluster.nodes().stream().allMatch(node ->
                node.engine().streams().groups().committedOffsets("billing").isEmpty()), WAIT,
            () -> "no node holds an offset of the deleted group");
        assertThatThrownBy(() -> admin.deleteConsumerGroups(List.of("billing")).all().get(30, TimeUnit.SECONDS))
            .as("deleting it again").isInstanceOf(ExecutionException.class)
            .cause().isInstanceOf(GroupIdNotFoundException.class);

        try (KafkaConsumer<byte[], byte[]> consumer = consumer(bootstrap))
        {
            consumer.subscribe(List.of(TOPIC));
            assertThat(consumeAll(consumer)).as("what the group's next consumer reads, from the earliest offsets")
                .isEqualTo(firstRead);
        }
    }

    /** Three nodes with Kafka listeners and a topic of {@link #RECORDS} records on each partition. */
    private void start()
    {
        cluster = InJvmCluster.withServers(3, dir, server -> server.kafka("127.0.0.1", 0)).startAll();
        client = track(ClusterClient.connect(cluster.members()));
        client.createTopic(TOPIC, 3, TopicConfig.of(PARTITIONS));
        final ClusterProducer producer = client.newProducer();
        for (int partition = 0; partition < PARTITIONS; partition++)
        {
            final List<ProducerRecord> batch = new ArrayList<>();
            for (int i = 0; i < RECORDS; i++)
            {
                batch.add(ProducerRecord.toPartition(TOPIC, partition, null,
                    (partition + "-" + i).getBytes(StandardCharsets.UTF_8)));
            }
            producer.send(TOPIC, partition, batch).join();
        }
        Eventually.holds(() -> cluster.nodes().stream().allMatch(node ->
                node.engine().streams().listTopics().contains(TOPIC)), WAIT,
            () -> "every node has the topic");
    }

    /** An OffsetCommit of partition 0 for group billing without a generation, as an {@code assign} consumer sends. */
    private static Errors commit(final String listener, final long offset) throws IOException
    {
        final OffsetCommitResponse answer = (OffsetCommitResponse)RawKafka.exchange(listener,
            OffsetCommitRequest.Builder.forTopicNames(new OffsetCommitRequestData().setGroupId("billing")
                .setGenerationIdOrMemberEpoch(-1).setMemberId("").setTopics(List.of(
                    new OffsetCommitRequestData.OffsetCommitRequestTopic().setName(TOPIC).setPartitions(List.of(
                        new OffsetCommitRequestData.OffsetCommitRequestPartition().setPartitionIndex(0)
                            .setCommittedOffset(offset)))))).build((short)9));
        return Errors.forCode(answer.data().topics().get(0).partitions().get(0).errorCode());
    }

    /** Polls until the consumer has read every record of the topic; returns their values. */
    private static Set<String> consumeAll(final KafkaConsumer<byte[], byte[]> consumer)
    {
        final Set<String> values = new HashSet<>();
        final long deadline = System.nanoTime() + WAIT.toNanos();
        while (values.size() < PARTITIONS * RECORDS)
        {
            assertThat(System.nanoTime()).as("every record read within " + WAIT).isLessThan(deadline);
            for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100)))
            {
                values.add(new String(record.value(), StandardCharsets.UTF_8));
            }
        }
        return values;
    }

    private static Map<org.apache.kafka.common.TopicPartition, OffsetAndMetadata> offsets(final Admin admin)
        throws Exception
    {
        return admin.listConsumerGroupOffsets("billing").partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
    }

    private static int brokers(final Admin admin)
    {
        try
        {
            return admin.describeCluster().nodes().get(10, TimeUnit.SECONDS).size();
        }
        catch (final Exception ex)
        {
            throw new AssertionError("describing the cluster failed", ex);
        }
    }

    private static Properties adminProps(final String bootstrap)
    {
        final Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, 50);
        return props;
    }

    private static KafkaConsumer<byte[], byte[]> consumer(final String bootstrap)
    {
        final Properties props = adminProps(bootstrap);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "billing");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return new KafkaConsumer<>(props);
    }

    private <T extends AutoCloseable> T track(final T closeable)
    {
        opened.add(closeable);
        return closeable;
    }

    /**
     * A node's listener made to act as the group coordinator with a fixed epoch, as a node cut off from the others
     * believes it still is: its commits go through the partitions' groups as a coordinator's do.
     */
    private final class PosingCoordinator implements KafkaCluster
    {
        private final int nodeId;
        private final long epoch;

        PosingCoordinator(final int nodeId, final long epoch)
        {
            this.nodeId = nodeId;
            this.epoch = epoch;
        }

        @Override
        public int nodeId()
        {
            return nodeId;
        }

        @Override
        public List<Broker> brokers()
        {
            return List.of();
        }

        @Override
        public int groupCoordinator()
        {
            return nodeId;
        }

        @Override
        public long coordinatorEpoch()
        {
            return epoch;
        }

        @Override
        public boolean commitOffset(final String group, final TopicPartition partition, final long offset,
            final long coordinatorEpoch)
        {
            return client.commitOffset(group, partition.topic(), partition.partition(), offset, coordinatorEpoch);
        }

        @Override
        public long committedOffset(final String group, final TopicPartition partition)
        {
            return client.committedOffset(group, partition.topic(), partition.partition());
        }

        @Override
        public boolean deleteGroupOffset(final String group, final TopicPartition partition,
            final long coordinatorEpoch)
        {
            return client.deleteGroupOffset(group, partition, coordinatorEpoch);
        }

        @Override
        public Placement placement(final String topic, final int partition)
        {
            throw new UnsupportedOperationException("only offsets are committed through a posing coordinator");
        }

        @Override
        public CompletableFuture<Appended> append(final String topic, final int partition, final long producerId,
            final short producerEpoch, final int baseSequence, final List<ProducerRecord> records)
        {
            throw new UnsupportedOperationException("only offsets are committed through a posing coordinator");
        }

        @Override
        public long newProducerId()
        {
            throw new UnsupportedOperationException("only offsets are committed through a posing coordinator");
        }

        @Override
        public int defaultReplicationFactor()
        {
            return 3;
        }

        @Override
        public void checkReplicationFactor(final int replicationFactor)
        {
            throw new UnsupportedOperationException("only offsets are committed through a posing coordinator");
        }

        @Override
        public void createTopic(final String name, final int replicationFactor, final TopicConfig config)
        {
            throw new UnsupportedOperationException("only offsets are committed through a posing coordinator");
        }

        @Override
        public void deleteTopic(final String name)
        {
            throw new UnsupportedOperationException("only offsets are committed through a posing coordinator");
        }

        @Override
        public void alterTopicRetention(final String name, final long retentionMillis, final long retentionBytes)
        {
            throw new UnsupportedOperationException("only offsets are committed through a posing coordinator");
        }
    }
}
