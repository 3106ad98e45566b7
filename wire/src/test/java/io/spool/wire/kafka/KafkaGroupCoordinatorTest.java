package io.spool.wire.kafka;

import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicPartition;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.DeleteGroupsRequestData;
import org.apache.kafka.common.message.DeleteGroupsResponseData;
import org.apache.kafka.common.message.DescribeGroupsRequestData;
import org.apache.kafka.common.message.DescribeGroupsResponseData;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.HeartbeatResponseData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.ListGroupsRequestData;
import org.apache.kafka.common.message.ListGroupsResponseData;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.OffsetFetchResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A listener that is node 0 of a cluster whose group coordinator the test moves: FindCoordinator names the
 * coordinator or says there is none yet, group requests are served by the coordinator only, and a node that stops
 * coordinating forgets its groups' members.
 */
class KafkaGroupCoordinatorTest
{
    private static final KafkaCluster.Broker OTHER = new KafkaCluster.Broker(2, "10.0.0.2", 9092);

    private final AtomicInteger coordinator = new AtomicInteger(-1);
    private KafkaFixture kafka;

    @BeforeEach
    void start(@TempDir final Path dir)
    {
        kafka = new KafkaFixture(dir, KafkaListenerConfig.builder(), new MovingCoordinator());
    }

    @AfterEach
    void stop()
    {
        kafka.close();
    }

    @Test
    void findCoordinatorNamesTheCoordinatorsListenerOrSaysThereIsNoneYet() throws Exception
    {
        try (RawKafkaConnection raw = new RawKafkaConnection(kafka))
        {
            assertThat(findCoordinator(raw).errorCode()).as("while no leader is known")
                .isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE.code());
            final FindCoordinatorResponseData old = raw.call(ApiKeys.FIND_COORDINATOR, (short)3,
                new FindCoordinatorRequestData().setKey("billing"));
            assertThat(old.errorCode()).as("v3, while no leader is known")
                .isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE.code());

            coordinator.set(3);
            assertThat(findCoordinator(raw).errorCode()).as("a coordinator that has not announced its listener")
                .isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE.code());

            coordinator.set(OTHER.nodeId());
            final FindCoordinatorResponseData.Coordinator found = findCoordinator(raw);
            assertThat(found.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(found.nodeId()).isEqualTo(OTHER.nodeId());
            assertThat(found.host() + ":" + found.port()).isEqualTo(OTHER.host() + ":" + OTHER.port());
        }
    }

    @Test
    void aClusterNodeOffersClassicGroupsAndTheirDeletionAndLeavesOutTheConsumerProtocolAndShareGroups() throws Exception
    {
        try (RawKafkaConnection raw = new RawKafkaConnection(kafka))
        {
            final ApiVersionsResponseData versions = raw.call(ApiKeys.API_VERSIONS, (short)3,
                new ApiVersionsRequestData().setClientSoftwareName("raw").setClientSoftwareVersion("1"));
            final List<Short> offered = versions.apiKeys().stream().map(ApiVersionsResponseData.ApiVersion::apiKey)
                .toList();
            assertThat(offered).contains(ApiKeys.JOIN_GROUP.id, ApiKeys.SYNC_GROUP.id, ApiKeys.HEARTBEAT.id,
                ApiKeys.LEAVE_GROUP.id, ApiKeys.OFFSET_COMMIT.id, ApiKeys.FIND_COORDINATOR.id, ApiKeys.DELETE_GROUPS.id);
            assertThat(offered).doesNotContain(ApiKeys.CONSUMER_GROUP_HEARTBEAT.id, ApiKeys.SHARE_GROUP_HEARTBEAT.id,
                ApiKeys.SHARE_FETCH.id, ApiKeys.SHARE_ACKNOWLEDGE.id);
        }
    }

    @Test
    void aNodeThatDoesNotCoordinateAnswersNotCoordinatorAndListsNoGroups() throws Exception
    {
        coordinator.set(OTHER.nodeId());
        try (RawKafkaConnection raw = new RawKafkaConnection(kafka))
        {
            final JoinGroupResponseData joined = raw.call(ApiKeys.JOIN_GROUP, (short)5, join(""));
            assertThat(joined.errorCode()).isEqualTo(Errors.NOT_COORDINATOR.code());
            final OffsetFetchResponseData fetched = raw.call(ApiKeys.OFFSET_FETCH, (short)8,
                new OffsetFetchRequestData().setGroups(List.of(
                    new OffsetFetchRequestData.OffsetFetchRequestGroup().setGroupId("billing").setTopics(null))));
            assertThat(fetched.groups().get(0).errorCode()).isEqualTo(Errors.NOT_COORDINATOR.code());
            final DeleteGroupsResponseData deleted = raw.call(ApiKeys.DELETE_GROUPS, (short)2,
                new DeleteGroupsRequestData().setGroupsNames(List.of("billing")));
            assertThat(deleted.results().find("billing").errorCode()).isEqualTo(Errors.NOT_COORDINATOR.code());
            final ListGroupsResponseData listed = raw.call(ApiKeys.LIST_GROUPS, (short)4, new ListGroupsRequestData());
            assertThat(listed.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(listed.groups()).isEmpty();
        }
    }

    @Test
    void aNodeThatStopsCoordinatingForgetsItsMembersAndAnswersTheJoinsThatWait() throws Exception
    {
        coordinator.set(0);
        try (RawKafkaConnection first = new RawKafkaConnection(kafka);
             RawKafkaConnection second = new RawKafkaConnection(kafka);
             RawKafkaConnection admin = new RawKafkaConnection(kafka))
        {
            final JoinGroupResponseData joined = first.call(ApiKeys.JOIN_GROUP, (short)5, join(""));
            assertThat(joined.errorCode()).isEqualTo(Errors.NONE.code());
            // the second member's join waits until the first joins again, which it never does here
            final CompletableFuture<JoinGroupResponseData> waiting = CompletableFuture.supplyAsync(() ->
            {
                try
                {
                    return second.call(ApiKeys.JOIN_GROUP, (short)5, join(""));
                }
                catch (final IOException ex)
                {
                    throw new UncheckedIOException(ex);
                }
            });
            KafkaFixture.await("the second member's join waits in the group", () ->
            {
                final DescribeGroupsResponseData.DescribedGroup group = describe(admin);
                return group.groupState().equals("PreparingRebalance") && group.members().size() == 2;
            });

            coordinator.set(OTHER.nodeId());
            assertThat(waiting.get().errorCode()).as("the join that waited")
                .isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());

            coordinator.set(0);
            final HeartbeatResponseData heartbeat = first.call(ApiKeys.HEARTBEAT, (short)4, new HeartbeatRequestData()
                .setGroupId("billing").setMemberId(joined.memberId()).setGenerationId(joined.generationId()));
            assertThat(heartbeat.errorCode()).as("the first member, back on this node")
                .isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
        }
    }

    private static DescribeGroupsResponseData.DescribedGroup describe(final RawKafkaConnection raw)
    {
        try
        {
            final DescribeGroupsResponseData answer = raw.call(ApiKeys.DESCRIBE_GROUPS, (short)5,
                new DescribeGroupsRequestData().setGroups(List.of("billing")));
            return answer.groups().get(0);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static FindCoordinatorResponseData.Coordinator findCoordinator(final RawKafkaConnection raw)
        throws IOException
    {
        final FindCoordinatorResponseData answer = raw.call(ApiKeys.FIND_COORDINATOR, (short)4,
            new FindCoordinatorRequestData().setKeyType((byte)0).setCoordinatorKeys(List.of("billing")));
        return answer.coordinators().get(0);
    }

    private static JoinGroupRequestData join(final String memberId)
    {
        final JoinGroupRequestData.JoinGroupRequestProtocolCollection protocols =
            new JoinGroupRequestData.JoinGroupRequestProtocolCollection();
        protocols.add(new JoinGroupRequestData.JoinGroupRequestProtocol().setName("range").setMetadata(new byte[0]));
        return new JoinGroupRequestData().setGroupId("billing").setMemberId(memberId).setProtocolType("consumer")
            .setSessionTimeoutMs(30_000).setRebalanceTimeoutMs(60_000).setProtocols(protocols);
    }

    /** Node 0 of a cluster with node 2, whose group coordinator is the test's to move; nothing else is asked of it. */
    private final class MovingCoordinator implements KafkaCluster
    {
        @Override
        public int nodeId()
        {
            return 0;
        }

        @Override
        public List<Broker> brokers()
        {
            return List.of(new Broker(0, kafka.listener.host(), kafka.listener.port()), OTHER);
        }

        @Override
        public int groupCoordinator()
        {
            return coordinator.get();
        }

        @Override
        public Placement placement(final String topic, final int partition)
        {
            throw new UnsupportedOperationException("no partitions in a group test");
        }

        @Override
        public CompletableFuture<Appended> append(final String topic, final int partition, final long producerId,
            final short epoch, final int baseSequence, final List<ProducerRecord> records)
        {
            throw new UnsupportedOperationException("no produce in a group test");
        }

        @Override
        public long newProducerId()
        {
            throw new UnsupportedOperationException("no producers in a group test");
        }

        @Override
        public int defaultReplicationFactor()
        {
            return 3;
        }

        @Override
        public void checkReplicationFactor(final int replicationFactor)
        {
            throw new UnsupportedOperationException("no topics in a group test");
        }

        @Override
        public void alterTopicRetention(final String name, final long retentionMillis, final long retentionBytes)
        {
            throw new UnsupportedOperationException("no topics in a group test");
        }

        @Override
        public void deleteTopic(final String name)
        {
            throw new UnsupportedOperationException("no topics in a group test");
        }

        @Override
        public void createTopic(final String name, final int replicationFactor, final TopicConfig config)
        {
            throw new UnsupportedOperationException("no topics in a group test");
        }

        @Override
        public long coordinatorEpoch()
        {
            throw new UnsupportedOperationException("no offsets in a group test");
        }

        @Override
        public boolean commitOffset(final String group, final TopicPartition partition, final long offset,
            final long coordinatorEpoch)
        {
            throw new UnsupportedOperationException("no offsets in a group test");
        }

        @Override
        public boolean deleteGroupOffset(final String group, final TopicPartition partition,
            final long coordinatorEpoch)
        {
            throw new UnsupportedOperationException("no offsets in a group test");
        }

        @Override
        public long committedOffset(final String group, final TopicPartition partition)
        {
            throw new UnsupportedOperationException("no offsets in a group test");
        }
    }
}
