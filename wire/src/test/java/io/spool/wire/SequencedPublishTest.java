package io.spool.wire;

import io.spool.api.InvalidRequestException;
import io.spool.api.stream.ProducerRecord;
import io.spool.wire.client.FailoverProducer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** PUBLISH_SEQUENCED on a server that is no cluster node: refused, since a retry could not be stored once. */
class SequencedPublishTest
{
    @TempDir
    Path dir;
    private WireFixture fixture;

    @BeforeEach
    void start()
    {
        fixture = new WireFixture(dir);
    }

    @AfterEach
    void stop()
    {
        fixture.close();
    }

    @Test
    void aServerThatIsNoClusterNodeRefusesASequencedPublishAndStoresNothing()
    {
        fixture.connect().admin().createTopic("orders", WireFixture.topic(1));
        try (FailoverProducer producer = FailoverProducer.connect(List.of(fixture.clientConfig().build())))
        {
            assertThatThrownBy(() -> producer.send("orders", 0,
                List.of(ProducerRecord.toPartition("orders", 0, null, "one".getBytes(UTF_8))))
                .get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("no cluster node");
            assertThat(producer.failovers()).isZero();
        }
        assertThat(fixture.spool().streams().topics().topic("orders").partition(0).endOffset()).isZero();
    }
}
