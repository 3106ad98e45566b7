package io.spool.cluster;

import io.spool.testing.SlowTest;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.message.DescribeGroupsRequestData;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeGroupsRequest;
import org.apache.kafka.common.requests.DescribeGroupsResponse;
import org.apache.kafka.common.requests.FindCoordinatorRequest;
import org.apache.kafka.common.requests.FindCoordinatorResponse;
import org.apache.kafka.common.requests.HeartbeatRequest;
import org.apache.kafka.common.requests.HeartbeatResponse;
import org.apache.kafka.common.requests.OffsetCommitRequest;
import org.apache.kafka.common.requests.OffsetCommitResponse;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.ratis.client.RaftClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Three nodes in this JVM, each with a Kafka listener, and stock {@link KafkaConsumer}s that {@code subscribe} with a
 * {@code group.id}: the node leading the metadata group coordinates the group, the others send clients to it, and
 * when it is stopped or the leadership moves the members rejoin the next one and resume from the offsets they
 * committed.
 */
@SlowTest
class KafkaGroupsTest
{
    private static final String TOPIC = "orders";
    private static final int PARTITIONS = 4;
    private static final int RECORDS = 200;
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private final Map<Integer, ClusterNode> nodes = new TreeMap<>();
    private final Map<Integer, String> kafkaAddresses = new TreeMap<>();
    /** Closed before the nodes, last opened first. */
    private final List<AutoCloseable> clients = new ArrayList<>();
    private ClusterMembers members;
    private Admin admin;

    @AfterEach
    void stop() throws Exception
    {
        Collections.reverse(clients);
        for (final AutoCloseable client : clients)
        {
            client.close();
        }
        TestNodes.closeAll(nodes.values());
    }

    @Test
    void twoSubscribedConsumersSplitThePartitionsAndResumeFromTheirCommitsWhenTheCoordinatorIsStopped()
        throws Exception
    {
        startCluster();
        resumeOnTheNextCoordinator(coordinator -> nodes.remove(coordinator).close());
    }

    @Test
    void twoSubscribedConsumersResumeFromTheirCommitsWhenTheMetadataGroupsLeadershipMovesToALiveNode()
        throws Exception
    {
        startCluster();
        resumeOnTheNextCoordinator(this::moveMetadataLeadership);
    }

    /**
     * Two members of a group split the topic and commit what they consume; {@code lose} takes the coordinator away.
     * They rejoin the next one and consume what is produced after, and the group has consumed every record, none
     * again after its commit was confirmed.
     */
    private void resumeOnTheNextCoordinator(final IntConsumer lose) throws Exception
    {
        final GroupHistory history = new GroupHistory();
        final KafkaConsumer<byte[], byte[]> first = consumer("billing");
        final KafkaConsumer<byte[], byte[]> second = consumer("billing");
        first.subscribe(List.of(TOPIC));
        second.subscribe(List.of(TOPIC));
        final List<KafkaConsumer<byte[], byte[]>> group = List.of(first, second);
        consumeUntil(group, history, () -> first.assignment().size() == 2 && second.assignment().size() == 2,
            "each consumer was assigned two partitions");
        final Set<TopicPartition> split = new HashSet<>(first.assignment());
        split.addAll(second.assignment());
        assertThat(split).as("the partitions the two were assigned").hasSize(PARTITIONS);

        final KafkaProducer<byte[], byte[]> producer = producer();
        produce(producer, 0, RECORDS);
        consumeUntil(group, history, () -> committedRecords(history) == RECORDS, "every record was committed");

        final int coordinator = describe("billing").coordinator().id();
        assertThat(coordinator).as("the coordinator Admin found")
            .isEqualTo(nodes.values().iterator().next().metadataLeader());
        lose.accept(coordinator);

        produce(producer, RECORDS, RECORDS);
        consumeUntil(group, history, () -> committedRecords(history) == 2 * RECORDS && !first.assignment().isEmpty() &&
            !second.assignment().isEmpty(), "the consumers rejoined and committed every record");

        final ConsumerGroupDescription resumed = describe("billing");
        assertThat(resumed.coordinator().id()).as("the next coordinator").isNotEqualTo(coordinator);
        assertThat(resumed.members()).hasSize(2);
        final Set<String> produced = new HashSet<>();
        for (int i = 0; i < 2 * RECORDS; i++)
        {
            produced.add(value(i));
        }
        assertThat(history.consumedValues()).as("records the group consumed").isEqualTo(produced);
        assertThat(history.consumedAgainAfterTheirCommit()).as("records consumed again after their commit").isEmpty();
    }

    /** Hands the metadata group's leadership from {@code leader} to another node, and waits until every node knows. */
    private void moveMetadataLeadership(final int leader)
    {
        final int next = nodes.keySet().stream().filter(id -> id != leader).findFirst().orElseThrow();
        try (RaftClient raft = RaftClient.newBuilder().setProperties(RaftSettings.client())
            .setRaftGroup(new ClusterGroups(members).metadata()).build())
        {
            assertThat(raft.admin().transferLeadership(ClusterGroups.peerId(next), 10_000).isSuccess())
                .as("the metadata group's leadership went to node " + next).isTrue();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        Eventually.holds(() -> nodes.values().stream().allMatch(node -> node.metadataLeader() == next), WAIT,
            () -> "every node names node " + next + " the metadata group's leader");
    }

    @Test
    void anotherNodeSendsGroupRequestsToTheCoordinatorAndAdminDescribesTheGroupThroughAnyNode() throws Exception
    {
        startCluster();
        final GroupHistory history = new GroupHistory();
        final KafkaConsumer<byte[], byte[]> consumer = consumer("audit");
        consumer.subscribe(List.of(TOPIC));
        produce(producer(), 0, 8);
        consumeUntil(List.of(consumer), history, () -> committedRecords(history) == 8, "every record was committed");

        final int coordinator = nodes.values().iterator().next().metadataLeader();
        final int other = nodes.keySet().stream().filter(id -> id != coordinator).findFirst().orElseThrow();
        final String otherAddress = kafkaAddresses.get(other);
        final FindCoordinatorResponseData.Coordinator found = ((FindCoordinatorResponse)RawKafka.exchange(otherAddress,
            new FindCoordinatorRequest.Builder(new FindCoordinatorRequestData().setKeyType((byte)0)
                .setCoordinatorKeys(List.of("audit"))).build((short)4))).data().coordinators().get(0);
        assertThat(found.nodeId()).isEqualTo(coordinator);
        assertThat(found.host() + ":" + found.port()).isEqualTo(kafkaAddresses.get(coordinator));

        final DescribeGroupsResponse described = (DescribeGroupsResponse)RawKafka.exchange(otherAddress,
            new DescribeGroupsRequest.Builder(new DescribeGroupsRequestData().setGroups(List.of("audit")))
                .build((short)5));
        assertThat(Errors.forCode(described.data().groups().get(0).errorCode())).isEqualTo(Errors.NOT_COORDINATOR);
        final HeartbeatResponse heartbeat = (HeartbeatResponse)RawKafka.exchange(otherAddress,
            new HeartbeatRequest.Builder(new HeartbeatRequestData().setGroupId("audit").setMemberId("someone")
                .setGenerationId(1)).build((short)4));
        assertThat(heartbeat.error()).isEqualTo(Errors.NOT_COORDINATOR);
        final OffsetCommitResponse commit = (OffsetCommitResponse)RawKafka.exchange(otherAddress,
            OffsetCommitRequest.Builder.forTopicNames(new OffsetCommitRequestData().setGroupId("audit")
                .setGenerationIdOrMemberEpoch(1).setMemberId("someone").setTopics(List.of(
                    new OffsetCommitRequestData.OffsetCommitRequestTopic().setName(TOPIC).setPartitions(List.of(
                        new OffsetCommitRequestData.OffsetCommitRequestPartition().setPartitionIndex(0)
                            .setCommittedOffset(0)))))).build((short)9));
        assertThat(commit.errorCounts()).containsOnlyKeys(Errors.NOT_COORDINATOR);

        final List<String> listed = admin.listConsumerGroups().all().get(10, TimeUnit.SECONDS).stream()
            .map(ConsumerGroupListing::groupId).toList();
        assertThat(listed).containsExactly("audit");
        final ConsumerGroupDescription group = describe("audit");
        assertThat(group.groupState()).isEqualTo(GroupState.STABLE);
        assertThat(group.coordinator().id()).isEqualTo(coordinator);
        assertThat(group.members()).singleElement()
            .satisfies(member -> assertThat(member.assignment().topicPartitions()).hasSize(PARTITIONS));
        final Map<TopicPartition, OffsetAndMetadata> offsets =
            admin.listConsumerGroupOffsets("audit").partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
        final Map<TopicPartition, Long> committed = new HashMap<>();
        offsets.forEach((partition, offset) -> committed.put(partition, offset.offset()));
        assertThat(committed).isEqualTo(history.confirmedCommits());
        assertThatThrownBy(() -> admin.deleteConsumerGroups(List.of("audit")).all().get(10, TimeUnit.SECONDS))
            .as("deleting a group with a member").isInstanceOf(ExecutionException.class)
            .cause().isInstanceOf(GroupNotEmptyException.class);

        try (Admin throughOther = Admin.create(clientProps(otherAddress)))
        {
            assertThat(throughOther.describeConsumerGroups(List.of("audit")).all().get(10, TimeUnit.SECONDS)
                .get("audit").coordinator().id()).isEqualTo(coordinator);
        }
    }

    @Test
    void aConsumerOfTheKip848ProtocolIsToldTheClusterDoesNotSupportIt() throws Exception
    {
        startCluster();
        final Properties props = clientProps(String.join(",", kafkaAddresses.values()));
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "newer");
        props.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer");
        final KafkaConsumer<byte[], byte[]> consumer = track(new KafkaConsumer<>(props));
        consumer.subscribe(List.of(TOPIC));
        assertThatThrownBy(() -> consumer.poll(Duration.ofSeconds(10)))
            .isInstanceOf(UnsupportedVersionException.class);
    }

    /** Three nodes with Kafka listeners, every one announced, and the topic created through Kafka's Admin. */
    private void startCluster() throws Exception
    {
        members = LoopbackPorts.members(3);
        for (final ClusterMembers.Member member : members.members())
        {
            final ClusterNode node = ClusterNode.start(TestNodes.withKafka(members, member.id(), dir));
            nodes.put(member.id(), node);
            kafkaAddresses.put(member.id(), "127.0.0.1:" + node.server().kafkaListener().port());
        }
        admin = track(Admin.create(clientProps(String.join(",", kafkaAddresses.values()))));
        Eventually.holds(() -> brokers() == 3, WAIT, () -> "every node's listener was announced");
        admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short)3))).all().get(30, TimeUnit.SECONDS);
    }

    private int brokers()
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

    private Properties clientProps(final String bootstrap)
    {
        final Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, 50);
        props.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 200);
        return props;
    }

    /**
     * A member of {@code group} that commits itself, starts at the first offset when the group has no commit (so a
     * lost commit shows as records consumed again) and is soon found gone when it stops heartbeating.
     */
    private KafkaConsumer<byte[], byte[]> consumer(final String group)
    {
        final Properties props = clientProps(String.join(",", kafkaAddresses.values()));
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 6_000);
        props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 500);
        return track(new KafkaConsumer<>(props));
    }

    private KafkaProducer<byte[], byte[]> producer()
    {
        final Properties props = clientProps(String.join(",", kafkaAddresses.values()));
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        return track(new KafkaProducer<>(props));
    }

    /** Sends {@code count} records numbered from {@code from}, round the partitions, and waits for every ack. */
    private static void produce(final KafkaProducer<byte[], byte[]> producer, final int from, final int count)
        throws Exception
    {
        for (int i = from; i < from + count; i++)
        {
            producer.send(new ProducerRecord<>(TOPIC, i % PARTITIONS, null, value(i).getBytes(StandardCharsets.UTF_8)));
        }
        producer.flush();
    }

    /**
     * Polls each consumer in turn, committing what each poll returned, until {@code done}. A commit refused because
     * the group is rebalancing or the member is no longer known to the coordinator is left to the member that gets
     * the partition next, which consumes those records again.
     */
    private static void consumeUntil(final List<KafkaConsumer<byte[], byte[]>> consumers, final GroupHistory history,
        final BooleanSupplier done, final String why)
    {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        while (!done.getAsBoolean())
        {
            assertThat(System.nanoTime()).as(why + " within " + WAIT).isLessThan(deadline);
            for (final KafkaConsumer<byte[], byte[]> consumer : consumers)
            {
                final ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
                final Map<TopicPartition, OffsetAndMetadata> next = new HashMap<>();
                for (final ConsumerRecord<byte[], byte[]> record : records)
                {
                    history.consumed(record);
                    next.put(new TopicPartition(record.topic(), record.partition()),
                        new OffsetAndMetadata(record.offset() + 1));
                }
                if (next.isEmpty())
                {
                    continue;
                }
                try
                {
                    consumer.commitSync(next);
                    history.committed(next);
                }
                catch (final CommitFailedException | RebalanceInProgressException refused)
                {
                    // the records are consumed again by the partition's next owner, from the last commit
                }
            }
        }
    }

    /** The records below the group's confirmed commits: every record, once each has been committed. */
    private static long committedRecords(final GroupHistory history)
    {
        return history.confirmedCommits().values().stream().mapToLong(Long::longValue).sum();
    }

    private ConsumerGroupDescription describe(final String group) throws Exception
    {
        return admin.describeConsumerGroups(List.of(group)).all().get(10, TimeUnit.SECONDS).get(group);
    }

    private <T extends AutoCloseable> T track(final T client)
    {
        clients.add(client);
        return client;
    }

    private static String value(final int i)
    {
        return "record-" + i;
    }
}
