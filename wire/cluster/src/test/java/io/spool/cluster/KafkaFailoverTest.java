package io.spool.cluster;

import io.spool.testing.CrashTest;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Three nodes as child JVMs, each with a Kafka listener: stock Kafka clients create a topic through {@link Admin},
 * and a default idempotent {@link KafkaProducer} (acks=all) sends while the partition's leader is SIGKILLed and
 * started again. Every acknowledged record is read back by a {@link KafkaConsumer} exactly once, in order, at the
 * offset it was acknowledged with, and Metadata names the new leader.
 */
@CrashTest
class KafkaFailoverTest extends ChildNodesTest
{
    private static final String TOPIC = "orders";
    private static final int RECORDS = 3_000;
    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void anIdempotentProducersAcknowledgedRecordsAreReadOnceInOrderAcrossAKilledLeader() throws Exception
    {
        try (Admin admin = launchWithTopic())
        {
            assertThat(describe(admin).partitions().get(0).replicas()).extracting(Node::id)
                .containsExactlyInAnyOrder(1, 2, 3);
            final int leader = awaitLeader(admin, -1);

            final Map<Integer, Long> acknowledged = new ConcurrentHashMap<>();
            final AtomicInteger failed = new AtomicInteger();
            try (KafkaProducer<byte[], byte[]> producer = producer())
            {
                for (int i = 0; i < RECORDS; i++)
                {
                    final int number = i;
                    producer.send(new ProducerRecord<>(TOPIC, 0, null, value(i)), (metadata, failure) ->
                    {
                        if (failure == null)
                        {
                            acknowledged.put(number, metadata.offset());
                        }
                        else
                        {
                            failed.incrementAndGet();
                        }
                    });
                    if (i == RECORDS / 3)
                    {
                        Eventually.holds(() -> acknowledged.size() > RECORDS / 6, WAIT, () -> "records were acked");
                        cluster.node(leader).kill();
                        final int successor = awaitLeader(admin, leader);
                        assertThat(successor).as("the new leader Metadata names").isNotEqualTo(leader);
                    }
                    if (i == 2 * RECORDS / 3)
                    {
                        cluster.node(leader).start();
                    }
                }
                producer.flush();
            }
            assertThat(failed.get()).as("records the producer gave up on").isZero();
            assertThat(acknowledged).hasSize(RECORDS);

            final List<ConsumerRecord<byte[], byte[]>> read = readAll(RECORDS);
            assertThat(read).hasSize(RECORDS);
            for (int i = 0; i < RECORDS; i++)
            {
                assertThat(new String(read.get(i).value(), StandardCharsets.UTF_8))
                    .as("record at offset %d", read.get(i).offset()).isEqualTo("record-" + i);
                assertThat(read.get(i).offset()).isEqualTo(acknowledged.get(i));
            }
        }
    }

    @Test
    void aFollowerRefusesProduceNamingTheLeaderAndTheClusterRefusesWhatItCannotDo() throws Exception
    {
        try (Admin admin = launchWithTopic())
        {
            final int leader = awaitLeader(admin, -1);
            final NodeProcess follower = cluster.nodes().stream().filter(node -> node.nodeId() != leader)
                .findFirst().orElseThrow();

            final RawProduce.Answer answer = RawProduce.send(follower.kafkaAddress(), TOPIC, 0, value(1));
            assertThat(answer.error()).isEqualTo("NOT_LEADER_OR_FOLLOWER");
            assertThat(answer.currentLeader()).isEqualTo(leader);
            assertThat(answer.leaderAddress()).isEqualTo(cluster.node(leader).kafkaAddress());

            assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic("pairs", 1, (short)2))).all().get())
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(InvalidReplicationFactorException.class)
                .hasMessageContaining("must be odd");
            assertThatThrownBy(() -> admin.deleteTopics(List.of("missing")).all().get())
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(UnknownTopicOrPartitionException.class)
                .hasMessageContaining("no topic missing");
        }
    }

    @Test
    void anAssignedConsumersCommittedOffsetIsReadBackByAConsumerBootstrappedFromAnotherNode() throws Exception
    {
        try (Admin admin = launchWithTopic())
        {
            awaitLeader(admin, -1);
            try (KafkaProducer<byte[], byte[]> producer = producer())
            {
                producer.send(new ProducerRecord<>(TOPIC, 0, null, value(0))).get(30, TimeUnit.SECONDS);
                producer.send(new ProducerRecord<>(TOPIC, 0, null, value(1))).get(30, TimeUnit.SECONDS);
            }
            final TopicPartition partition = new TopicPartition(TOPIC, 0);
            try (KafkaConsumer<byte[], byte[]> first = consumer(cluster.node(1).kafkaAddress(), "billing"))
            {
                first.assign(List.of(partition));
                first.commitSync(Map.of(partition, new OffsetAndMetadata(2)));
            }
            try (KafkaConsumer<byte[], byte[]> second = consumer(cluster.node(3).kafkaAddress(), "billing"))
            {
                assertThat(second.committed(java.util.Set.of(partition)).get(partition).offset()).isEqualTo(2);
            }
        }
    }

    /** Three nodes with Kafka listeners, and the topic created through Kafka's Admin once every node is listed. */
    private Admin launchWithTopic() throws Exception
    {
        cluster = ChildNodes.launchWithKafka(dir, 3);
        final Admin admin = Admin.create(common());
        try
        {
            Eventually.holds(() -> brokers(admin).size() == 3, WAIT, () -> "every node's listener was announced");
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short)3))).all().get(30, TimeUnit.SECONDS);
            return admin;
        }
        catch (final Exception | Error ex)
        {
            admin.close();
            throw ex;
        }
    }

    private Properties common()
    {
        final Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.kafkaBootstrap());
        props.put(AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, 50);
        props.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 200);
        return props;
    }

    /** The default producer (idempotent, acks=all), with small batches so that many are in flight at the kill. */
    private KafkaProducer<byte[], byte[]> producer()
    {
        final Properties props = common();
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 512);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 1);
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000);
        return new KafkaProducer<>(props);
    }

    /** A consumer of {@code group} (null for none) bootstrapped from {@code bootstrap}. */
    private static KafkaConsumer<byte[], byte[]> consumer(final String bootstrap, final String group)
    {
        final Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        if (group != null)
        {
            props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
            props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        }
        return new KafkaConsumer<>(props);
    }

    private List<ConsumerRecord<byte[], byte[]>> readAll(final int count)
    {
        final List<ConsumerRecord<byte[], byte[]>> read = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(cluster.kafkaBootstrap(), null))
        {
            final TopicPartition partition = new TopicPartition(TOPIC, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            final long deadline = System.nanoTime() + WAIT.toNanos();
            // a few polls past the count, so that a duplicate behind the last expected record would show
            while (read.size() < count && System.nanoTime() < deadline)
            {
                consumer.poll(Duration.ofMillis(200)).forEach(read::add);
            }
            consumer.poll(Duration.ofMillis(500)).forEach(read::add);
        }
        return read;
    }

    /** Waits until Metadata names a leader other than {@code not}, and returns it. */
    private static int awaitLeader(final Admin admin, final int not) throws Exception
    {
        final int[] leader = {-1};
        Eventually.holds(() ->
        {
            try
            {
                final Node named = describe(admin).partitions().get(0).leader();
                leader[0] = named == null ? -1 : named.id();
            }
            catch (final AssertionError unanswered)
            {
                return false; // the node asked may be the one just killed; the next look asks another
            }
            return leader[0] > 0 && leader[0] != not;
        }, WAIT, () -> "Metadata named a leader other than " + not);
        return leader[0];
    }

    private static TopicDescription describe(final Admin admin)
    {
        try
        {
            return admin.describeTopics(List.of(TOPIC)).allTopicNames().get(10, TimeUnit.SECONDS).get(TOPIC);
        }
        catch (final Exception ex)
        {
            throw new AssertionError("describing " + TOPIC + " failed", ex);
        }
    }

    private static List<Node> brokers(final Admin admin)
    {
        try
        {
            return new ArrayList<>(admin.describeCluster().nodes().get(10, TimeUnit.SECONDS));
        }
        catch (final Exception ex)
        {
            throw new AssertionError("describing the cluster failed", ex);
        }
    }

    private static byte[] value(final int i)
    {
        return ("record-" + i).getBytes(StandardCharsets.UTF_8);
    }
}
