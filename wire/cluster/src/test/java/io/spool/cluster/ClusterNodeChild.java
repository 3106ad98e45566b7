package io.spool.cluster;

import io.spool.wire.server.ServerConfig;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A cluster node in a child JVM, for tests that kill it: {@code ClusterNodeChild NODE_ID MEMBERS DATA_DIR
 * ELECTION_MILLIS [KAFKA_PORT]}, with a Kafka listener on the loopback port when one is given. Prints {@code READY <client port>} once serving, and closes cleanly when its standard input
 * ends (so it never outlives the test JVM).
 */
public final class ClusterNodeChild
{
    private ClusterNodeChild()
    {
    }

    public static void main(final String[] args) throws IOException
    {
        final ServerConfig.Builder server = ServerConfig.builder().port(0);
        if (args.length > 4)
        {
            server.kafka("127.0.0.1", Integer.parseInt(args[4]));
        }
        final ClusterNodeConfig config = new ClusterNodeConfig(Integer.parseInt(args[0]), ClusterMembers.parse(args[1]),
            Path.of(args[2]), server, Duration.ofMillis(Long.parseLong(args[3])));
        try (ClusterNode node = ClusterNode.start(config))
        {
            System.out.println("READY " + node.server().port());
            System.out.flush();
            while (System.in.read() >= 0)
            {
                // nothing is sent; the read returns -1 when the test closes the pipe or dies
            }
        }
        System.exit(0);
    }
}
