package io.spool.cluster;

import io.spool.api.stream.TopicConfig;
import io.spool.cluster.StoredFrames.Stored;
import io.spool.testing.SlowTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three nodes in this JVM, each reached by its peers through a {@link TcpProxy}: cutting a follower's proxy under
 * load leaves it alone on its side; the other two keep confirming, and once healed it catches up to the same bytes.
 * The isolated node cannot confirm anything on its own (it has no majority), which the history check shows: every
 * confirmed record sits where its confirm said, on every node.
 */
@SlowTest
class MinorityPartitionTest
{
    private static final String TOPIC = "events";
    private static final int PROGRESS = 100;
    private static final Duration PROGRESS_WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private final List<ClusterNode> nodes = new ArrayList<>();
    private final List<TcpProxy> proxies = new ArrayList<>();

    @AfterEach
    void stop()
    {
        proxies.forEach(TcpProxy::close);
        nodes.forEach(ClusterNode::close);
    }

    @Test
    void theMajorityKeepsConfirmingWhileAFollowerIsCutOffAndItCatchesUpOnceHealed() throws Exception
    {
        final ClusterMembers members = LoopbackPorts.members(3);
        final List<Integer> bindPorts = LoopbackPorts.free(3);
        for (final ClusterMembers.Member member : members.members())
        {
            final int bindPort = bindPorts.get(member.id() - 1);
            proxies.add(new TcpProxy(member.port(), bindPort));
            nodes.add(ClusterNode.start(TestNodes.config(members, member.id(), dir).withConsensusBindPort(bindPort)));
        }
        final PublishHistory history = new PublishHistory();
        final long end;
        try (ClusterClient client = ClusterClient.connect(members))
        {
            client.createTopic(TOPIC, 3, TopicConfig.of(1));
            try (PublishLoad load = new PublishLoad(client.newProducer()::send, TOPIC, 1, history))
            {
                history.awaitConfirmed(PROGRESS, PROGRESS_WAIT);
                final int leader = client.leaderOf(TOPIC, 0);
                final int isolated = leader % 3 + 1;
                proxies.get(isolated - 1).cut();
                history.awaitConfirmed(2 * PROGRESS, PROGRESS_WAIT);
                assertThat(client.leaderOf(TOPIC, 0)).isNotEqualTo(isolated);
                assertThat(nodes.get(isolated - 1).engine().streams().topics().topic(TOPIC).partition(0).endOffset())
                    .as("the cut-off node's log, behind what the majority confirmed meanwhile")
                    .isLessThan(client.endOffset(TOPIC, 0));
                proxies.get(isolated - 1).heal();
                history.awaitConfirmed(3 * PROGRESS, PROGRESS_WAIT);
            }
            end = client.endOffset(TOPIC, 0);
        }
        for (final ClusterNode node : nodes)
        {
            assertThat(node.engine().streams().topics().topic(TOPIC).partition(0)
                .awaitEndAbove(end - 1, PROGRESS_WAIT.toNanos()))
                .as("node %d caught up to %d", node.nodeId(), end).isTrue();
        }
        final List<Stored> first = StoredFrames.records(nodes.get(0).engine(), TOPIC, 0);
        for (final ClusterNode node : nodes)
        {
            assertThat(StoredFrames.of(node.engine(), TOPIC, 0)).as("frames of node %d", node.nodeId())
                .containsExactlyElementsOf(first.stream().map(Stored::frame).toList());
        }
        assertThat(first).hasSize((int)end);
        assertThat(history.violations(Map.of(0, first))).isEmpty();
    }
}
