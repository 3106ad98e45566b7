package io.spool.cluster;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** One cluster node run as a child JVM ({@link ClusterNodeChild}), which a test can SIGKILL and start again. */
final class NodeProcess implements AutoCloseable
{
    private final int nodeId;
    private final ClusterMembers members;
    private final Path dataDir;
    private final Duration electionTimeout;
    /** The port of the node's Kafka listener, the same in every run; -1 for none. */
    private final int kafkaPort;
    private Process process;
    private int clientPort;
    private int starts;

    NodeProcess(final int nodeId, final ClusterMembers members, final Path dataDir, final Duration electionTimeout)
    {
        this(nodeId, members, dataDir, electionTimeout, -1);
    }

    /** @param kafkaPort the loopback port of the node's Kafka listener in every run, or -1 for none. */
    NodeProcess(final int nodeId, final ClusterMembers members, final Path dataDir, final Duration electionTimeout,
        final int kafkaPort)
    {
        this.nodeId = nodeId;
        this.members = members;
        this.dataDir = dataDir;
        this.electionTimeout = electionTimeout;
        this.kafkaPort = kafkaPort;
    }

    int nodeId()
    {
        return nodeId;
    }

    Path dataDir()
    {
        return dataDir;
    }

    /** The port of the node's native server in its current run. */
    int clientPort()
    {
        return clientPort;
    }

    /** Where the node's current run writes its log (its standard error), beside its data directory. */
    Path runLog()
    {
        return dataDir.resolveSibling("node-" + nodeId + "-run-" + starts + ".log");
    }

    /** The address of the node's Kafka listener, as {@code bootstrap.servers} takes it. */
    String kafkaAddress()
    {
        if (kafkaPort < 0)
        {
            throw new IllegalStateException("node " + nodeId + " was launched without a Kafka listener");
        }
        return "127.0.0.1:" + kafkaPort;
    }

    boolean isAlive()
    {
        return process != null && process.isAlive();
    }

    /** Starts the node and waits for it to serve. */
    void start()
    {
        launch();
        awaitReady();
    }

    /** Starts the node's JVM without waiting, so that several nodes start side by side. */
    void launch()
    {
        starts++;
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        try
        {
            // a node under test lives seconds: the quick compiler alone starts it sooner
            final List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-cp", System.getProperty("java.class.path"), ClusterNodeChild.class.getName(),
                Integer.toString(nodeId), members.toString(), dataDir.toString(),
                Long.toString(electionTimeout.toMillis())));
            if (kafkaPort >= 0)
            {
                command.add(Integer.toString(kafkaPort));
            }
            process = new ProcessBuilder(command)
                .redirectError(runLog().toFile())
                .start();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** Waits for the launched node to say it serves. */
    void awaitReady()
    {
        try
        {
            final BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
            final String line = out.readLine();
            if (line == null || !line.startsWith("READY "))
            {
                throw new IllegalStateException("node " + nodeId + " did not start: " + line + "; see " + runLog());
            }
            clientPort = Integer.parseInt(line.substring("READY ".length()));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** SIGKILL: the node gets no chance to flush or close anything. */
    void kill()
    {
        process.destroyForcibly();
        awaitExit();
    }

    /** Ends the node cleanly, by closing its standard input. */
    void stop()
    {
        if (!isAlive())
        {
            return;
        }
        try
        {
            process.getOutputStream().close();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        awaitExit();
    }

    private void awaitExit()
    {
        try
        {
            if (!process.waitFor(30, TimeUnit.SECONDS))
            {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close()
    {
        if (isAlive())
        {
            kill();
        }
    }
}
