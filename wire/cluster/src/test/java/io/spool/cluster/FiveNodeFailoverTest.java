package io.spool.cluster;

import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.testing.SlowTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Five nodes in this JVM and a topic of replication factor 5, under a steady publish load: the partition's leader
 * and one follower are stopped together (two of five), the other three go on confirming, and the two, started
 * again on their directories, catch up to the same bytes; the history of sends and confirms holds against what
 * every node stored. With a third node stopped no majority is left: a publish waits, unconfirmed, until a node
 * is back.
 */
@SlowTest
class FiveNodeFailoverTest
{
    private static final String TOPIC = "events";
    private static final int PROGRESS = 100;
    private static final Duration PROGRESS_WAIT = Duration.ofSeconds(60);
    /** How long a publish without a majority is watched not to confirm. */
    private static final Duration NO_MAJORITY_WATCH = Duration.ofSeconds(2);

    @TempDir
    Path dir;

    @Test
    void threeOfFiveKeepConfirmingWithTheLeaderAndAFollowerStoppedAndBothCatchUpOnceBack() throws Exception
    {
        try (InJvmCluster cluster = new InJvmCluster(5, dir).startAll();
             ClusterClient client = ClusterClient.connect(cluster.members()))
        {
            client.createTopic(TOPIC, 5, TopicConfig.of(1));
            final PublishHistory history = new PublishHistory();
            try (PublishLoad load = new PublishLoad(client.newProducer()::send, TOPIC, 1, history))
            {
                history.awaitConfirmed(PROGRESS, PROGRESS_WAIT);
                final int leader = client.leaderOf(TOPIC, 0);
                final int follower = leader % 5 + 1;
                cluster.stop(leader);
                cluster.stop(follower);
                history.awaitConfirmed(history.confirmedBatches() + PROGRESS, PROGRESS_WAIT);
                assertThat(client.leaderOf(TOPIC, 0)).as("the leader of the three left").isNotIn(leader, follower);

                cluster.start(leader);
                cluster.start(follower);
                history.awaitConfirmed(history.confirmedBatches() + PROGRESS, PROGRESS_WAIT);
            }
            final long end = client.endOffset(TOPIC, 0);
            assertThat(history.violations(Map.of(0, cluster.awaitSameRecords(TOPIC, 0, end, PROGRESS_WAIT))))
                .isEmpty();
            assertThat(history.confirmedBatches()).isGreaterThanOrEqualTo(3 * PROGRESS);
        }
    }

    @Test
    void withThreeOfFiveStoppedAPublishWaitsUnconfirmedUntilAMajorityIsBack() throws Exception
    {
        try (InJvmCluster cluster = new InJvmCluster(5, dir).startAll();
             ClusterClient client = ClusterClient.connect(cluster.members()))
        {
            client.createTopic(TOPIC, 5, TopicConfig.of(1));
            final ClusterProducer producer = client.newProducer();
            assertThat(producer.send(TOPIC, 0, record("before")).get(30, TimeUnit.SECONDS).baseOffset()).isZero();
            cluster.awaitSameRecords(TOPIC, 0, 1, PROGRESS_WAIT);
            final int leader = client.leaderOf(TOPIC, 0);
            final List<Integer> stopped = List.of(leader, leader % 5 + 1, (leader + 1) % 5 + 1);
            stopped.forEach(cluster::stop);

            final CompletableFuture<ClusterProducer.Confirm> waiting = producer.send(TOPIC, 0, record("while"));
            assertThatThrownBy(() -> waiting.get(NO_MAJORITY_WATCH.toMillis(), TimeUnit.MILLISECONDS))
                .as("a publish with two of five nodes up").isInstanceOf(TimeoutException.class);
            assertThat(cluster.localEnds(TOPIC, 0)).as("the two nodes left store nothing").containsOnly(1L);

            cluster.start(stopped.get(2));
            assertThat(waiting.get(PROGRESS_WAIT.toSeconds(), TimeUnit.SECONDS).baseOffset())
                .as("the waiting publish, once three of five are up").isEqualTo(1);
            assertThat(cluster.awaitSameRecords(TOPIC, 0, 2, PROGRESS_WAIT)).extracting(StoredFrames.Stored::value)
                .containsExactly("before", "while");
        }
    }

    private static List<ProducerRecord> record(final String value)
    {
        return List.of(ProducerRecord.toPartition(TOPIC, 0, null, value.getBytes(UTF_8)));
    }
}
