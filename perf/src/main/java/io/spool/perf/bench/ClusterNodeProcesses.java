package io.spool.perf.bench;

import io.spool.cluster.ClusterMembers;
import io.spool.cluster.LoopbackPorts;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A three-node cluster on loopback, each node a child JVM running {@code spool server --node-id N --cluster LIST},
 * so that a benchmark can SIGKILL a node and start it again. Not thread-safe.
 */
final class ClusterNodeProcesses implements AutoCloseable
{
    private static final String READY = "spool server: cluster node ";

    private final ClusterMembers members;
    private final Path directory;
    private final Process[] processes;

    ClusterNodeProcesses(final Path directory, final int size)
    {
        this.directory = directory;
        this.members = LoopbackPorts.members(size);
        this.processes = new Process[size];
    }

    ClusterMembers members()
    {
        return members;
    }

    void startAll()
    {
        for (int id = 1; id <= processes.length; id++)
        {
            launch(id);
        }
        for (int id = 1; id <= processes.length; id++)
        {
            awaitReady(id);
        }
    }

    /** Starts node {@code id} and waits until it serves. */
    void start(final int id)
    {
        launch(id);
        awaitReady(id);
    }

    private void launch(final int id)
    {
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        try
        {
            processes[id - 1] = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "io.spool.perf.cli.SpoolCommand", "server", "--node-id", Integer.toString(id),
                "--cluster", members.toString(), "--port", "0",
                "--data-dir", directory.resolve("node-" + id).toString())
                .redirectError(directory.resolve("node-" + id + ".log").toFile())
                .start();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot start cluster node " + id, ex);
        }
    }

    private void awaitReady(final int id)
    {
        try
        {
            final BufferedReader out = new BufferedReader(new InputStreamReader(processes[id - 1].getInputStream(),
                StandardCharsets.UTF_8));
            String line;
            while ((line = out.readLine()) != null && !line.startsWith(READY))
            {
                // the command prints nothing else before it serves
            }
            if (line == null)
            {
                throw new IllegalStateException("cluster node " + id + " exited before serving; see " +
                    directory.resolve("node-" + id + ".log"));
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** SIGKILL: the node gets no chance to close anything. */
    void kill(final int id) throws InterruptedException
    {
        processes[id - 1].destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException
    {
        for (final Process process : processes)
        {
            if (process != null && process.isAlive())
            {
                process.destroy();
                if (!process.waitFor(30, TimeUnit.SECONDS))
                {
                    process.destroyForcibly();
                }
            }
        }
    }
}
