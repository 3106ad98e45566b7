package io.spool.wire;

import io.spool.api.stream.TopicConfig;
import io.spool.wire.client.ClientConfig;
import io.spool.wire.client.SpoolClient;
import io.spool.wire.server.ServerConfig;
import io.spool.wire.server.SpoolServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ServerLifecycleTest
{
    @TempDir
    Path dir;

    @Test
    void aServerOpenedOnADataDirectoryServesItBindsLoopbackAndKeepsItAcrossRestarts() throws Exception
    {
        final SpoolServer first = SpoolServer.open(dir, ServerConfig.builder().port(0).build());
        assertThat(first.host()).isEqualTo("127.0.0.1");
        final CompletableFuture<Void> waiting = CompletableFuture.runAsync(() ->
        {
            try
            {
                first.awaitClose();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        });
        try (SpoolClient client = SpoolClient.connect(ClientConfig.builder().port(first.port()).build()))
        {
            client.admin().createTopic("kept", TopicConfig.of(1).withLog(WireFixture.SMALL_LOG));
        }
        assertThat(waiting).isNotDone();
        first.close();
        waiting.get(10, TimeUnit.SECONDS);

        try (SpoolServer second = SpoolServer.open(dir, ServerConfig.builder().port(0).build());
             SpoolClient client = SpoolClient.connect(ClientConfig.builder().port(second.port()).build()))
        {
            assertThat(client.admin().listTopics()).containsExactly("kept");
        }
    }

    @Test
    void badSettingsAreRefusedWithTheirName()
    {
        assertThatThrownBy(() -> ServerConfig.builder().maxFrameLength(10).build())
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxFrameLength");
        assertThatThrownBy(() -> ServerConfig.builder().port(70_000).build())
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("port");
        assertThatThrownBy(() -> ClientConfig.builder().port(0).build())
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("port");
    }
}
