package io.spool.cluster;

import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicPartition;
import io.spool.testing.SmallDisk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Three nodes in this JVM, each with its data directory on a small disk of its own (a real tmpfs, as in
 * {@link FullDiskTest}). A node whose disk is full when the metadata group's snapshot is asked for cannot write it,
 * and stops as a node that cannot create a topic's files does: the other two go on creating topics and confirming
 * publishes, and restarted with room it creates the topic it missed, joins its group and holds its records.
 */
class MetadataSnapshotFullDiskTest
{
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final long DISK_BYTES = 256L << 20;
    private static final int FULL_NODE = 2;
    private static final int RECORDS = 20;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void aNodeThatCannotWriteTheMetadataSnapshotStopsAndTakesTheTopicItMissedOnceRestartedWithRoom()
        throws Exception
    {
        final List<SmallDisk> disks = new ArrayList<>();
        final InJvmCluster cluster = new InJvmCluster(3, dir);
        try (AutoCloseable unmount = () -> disks.forEach(SmallDisk::close); InJvmCluster running = cluster)
        {
            for (int node = 1; node <= 3; node++)
            {
                disks.add(SmallDisk.mount(cluster.directory(node), DISK_BYTES));
            }
            cluster.startAll();
            stopOnFullDiskAndRestartWithRoom(cluster, disks.get(FULL_NODE - 1));
        }
    }

    private static void stopOnFullDiskAndRestartWithRoom(final InJvmCluster cluster, final SmallDisk disk)
        throws Exception
    {
        try (ClusterClient client = ClusterClient.connect(cluster.members()))
        {
            client.createTopic("events", 3, TopicConfig.of(1));
            publish(client, "events");
            final ClusterNode full = cluster.node(FULL_NODE);
            disk.fillUpTo(0);

            assertThatThrownBy(full::takeMetadataSnapshot).isInstanceOf(IOException.class);
            Eventually.holds(() -> !full.readiness().serving(), WAIT,
                () -> "node " + FULL_NODE + " stops; it says " + full.readiness().description());
            assertThat(full.readiness().description()).startsWith("node " + FULL_NODE + " stopped: it cannot " +
                "write a snapshot of the metadata group to " + cluster.directory(FULL_NODE).resolve("raft") +
                ": its disk is full");

            client.createTopic("orders", 3, TopicConfig.of(1));
            publish(client, "orders");
            publish(client, "events");

            cluster.stop(FULL_NODE);
            disk.resize(DISK_BYTES);
            final ClusterNode restarted = cluster.start(FULL_NODE);
            for (final String topic : List.of("events", "orders"))
            {
                final long end = client.endOffset(topic, 0);
                Eventually.holds(() -> localEnd(restarted, topic) == end, WAIT,
                    () -> "node " + FULL_NODE + " holds the " + end + " records of " + topic + ", not " +
                        localEnd(restarted, topic));
            }
        }
    }

    private static void publish(final ClusterClient client, final String topic) throws Exception
    {
        final List<ProducerRecord> records = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++)
        {
            records.add(ProducerRecord.toPartition(topic, 0, null, (topic + "-" + i).getBytes(UTF_8)));
        }
        client.newProducer().send(topic, 0, records).get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    /** The end of the node's own log of the topic's partition, or -1 while it holds no such topic. */
    private static long localEnd(final ClusterNode node, final String topic)
    {
        return node.engine().streams().topics().endOffset(new TopicPartition(topic, 0));
    }
}
