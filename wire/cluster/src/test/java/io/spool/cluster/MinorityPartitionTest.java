package io.spool.cluster;

import io.spool.api.stream.TopicConfig;
import io.spool.testing.SlowTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
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
 * confirmed record sits where its confirm said, on every node. The same with the leader cut off both ways, and with
 * an asymmetric cut where the leader can open no connection to the others ({@link TcpProxy#cutFrom}).
 */
@SlowTest
class MinorityPartitionTest
{
    private static final String TOPIC = "events";
    private static final int PROGRESS = 100;
    /** Cuts and heals in a test: 1 in the default build, more under the soak profile. */
    private static final int ROUNDS = Integer.getInteger("spool.cluster.rounds", 1);
    private static final Duration PROGRESS_WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private final List<TcpProxy> proxies = new ArrayList<>();
    private InJvmCluster cluster;

    /** Three nodes, each behind its proxy: the members list names the proxies' ports, the nodes bind others. */
    @BeforeEach
    void createBehindProxies()
    {
        final List<Integer> bindPorts = LoopbackPorts.free(3);
        cluster = new InJvmCluster(3, dir, config -> config.withConsensusBindPort(bindPorts.get(config.nodeId() - 1)));
        for (final ClusterMembers.Member member : cluster.members().members())
        {
            proxies.add(new TcpProxy(member.port(), bindPorts.get(member.id() - 1)));
        }
    }

    @AfterEach
    void stop()
    {
        proxies.forEach(TcpProxy::close);
        cluster.close();
    }

    @Test
    void theMajorityKeepsConfirmingWhileAFollowerIsCutOffAndItCatchesUpOnceHealed() throws Exception
    {
        cutUnderLoad((leader, client, history) ->
        {
            final int isolated = leader % 3 + 1;
            proxies.get(isolated - 1).cut();
            history.awaitConfirmed(history.confirmedBatches() + PROGRESS, PROGRESS_WAIT);
            assertThat(client.leaderOf(TOPIC, 0)).isNotEqualTo(isolated);
            assertThat(localEnd(isolated)).as("the cut-off node's log, behind what the majority confirmed meanwhile")
                .isLessThan(client.endOffset(TOPIC, 0));
        });
    }

    /**
     * The leader cut off both ways (nothing reaches it, nothing it opens reaches the others): it is a leader of a
     * minority, which cannot commit, so its log stands still while the other two elect a leader and go on.
     */
    @Test
    void aLeaderCutOffBothWaysCommitsNothingWhileTheOthersGoOnAndItRejoinsOnceHealed() throws Exception
    {
        cutUnderLoad((leader, client, history) ->
        {
            isolate(leader);
            history.awaitConfirmed(history.confirmedBatches() + PROGRESS, PROGRESS_WAIT);
            final long standing = localEnd(leader);
            history.awaitConfirmed(history.confirmedBatches() + PROGRESS, PROGRESS_WAIT);
            assertThat(client.leaderOf(TOPIC, 0)).isNotEqualTo(leader);
            assertThat(localEnd(leader)).as("the cut-off leader's log, while the others confirmed more")
                .isEqualTo(standing).isLessThan(client.endOffset(TOPIC, 0));
        });
    }

    /**
     * An asymmetric cut: the leader can open no connection to the others, which still open theirs to it. It hears
     * from nobody it must reach, so the others elect a leader; that leader's connection to it works, and it follows
     * and keeps up while still cut.
     */
    @Test
    void aLeaderThatCanReachNobodyLosesItsLeadershipAndFollowsOnTheConnectionsOpenedToIt() throws Exception
    {
        cutUnderLoad((leader, client, history) ->
        {
            proxies.forEach(proxy -> proxy.cutFrom(leader));
            history.awaitConfirmed(history.confirmedBatches() + 2 * PROGRESS, PROGRESS_WAIT);
            assertThat(client.leaderOf(TOPIC, 0)).isNotEqualTo(leader);
            final long confirmedEnd = client.endOffset(TOPIC, 0);
            assertThat(cluster.node(leader).engine().streams().topics().topic(TOPIC).partition(0)
                .awaitEndAbove(confirmedEnd - 1, PROGRESS_WAIT.toNanos()))
                .as("the cut node keeps up on the new leader's connection").isTrue();
        });
    }

    /** What a test cuts once the load is confirmed, given the partition's leader, and checks before the heal. */
    @FunctionalInterface
    private interface Cut
    {
        void apply(int leader, ClusterClient client, PublishHistory history) throws InterruptedException;
    }

    /**
     * Publishes under load, cuts as {@code cut} says and heals every proxy, {@code spool.cluster.rounds} times, and
     * checks that the majority went on, that every node holds the same bytes and that the history holds.
     */
    private void cutUnderLoad(final Cut cut) throws InterruptedException
    {
        cluster.startAll();
        final PublishHistory history = new PublishHistory();
        final long end;
        try (ClusterClient client = ClusterClient.connect(cluster.members()))
        {
            client.createTopic(TOPIC, 3, TopicConfig.of(1));
            try (PublishLoad load = new PublishLoad(client.newProducer()::send, TOPIC, 1, history))
            {
                history.awaitConfirmed(PROGRESS, PROGRESS_WAIT);
                for (int round = 0; round < ROUNDS; round++)
                {
                    cut.apply(client.leaderOf(TOPIC, 0), client, history);
                    proxies.forEach(TcpProxy::heal);
                    history.awaitConfirmed(history.confirmedBatches() + PROGRESS, PROGRESS_WAIT);
                }
            }
            end = client.endOffset(TOPIC, 0);
        }
        assertSameOnEveryNodeAndHistoryKept(history, end);
    }

    /** Nothing reaches the node, and nothing it opens reaches the others. */
    private void isolate(final int nodeId)
    {
        proxies.get(nodeId - 1).cut();
        proxies.forEach(proxy -> proxy.cutFrom(nodeId));
    }

    private long localEnd(final int nodeId)
    {
        return cluster.node(nodeId).engine().streams().topics().topic(TOPIC).partition(0).endOffset();
    }

    private void assertSameOnEveryNodeAndHistoryKept(final PublishHistory history, final long end)
        throws InterruptedException
    {
        assertThat(history.violations(Map.of(0, cluster.awaitSameRecords(TOPIC, 0, end, PROGRESS_WAIT)))).isEmpty();
    }
}
