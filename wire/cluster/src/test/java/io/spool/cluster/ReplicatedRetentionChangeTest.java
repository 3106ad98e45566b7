package io.spool.cluster;

import io.spool.api.log.LogConfig;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.UnknownTopicException;
import io.spool.testing.SlowTest;
import io.spool.wire.client.ClientConfig;
import io.spool.wire.client.SpoolClient;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Three nodes in this JVM: a replicated topic's retention changed through the metadata group (by the cluster
 * client, a node's native server or its Kafka listener) is changed on every node, also on one that was down and
 * is given a snapshot of the metadata group taken after the change, and on one restarted.
 */
@SlowTest
class ReplicatedRetentionChangeTest
{
    private static final String TOPIC = "events";
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    private static void awaitRetention(final InJvmCluster cluster, final long millis, final long bytes)
    {
        for (final ClusterNode node : cluster.nodes())
        {
            Eventually.holds(() ->
            {
                final LogConfig log = node.engine().streams().describeTopic(TOPIC).config().log();
                return log.retentionMillis() == millis && log.retentionBytes() == bytes &&
                    node.engine().streams().topics().topic(TOPIC).partition(1).config().retentionMillis() == millis;
            }, WAIT, () -> "node " + node.nodeId() + " keeps " + TOPIC + " for " + millis + " ms and " + bytes +
                " bytes, but has " + node.engine().streams().describeTopic(TOPIC).config().log());
        }
    }

    @Test
    void theClusterClientChangesRetentionOnEveryNodeAndASnapshotCarriesIt() throws Exception
    {
        try (InJvmCluster cluster = new InJvmCluster(3, dir).startAll();
             ClusterClient client = ClusterClient.connect(cluster.members()))
        {
            client.createTopic(TOPIC, 3, TopicConfig.of(2));
            client.alterTopicRetention(TOPIC, 3_600_000, 1L << 30);
            awaitRetention(cluster, 3_600_000, 1L << 30);

            cluster.stop(3);
            client.alterTopicRetention(TOPIC, 7_200_000, -1);
            cluster.giveStoppedNodeTheMetadataSnapshotOf(1, 3);
            cluster.start(3);
            awaitRetention(cluster, 7_200_000, -1);

            cluster.stop(1);
            cluster.start(1);
            awaitRetention(cluster, 7_200_000, -1);

            assertThatThrownBy(() -> client.alterTopicRetention("missing", 3_600_000, -1))
                .isInstanceOf(UnknownTopicException.class).hasMessageContaining("no topic missing");
            assertThatThrownBy(() -> client.alterTopicRetention(TOPIC, 0, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("retentionMillis must be positive or -1");
        }
    }

    @Test
    void aNodesNativeServerAndKafkaListenerChangeItThroughTheCluster() throws Exception
    {
        try (InJvmCluster cluster = InJvmCluster.withServers(3, dir, server -> server.kafka("127.0.0.1", 0)).startAll();
             ClusterClient client = ClusterClient.connect(cluster.members());
             SpoolClient nativeClient = SpoolClient.connect(ClientConfig.builder()
                 .port(cluster.node(2).server().port()).build());
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                 "127.0.0.1:" + cluster.node(3).server().kafkaListener().port(),
                 AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000)))
        {
            client.createTopic(TOPIC, 3, TopicConfig.of(2));

            nativeClient.admin().alterTopicRetention(TOPIC, 600_000, -1);
            awaitRetention(cluster, 600_000, -1);

            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, TOPIC), List.of(
                new AlterConfigOp(new ConfigEntry("retention.bytes", "1048576"), AlterConfigOp.OpType.SET))))
                .all().get(30, TimeUnit.SECONDS);
            awaitRetention(cluster, 600_000, 1_048_576);
        }
    }
}
