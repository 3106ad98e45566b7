package io.spool.perf.cli;

import io.spool.cluster.ClusterMembers;
import io.spool.cluster.ClusterNode;
import io.spool.cluster.ClusterNodeConfig;
import io.spool.wire.server.ServerConfig;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * {@code spool server --node-id N --cluster LIST}: runs one node of a static cluster until interrupted, serving
 * reads on the server's port and replication on the node's consensus port from the list.
 */
final class ClusterServing
{
    private ClusterServing()
    {
    }

    /**
     * @throws ParameterException when only one of --node-id and --cluster is given, the list is not one, the id
     *                            is not in it, or the snapshot interval is below 1.
     */
    static int serve(final CommandLine command, final Integer nodeId, final String cluster,
        final Integer snapshotEveryEntries, final Path dataDirectory, final ServerConfig.Builder settings)
        throws InterruptedException
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
        final ClusterNode node = ClusterNode.start(nodeConfig);
        final Thread closeOnShutdown = new Thread(node::close, "spool-cluster-shutdown");
        Runtime.getRuntime().addShutdownHook(closeOnShutdown);
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
        node.server().awaitClose();
        return 0;
    }
}
