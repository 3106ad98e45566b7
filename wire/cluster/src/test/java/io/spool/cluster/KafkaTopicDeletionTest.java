package io.spool.cluster;

import io.spool.testing.SlowTest;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DeleteTopicsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Kafka's {@code Admin.deleteTopics} on one node's Kafka listener deletes a replicated topic on every node. */
@SlowTest
class KafkaTopicDeletionTest
{
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    @Test
    void deleteTopicsOnANodesListenerDeletesOnEveryNodeAndAnswersAnUnknownNameByName() throws Exception
    {
        try (InJvmCluster cluster = InJvmCluster.withServers(3, dir, server -> server.kafka("127.0.0.1", 0)).startAll();
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                 "127.0.0.1:" + cluster.node(2).server().kafkaListener().port(),
                 AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000)))
        {
            admin.createTopics(List.of(new NewTopic("orders", 2, (short)3))).all().get(30, TimeUnit.SECONDS);
            assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).contains("orders");

            final DeleteTopicsResult deleted = admin.deleteTopics(List.of("orders", "missing"));

            deleted.topicNameValues().get("orders").get(30, TimeUnit.SECONDS);
            assertThatThrownBy(() -> deleted.topicNameValues().get("missing").get(30, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause()
                .isInstanceOf(UnknownTopicOrPartitionException.class).hasMessageContaining("no topic missing");
            for (final ClusterNode node : cluster.nodes())
            {
                Eventually.holds(() -> node.engine().streams().topics().topicOrNull("orders") == null, WAIT,
                    () -> "node " + node.nodeId() + " deletes the topic");
            }
            assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).doesNotContain("orders");
            admin.createTopics(List.of(new NewTopic("orders", 1, (short)3))).all().get(30, TimeUnit.SECONDS);
            assertThat(admin.describeTopics(List.of("orders")).allTopicNames().get(30, TimeUnit.SECONDS)
                .get("orders").partitions()).hasSize(1);
        }
    }
}
