package io.spool.wire;

import io.spool.testing.SlowTest;
import io.spool.wire.client.SpoolClient;
import io.spool.wire.server.ServerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Connections opened and closed as fast as two threads can, never more than two open at once, beside a client that
 * connects, asks and leaves again and again: that client always gets in, and the server's descriptors stay bounded
 * by its limits, not by the connect rate. The storm is counted in connections, not time, and nothing waits for a
 * deadline, so a loaded machine only makes it slower.
 */
@SlowTest
class ConnectStormTest
{
    private static final Path OWN_DESCRIPTORS = Path.of("/proc/self/fd");
    private static final int MAX_CONNECTIONS = 64;
    /**
     * What the server may hold beyond its sessions: connections not yet handshaken (64 past the limit) and one
     * accept burst, plus this test's own sockets.
     */
    private static final int MOST_EXTRA_DESCRIPTORS = MAX_CONNECTIONS + 64 + 32;
    /** Each storm thread's connections; an abortive close leaves no TIME_WAIT port behind on this side. */
    private static final int STORM_CONNECTIONS = 4_000;

    @TempDir
    Path dir;

    @Test
    void aConnectStormNeitherLocksAClientOutNorRunsTheServerOutOfDescriptors() throws Exception
    {
        assumeTrue(Files.isDirectory(OWN_DESCRIPTORS), "counts descriptors through /proc");
        try (WireFixture fixture = new WireFixture(dir, ServerConfig.builder().maxConnections(MAX_CONNECTIONS)))
        {
            stormBesideAVisitor(fixture);
        }
    }

    private static void stormBesideAVisitor(final WireFixture fixture) throws Exception
    {
        final InetSocketAddress server = new InetSocketAddress("127.0.0.1", fixture.server().port());
        final long baseline = openDescriptors();
        final AtomicBoolean stormDone = new AtomicBoolean();
        final List<CompletableFuture<Void>> storm = List.of(
            CompletableFuture.runAsync(() -> connectAndClose(server, false)),
            CompletableFuture.runAsync(() -> connectAndClose(server, true)));
        CompletableFuture.allOf(storm.toArray(CompletableFuture[]::new))
            .whenComplete((done, failed) -> stormDone.set(true));

        final List<String> refusals = new ArrayList<>();
        int visits = 0;
        long mostDescriptors = baseline;
        while (!stormDone.get() || visits < 50)
        {
            try (SpoolClient client = SpoolClient.connect(fixture.clientConfig().build()))
            {
                client.admin().listTopics();
            }
            catch (final RuntimeException refused)
            {
                refusals.add(refused.toString());
            }
            visits++;
            mostDescriptors = Math.max(mostDescriptors, openDescriptors());
        }
        for (final CompletableFuture<Void> thread : storm)
        {
            thread.get(10, TimeUnit.MINUTES);
        }

        assertThat(refusals).as("the well-behaved client got in on each of its " + visits + " visits").isEmpty();
        assertThat(mostDescriptors - baseline)
            .as("descriptors beyond the baseline of " + baseline + " stay within the server's bounds")
            .isLessThanOrEqualTo(MOST_EXTRA_DESCRIPTORS);
        assertThat(WireFixture.await(() -> fixture.server().acceptedConnectionCount() == 0, Duration.ofSeconds(30)))
            .as("every storm connection was closed").isTrue();
    }

    /**
     * Opens and closes connections one at a time, abortively; with {@code writesFirst} each first writes the start
     * of a frame, so the server has bytes to read.
     */
    private static void connectAndClose(final InetSocketAddress server, final boolean writesFirst)
    {
        for (int i = 0; i < STORM_CONNECTIONS; i++)
        {
            try (Socket socket = new Socket())
            {
                socket.setSoLinger(true, 0);
                socket.connect(server);
                if (writesFirst)
                {
                    final OutputStream out = socket.getOutputStream();
                    out.write(new byte[]{16, 0, 0, 0, 1, 0});
                    out.flush();
                }
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException("storm connection " + i, ex);
            }
        }
    }

    private static long openDescriptors()
    {
        try (Stream<Path> descriptors = Files.list(OWN_DESCRIPTORS))
        {
            return descriptors.count();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
