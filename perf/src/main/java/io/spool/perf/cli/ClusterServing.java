package io.spool.perf.cli;

import io.spool.api.MetricSample;
import io.spool.cluster.ClusterMembers;
import io.spool.cluster.ClusterNode;
import io.spool.cluster.ClusterNodeConfig;
import io.spool.cluster.ClusterReadiness;
import io.spool.wire.server.ServerConfig;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@code spool server --node-id N --cluster LIST}: runs one node of a static cluster until interrupted or the node
 * stops itself ({@link #EXIT_NODE_STOPPED}), serving reads on the server's port and replication on the node's
 * consensus port from the list, and with {@code --metrics-port} the node's figures (its engine's, its server's and
 * its Raft groups') and its health.
 */
final class ClusterServing
{
    /**
     * The exit status of a node that stopped itself, as after a write of the metadata group its disk refused: a
     * supervisor sees a failure, where a node closed by an interrupt ends the command with 0.
     */
    static final int EXIT_NODE_STOPPED = 3;

    private ClusterServing()
    {
    }

    /**
     * @throws ParameterException when only one of --node-id and --cluster is given, the list is not one, the id
     *                            is not in it, or the snapshot interval is below 1.
     */
    static int serve(final CommandLine command, final Integer nodeId, final String cluster,
        final Integer snapshotEveryEntries, final Path dataDirectory, final ServerConfig.Builder settings,
        final Supplier<MetricsEndpoint> startMetrics)
    {
        if (nodeId == null || cluster == null)
        {
            throw new ParameterException(command, (nodeId == null ? "--cluster needs --node-id" :
                "--node-id needs --cluster") + ": a cluster node is started with its own id and the list of " +
                "every node, the same list on every node");
        }
        final ClusterNodeConfig listed;
        try
        {
            listed = new ClusterNodeConfig(nodeId, ClusterMembers.parse(cluster), dataDirectory, settings);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(command, "--cluster: " + ex.getMessage(), ex);
        }
        final ClusterNodeConfig nodeConfig;
        try
        {
            nodeConfig = snapshotEveryEntries == null ? listed : listed.withSnapshotEveryEntries(snapshotEveryEntries);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(command, "--snapshot-every: " + ex.getMessage(), ex);
        }
        final ClusterMembers.Member self = nodeConfig.members().member(nodeId);
        FreePort.require("--cluster (node " + nodeId + "'s consensus port)", self.host(), self.port());
        final MetricsEndpoint metrics = startMetrics.get();
        final ClusterNode node;
        try
        {
            node = ClusterNode.start(nodeConfig);
        }
        catch (final RuntimeException ex)
        {
            if (metrics != null)
            {
                metrics.close();
            }
            throw ex;
        }
        if (metrics != null)
        {
            metrics.started(() -> samples(node), () -> health(node.readiness()));
        }
        final PrintWriter out = command.getOut();
        out.printf("spool server: cluster node %d of %s, consensus on %s, clients on %s:%d, data directory %s%n",
            nodeId, nodeConfig.members(), self.address(), node.server().host(), node.server().port(), dataDirectory);
        if (node.server().kafkaListener() != null)
        {
            out.printf("spool server: Kafka listener on %s (bootstrap.servers=%s; Metadata names every node's " +
                "listener once it has started)%n", node.server().kafkaListener().bootstrapServers(),
                node.server().kafkaListener().bootstrapServers());
        }
        out.flush();
        new CloseOnce(metrics, List.of(node::close)).closeWhenDone(node.server());
        final Optional<String> stopped = node.stoppedBecause();
        if (stopped.isPresent())
        {
            command.getErr().println("spool server: " + stopped.get());
            command.getErr().flush();
            return EXIT_NODE_STOPPED;
        }
        out.println("spool server: closed");
        out.flush();
        return 0;
    }

    /** The node's engine's and server's figures, as a single server serves them, and its cluster figures. */
    private static List<MetricSample> samples(final ClusterNode node)
    {
        final List<MetricSample> samples = new ArrayList<>(node.server().metrics());
        samples.addAll(node.clusterMetrics());
        return samples;
    }

    private static MetricsEndpoint.Health health(final ClusterReadiness.State state)
    {
        return new MetricsEndpoint.Health(state.serving(), (state.serving() ? "ready: " : "not ready: ") +
            state.description());
    }
}
