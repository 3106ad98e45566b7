package io.spool.cluster;

import io.spool.api.MetricSample;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.testing.SlowTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/** Three nodes in this JVM: what each node's cluster figures and readiness say as the cluster starts and works. */
@SlowTest
class ClusterMetricsTest
{
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String TOPIC = "orders";
    private static final int BATCHES = 10;

    @TempDir
    Path dir;

    private final ClusterMembers members = LoopbackPorts.members(3);
    private final List<ClusterNode> nodes = new ArrayList<>();

    @AfterEach
    void stop()
    {
        TestNodes.closeAll(nodes);
    }

    @Test
    void aNodeAloneSaysItWaitsForAMetadataLeaderAndServesOnceAMajorityIsUp()
    {
        nodes.add(ClusterNode.start(TestNodes.config(members, 1, dir)));
        final ClusterNode first = nodes.get(0);
        Eventually.holds(() -> first.readiness().description().startsWith("no metadata leader known yet"), WAIT,
            () -> "node 1 alone says it waits for a metadata leader, not '" + first.readiness().description() + "'");
        assertThat(first.readiness().serving()).isFalse();
        assertThat(first.readiness().description()).contains("is a majority of the cluster (" + members + ") up");
        assertThat(value(first, "spool_cluster_leaderless_groups", Map.of())).isEqualTo(1);
        assertThat(value(first, "spool_cluster_metadata_leader", Map.of())).isZero();

        nodes.add(ClusterNode.start(TestNodes.config(members, 2, dir)));
        nodes.add(ClusterNode.start(TestNodes.config(members, 3, dir)));
        for (final ClusterNode node : nodes)
        {
            Eventually.holds(() -> node.readiness().serving(), WAIT,
                () -> "node " + node.nodeId() + " serves, not '" + node.readiness().description() + "'");
            assertThat(node.readiness().description()).startsWith("serving 1 Raft group; the metadata leader is node");
        }
    }

    @Test
    void oneNodeLeadsEachGroupCommitsAdvanceWithPublishesAndFollowersCatchUp() throws Exception
    {
        for (final ClusterMembers.Member member : members.members())
        {
            nodes.add(ClusterNode.start(TestNodes.config(members, member.id(), dir)));
        }
        try (ClusterClient client = ClusterClient.connect(members))
        {
            client.createTopic(TOPIC, 3, TopicConfig.of(2));
            final Map<String, String> partition0 = Map.of("topic", TOPIC, "partition", "0");
            final Map<String, String> partition1 = Map.of("topic", TOPIC, "partition", "1");
            for (final ClusterNode node : nodes)
            {
                Eventually.holds(() -> value(node, "spool_cluster_groups", Map.of()) == 3 &&
                    value(node, "spool_cluster_leaderless_groups", Map.of()) == 0, WAIT,
                    () -> "node " + node.nodeId() + " holds the metadata group and both partitions' with leaders");
                assertThat(value(node, "spool_cluster_groups_left_total", Map.of())).isZero();
            }
            awaitOneLeader("spool_cluster_partition_leader", partition0);
            awaitOneLeader("spool_cluster_partition_leader", partition1);
            awaitOneLeader("spool_cluster_metadata_leader", Map.of());

            final ClusterNode leader = leaderOf(partition0);
            final double commitBefore = value(leader, "spool_cluster_partition_commit_index", partition0);
            final ClusterProducer producer = client.newProducer();
            publish(producer);

            final double commitAfter = value(leader, "spool_cluster_partition_commit_index", partition0);
            assertThat(commitAfter).as("the leader's commit index after %d confirmed batches", BATCHES)
                .isGreaterThan(commitBefore);
            for (final ClusterNode node : nodes)
            {
                Eventually.holds(() -> value(node, "spool_cluster_partition_applied_index", partition0) >= commitAfter &&
                    value(node, "spool_cluster_partition_applied_index", partition0) ==
                        value(node, "spool_cluster_partition_commit_index", partition0), WAIT,
                    () -> "node " + node.nodeId() + " applies every committed entry");
            }
            for (final ClusterNode follower : nodes)
            {
                if (follower != leader)
                {
                    awaitCaughtUp(leader, "spool_cluster_partition_follower_lag_entries", partition0, follower);
                    assertThat(value(follower, "spool_cluster_partition_follower_lag_entries",
                        withFollower(partition0, follower.nodeId()))).as("a follower reports no lags").isNaN();
                }
            }
            final ClusterNode metadataLeader = nodes.stream()
                .filter(node -> value(node, "spool_cluster_metadata_leader", Map.of()) == 1).findFirst().orElseThrow();
            for (final ClusterNode follower : nodes)
            {
                if (follower != metadataLeader)
                {
                    awaitCaughtUp(metadataLeader, "spool_cluster_metadata_follower_lag_entries", Map.of(), follower);
                }
            }

            final ClusterNode down = nodes.stream().filter(node -> node != leader).findFirst().orElseThrow();
            down.close();
            nodes.remove(down);
            publish(producer);
            // batches that queue up together travel in one entry, so the entries are fewer than the batches
            assertThat(value(leader, "spool_cluster_partition_follower_lag_entries",
                withFollower(partition0, down.nodeId()))).as("the lag of node %d, down while %d batches were " +
                "confirmed", down.nodeId(), BATCHES).isPositive();
            final ClusterNode back = ClusterNode.start(TestNodes.config(members, down.nodeId(), dir));
            nodes.add(back);
            awaitCaughtUp(leader, "spool_cluster_partition_follower_lag_entries", partition0, back);
        }
    }

    private static void publish(final ClusterProducer producer) throws Exception
    {
        final List<CompletableFuture<ClusterProducer.Confirm>> confirms = new ArrayList<>();
        for (int batch = 0; batch < BATCHES; batch++)
        {
            confirms.add(producer.send(TOPIC, 0, List.of(ProducerRecord.toPartition(TOPIC, 0, null,
                ("order " + batch).getBytes(UTF_8)))));
        }
        CompletableFuture.allOf(confirms.toArray(CompletableFuture[]::new)).get();
    }

    private static void awaitCaughtUp(final ClusterNode leader, final String lag, final Map<String, String> group,
        final ClusterNode follower)
    {
        final Map<String, String> labels = withFollower(group, follower.nodeId());
        Eventually.holds(() -> value(leader, lag, labels) == 0, WAIT,
            () -> "the leader reports follower " + follower.nodeId() + " caught up: " + lag + labels + " " +
                value(leader, lag, labels));
    }

    private static Map<String, String> withFollower(final Map<String, String> group, final int follower)
    {
        final Map<String, String> labels = new HashMap<>(group);
        labels.put("follower", Integer.toString(follower));
        return labels;
    }

    private void awaitOneLeader(final String name, final Map<String, String> labels)
    {
        Eventually.holds(() -> nodes.stream().mapToDouble(node -> value(node, name, labels)).sum() == 1 &&
            nodes.stream().allMatch(node -> value(node, name, labels) == 0 || value(node, name, labels) == 1), WAIT,
            () -> "exactly one node reports " + name + labels + " 1");
    }

    private ClusterNode leaderOf(final Map<String, String> partition)
    {
        return nodes.stream().filter(node -> value(node, "spool_cluster_partition_leader", partition) == 1)
            .findFirst().orElseThrow();
    }

    private static double value(final ClusterNode node, final String name, final Map<String, String> labels)
    {
        return MetricSample.valueOf(node.clusterMetrics(), name, labels);
    }
}
