package io.spool.cluster;

import io.spool.api.InvalidRequestException;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicExistsException;
import io.spool.testing.SlowTest;
import io.spool.wire.client.ClientConfig;
import io.spool.wire.client.FailoverProducer;
import io.spool.wire.client.ProducerConfig;
import io.spool.wire.client.RemoteProducer;
import io.spool.wire.client.SpoolClient;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Three nodes in this JVM: what a publish to a replicated topic leaves on each of them. */
@SlowTest
class ReplicatedPublishTest
{
    private static final int BATCHES = 50;
    private static final int RECORDS_PER_BATCH = 4;

    @TempDir
    static Path dir;

    private static InJvmCluster cluster;
    private static ClusterMembers members;
    private static List<ClusterNode> nodes;
    private static ClusterClient client;

    /** One cluster for every test, each on topics of its own: starting three nodes is what takes the time. */
    @BeforeAll
    static void startCluster()
    {
        cluster = new InJvmCluster(3, dir).startAll();
        members = cluster.members();
        nodes = cluster.nodes();
        client = ClusterClient.connect(members);
    }

    @AfterAll
    static void stopCluster()
    {
        client.close();
        cluster.close();
    }

    @Test
    void everyNodeStoresTheSameFramesAtTheSameOffsets() throws Exception
    {
        client.createTopic("orders", 3, TopicConfig.of(2));
        final ClusterProducer producer = client.newProducer();
        final List<CompletableFuture<ClusterProducer.Confirm>> confirms = new ArrayList<>();
        for (int batch = 0; batch < BATCHES; batch++)
        {
            final List<ProducerRecord> records = new ArrayList<>();
            for (int i = 0; i < RECORDS_PER_BATCH; i++)
            {
                records.add(new ProducerRecord("orders", batch % 2, ProducerRecord.APPEND_TIME,
                    ("k" + i).getBytes(UTF_8), Map.of("batch", Integer.toString(batch).getBytes(UTF_8)),
                    ("order " + batch + "/" + i).getBytes(UTF_8)));
            }
            confirms.add(producer.send("orders", batch % 2, records));
        }
        final long[] nextOffset = new long[2];
        for (int batch = 0; batch < BATCHES; batch++)
        {
            final ClusterProducer.Confirm confirm = confirms.get(batch).get(30, TimeUnit.SECONDS);
            assertThat(confirm.baseOffset()).isEqualTo(nextOffset[batch % 2]);
            assertThat(confirm.retried()).isFalse();
            nextOffset[batch % 2] += RECORDS_PER_BATCH;
        }

        for (int partition = 0; partition < 2; partition++)
        {
            final long end = BATCHES / 2 * RECORDS_PER_BATCH;
            assertThat(client.endOffset("orders", partition)).isEqualTo(end);
            for (final ClusterNode node : nodes)
            {
                node.engine().streams().topics().topic("orders").partition(partition).awaitEndAbove(end - 1,
                    TimeUnit.SECONDS.toNanos(30));
            }
            final List<byte[]> leaderFrames = StoredFrames.of(nodes.get(0).engine(), "orders", partition);
            assertThat(leaderFrames).hasSize((int)end);
            for (final ClusterNode node : nodes)
            {
                assertThat(StoredFrames.of(node.engine(), "orders", partition))
                    .as("node %d, partition %d", node.nodeId(), partition)
                    .containsExactlyElementsOf(leaderFrames);
            }
        }
    }

    @Test
    void aRetriedBatchIsStoredOnceAndAnsweredWithItsFirstOffsets() throws Exception
    {
        client.createTopic("payments", 3, TopicConfig.of(1));
        final List<ProducerRecord> records = List.of(
            new ProducerRecord("payments", 0, 1_000L, null, Map.of(), "pay 1".getBytes(UTF_8)));
        final var entry = ClusterEntryDescriptor.publish(42L, 0L, records);
        final var where = new io.spool.api.stream.TopicPartition("payments", 0);
        final RaftClientReply first = client.publish(where, entry).get(30, TimeUnit.SECONDS);
        final RaftClientReply again = client.publish(where, entry).get(30, TimeUnit.SECONDS);
        final var firstReply = ClusterEntryDescriptor.decodeReply(first.getMessage().getContent());
        final var againReply = ClusterEntryDescriptor.decodeReply(again.getMessage().getContent());

        assertThat(firstReply.status()).isEqualTo(ClusterEntryDescriptor.STATUS_STORED);
        assertThat(againReply.status()).isEqualTo(ClusterEntryDescriptor.STATUS_DUPLICATE);
        assertThat(againReply.baseOffset()).isEqualTo(firstReply.baseOffset());
        assertThat(client.endOffset("payments", 0)).isEqualTo(1);
    }

    @Test
    void batchesSentTogetherShareRaftEntriesAndEachKeepsItsOffsetsAndItsRetries() throws Exception
    {
        client.createTopic("clicks", 3, TopicConfig.of(1));
        final var where = new io.spool.api.stream.TopicPartition("clicks", 0);
        final List<CompletableFuture<RaftClientReply>> replies = new ArrayList<>();
        final List<Boolean> retries = new ArrayList<>();
        for (int sequence = 0; sequence < 200; sequence++)
        {
            final Message entry = ClusterEntryDescriptor.publish(7L, sequence, List.of(
                new ProducerRecord("clicks", 0, 1_000L, null, Map.of(), ("click " + sequence).getBytes(UTF_8)),
                new ProducerRecord("clicks", 0, 1_000L, null, Map.of(), ("again " + sequence).getBytes(UTF_8))));
            replies.add(client.publish(where, entry));
            retries.add(false);
            if (sequence % 50 == 49)
            {
                replies.add(client.publish(where, entry));
                retries.add(true);
            }
        }

        long next = 0;
        for (int i = 0; i < replies.size(); i++)
        {
            final var reply = ClusterEntryDescriptor.decodeReply(
                replies.get(i).get(30, TimeUnit.SECONDS).getMessage().getContent());
            if (retries.get(i))
            {
                assertThat(reply.status()).isEqualTo(ClusterEntryDescriptor.STATUS_DUPLICATE);
                assertThat(reply.baseOffset()).isEqualTo(next - 2);
            }
            else
            {
                assertThat(reply.status()).isEqualTo(ClusterEntryDescriptor.STATUS_STORED);
                assertThat(reply.baseOffset()).isEqualTo(next);
                next += 2;
            }
        }
        assertThat(client.endOffset("clicks", 0)).isEqualTo(400);
        assertThat(client.raftEntriesSent(where)).isLessThan(replies.size());
    }

    @Test
    void anEnvelopeAnswersAQueueEntryOrAnEnvelopeInsideItWithARefusalAndAppliesTheRest() throws Exception
    {
        client.createTopic("envelopes", 3, TopicConfig.of(1));
        final Message publish = ClusterEntryDescriptor.publish(9L, 0L,
            List.of(new ProducerRecord("envelopes", 0, 1_000L, null, Map.of(), "one".getBytes(UTF_8))));
        final Message receive = QueueEntryDescriptor.receive(new QueueEntryDescriptor.Receive("billing", 0, 1, 1_000));
        final Message nested = ClusterEntryDescriptor.envelope(List.of(ClusterEntryDescriptor.publish(9L, 1L,
            List.of(new ProducerRecord("envelopes", 0, 1_000L, null, Map.of(), "two".getBytes(UTF_8))))));
        try (RaftClient raw = RaftClient.newBuilder().setProperties(RaftSettings.client())
            .setRaftGroup(client.partitionGroup(new io.spool.api.stream.TopicPartition("envelopes", 0))).build())
        {
            final RaftClientReply reply =
                raw.io().send(ClusterEntryDescriptor.envelope(List.of(publish, receive, nested)));
            final List<ByteString> parts = ClusterEntryDescriptor.decodeEnvelopeReply(reply.getMessage().getContent());

            assertThat(parts).hasSize(3);
            assertThat(ClusterEntryDescriptor.decodeReply(parts.get(0)).status())
                .isEqualTo(ClusterEntryDescriptor.STATUS_STORED);
            assertThat(QueueEntryDescriptor.decodeReply(parts.get(1)).problem()).contains("travels alone");
            assertThat(ClusterEntryDescriptor.decodeReply(parts.get(2)).problem()).contains("holds no envelope");
            assertThat(client.endOffset("envelopes", 0)).isEqualTo(1);
        }
    }

    @Test
    void aSecondTopicOfTheSameNameIsRefused()
    {
        client.createTopic("audit", 3, TopicConfig.of(1));
        assertThatThrownBy(() -> client.createTopic("audit", 3, TopicConfig.of(1)))
            .isInstanceOf(TopicExistsException.class)
            .hasMessageContaining("audit");
    }

    @Test
    void aNodesNativeServerServesReadsAndRefusesWritesThatWouldMakeItDiffer() throws Exception
    {
        client.createTopic("ledger", 3, TopicConfig.of(1));
        client.newProducer().send("ledger", 0, List.of(ProducerRecord.toPartition("ledger", 0, null,
            "entry".getBytes(UTF_8)))).get(30, TimeUnit.SECONDS);
        final ClusterNode node = nodes.get(2);
        node.engine().streams().topics().topic("ledger").partition(0).awaitEndAbove(0, TimeUnit.SECONDS.toNanos(30));
        try (SpoolClient reader = SpoolClient.connect(ClientConfig.builder().port(node.server().port()).build()))
        {
            assertThat(reader.admin().describeTopic("ledger").partitions().get(0).endOffset()).isEqualTo(1);
            assertThatThrownBy(() -> reader.admin().createTopic("side", TopicConfig.of(1)))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("through the cluster");
            final RemoteProducer direct = reader.newProducer(ProducerConfig.defaults(), null);
            assertThatThrownBy(() -> direct.send("ledger", null, "around".getBytes(UTF_8)).join())
                .hasCauseInstanceOf(InvalidRequestException.class);
        }
        assertThat(node.engine().streams().topics().topic("ledger").partition(0).endOffset()).isEqualTo(1);
    }

    @Test
    void aFailoverProducerPublishesThroughAFollowersNativeServerAndEveryNodeStoresItsBatches() throws Exception
    {
        client.createTopic("transfers", 3, TopicConfig.of(1));
        final ClusterNode follower = cluster.followerOf(client, "transfers", 0);
        try (FailoverProducer producer = FailoverProducer.connect(
            List.of(ClientConfig.builder().port(follower.server().port()).build())))
        {
            assertThat(producer.send("transfers", 0, List.of(transfer("a"), transfer("b"))).get(30, TimeUnit.SECONDS))
                .containsExactly(0, 1);
            assertThat(producer.send("transfers", 0, List.of(transfer("c"))).get(30, TimeUnit.SECONDS))
                .containsExactly(2);
        }
        for (final ClusterNode node : nodes)
        {
            node.engine().streams().topics().topic("transfers").partition(0).awaitEndAbove(2,
                TimeUnit.SECONDS.toNanos(30));
            assertThat(StoredFrames.records(node.engine(), "transfers", 0)).extracting(StoredFrames.Stored::value)
                .as("node %d", node.nodeId()).containsExactly("a", "b", "c");
        }
    }

    private static ProducerRecord transfer(final String value)
    {
        return ProducerRecord.toPartition("transfers", 0, null, value.getBytes(UTF_8));
    }

    @Test
    void aCommittedOffsetIsHeldByEveryNode() throws Exception
    {
        client.createTopic("invoices", 3, TopicConfig.of(1));
        final ClusterProducer producer = client.newProducer();
        final List<ProducerRecord> records = new ArrayList<>();
        for (int i = 0; i < 10; i++)
        {
            records.add(ProducerRecord.toPartition("invoices", 0, null, ("invoice " + i).getBytes(UTF_8)));
        }
        producer.send("invoices", 0, records).get(30, TimeUnit.SECONDS);

        client.commitOffset("billing", "invoices", 0, 7);
        assertThatThrownBy(() -> client.commitOffset("billing", "invoices", 0, 11))
            .isInstanceOf(InvalidRequestException.class)
            .hasMessageContaining("outside [0, 10]");

        assertThat(client.committedOffset("billing", "invoices", 0)).isEqualTo(7);
        assertThat(client.committedOffset("shipping", "invoices", 0)).isEqualTo(-1);
        final var invoices = new io.spool.api.stream.TopicPartition("invoices", 0);
        for (final ClusterNode node : nodes)
        {
            // a follower applies the commit a moment after the leader answered
            Eventually.holds(() -> node.engine().streams().groups().committed("billing", invoices) == 7,
                Duration.ofSeconds(30), () -> "node " + node.nodeId() + " holds billing's commit at 7");
        }
    }

    @Test
    void aKeyedRecordGoesToThePartitionItsKeyPicksAsTheEmbeddedProducerPlacesIt() throws Exception
    {
        client.createTopic("accounts", 3, TopicConfig.of(4));
        final ClusterProducer producer = client.newProducer();
        final byte[] key = "account-17".getBytes(UTF_8);

        final ClusterProducer.Confirm keyed = producer.send("accounts", key, "opened".getBytes(UTF_8))
            .get(30, TimeUnit.SECONDS);
        final ClusterProducer.Confirm again = producer.send("accounts", key, "closed".getBytes(UTF_8))
            .get(30, TimeUnit.SECONDS);

        assertThat(keyed.partition()).isEqualTo(io.spool.api.stream.KeyPartitioner.partitionForKey(key, 4));
        assertThat(again.partition()).isEqualTo(keyed.partition());
        assertThat(again.baseOffset()).isEqualTo(keyed.baseOffset() + 1);
    }

    @Test
    void aNodeStartedWithAnotherListJoinsNoGroupOfTheOthers() throws Exception
    {
        Eventually.holds(() -> nodes.stream().allMatch(node -> node.metadataLeader() > 0), Duration.ofSeconds(30),
            () -> "every node knows the cluster's leader");
        final ClusterMembers other = ClusterMembers.parse(members.member(1).id() + "@127.0.0.1:" +
            members.member(1).port() + ",2@127.0.0.1:" + members.member(2).port() + ",3@127.0.0.1:" +
            LoopbackPorts.free(1).get(0));
        try (ClusterNode stranger = ClusterNode.start(TestNodes.config(other, 3, dir.resolve("stranger"))))
        {
            client.createTopic("audit-trail", 3, TopicConfig.of(1));
            client.newProducer().send("audit-trail", 0, List.of(ProducerRecord.toPartition("audit-trail", 0, null,
                "entry".getBytes(UTF_8)))).get(30, TimeUnit.SECONDS);
            for (final ClusterNode node : nodes)
            {
                Eventually.holds(() -> node.engine().streams().topics().topicOrNull("audit-trail") != null,
                    Duration.ofSeconds(30), () -> "node " + node.nodeId() + " created audit");
            }
            assertThat(stranger.engine().streams().listTopics()).isEmpty();
            assertThat(stranger.metadataLeader()).isEqualTo(-1);
        }
    }
}
