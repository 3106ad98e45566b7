package io.spool.log;

import io.spool.api.SpoolException;
import io.spool.api.log.DedupKey;
import io.spool.api.log.HeadersCodec;
import io.spool.api.log.LogConfig;
import io.spool.api.log.RecordDescriptor;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static io.spool.log.LogFixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DedupTest
{
    private static final LogConfig CONFIG = LogConfig.builder().dedupWindowMillis(60_000).build();

    @TempDir
    Path dir;
    LogFixture fx;

    @BeforeEach
    void open()
    {
        fx = new LogFixture(dir);
    }

    @AfterEach
    void close()
    {
        fx.close();
    }

    private long publish(final PartitionLog log, final String dedupId, final String value)
    {
        final Map<String, byte[]> headers = new LinkedHashMap<>();
        headers.put("other", bytes("x"));
        headers.put(DedupKey.HEADER, bytes(dedupId));
        final UnsafeBuffer h = new UnsafeBuffer(HeadersCodec.encode(headers));
        final UnsafeBuffer v = new UnsafeBuffer(bytes(value));
        final Future confirm = new Future();
        fx.store.newProducer().publish(log, -1, RecordDescriptor.ATTRIBUTE_DEDUP, v, 0, -1, h, 0, h.capacity(),
            v, 0, v.capacity(), confirm, 0);
        return confirm.join();
    }

    static final class Future extends CompletableFuture<Long> implements ConfirmListener
    {
        @Override
        public void onConfirmed(final long correlation, final long offset)
        {
            complete(offset);
        }

        @Override
        public void onFailed(final long correlation, final SpoolException error)
        {
            completeExceptionally(error);
        }
    }

    @Test
    void aRepeatedIdInsideTheWindowReturnsTheFirstOffsetAndStoresNothing()
    {
        final PartitionLog log = fx.store.openLog("d/0", CONFIG);
        assertThat(publish(log, "B0", "first")).isEqualTo(0);
        assertThat(publish(log, "B1", "other")).isEqualTo(1);
        assertThat(publish(log, "B0", "retry")).isEqualTo(0);
        assertThat(log.endOffset()).isEqualTo(2);
        assertThat(LogFixture.readAll(log, 0)).containsExactly("0:null:first", "1:null:other");
    }

    @Test
    void anIdIsForgottenOnceTheWindowHasPassed()
    {
        final PartitionLog log = fx.store.openLog("d/0", CONFIG);
        assertThat(publish(log, "B0", "first")).isEqualTo(0);
        fx.clock.advance(60_001);
        assertThat(publish(log, "B0", "again")).isEqualTo(1);
    }

    @Test
    void theWindowSurvivesARestart()
    {
        PartitionLog log = fx.store.openLog("d/0", CONFIG);
        publish(log, "B0", "first");
        publish(log, "B1", "second");
        fx.clock.advance(30_000);
        fx.reopen();
        log = fx.store.openLog("d/0", CONFIG);
        assertThat(publish(log, "B1", "retry after restart")).isEqualTo(1);
        fx.clock.advance(30_001);
        assertThat(publish(log, "B0", "after the window")).isEqualTo(2);
    }

    @Test
    void duplicatesInsideOneBatchAreCaughtToo() throws Exception
    {
        final PartitionLog log = fx.store.openLog("d/0", CONFIG);
        final RecordBatch batch = new RecordBatch();
        final UnsafeBuffer h = new UnsafeBuffer(HeadersCodec.encode(Map.of(DedupKey.HEADER, bytes("same"))));
        final UnsafeBuffer v = new UnsafeBuffer(bytes("v"));
        for (int i = 0; i < 3; i++)
        {
            batch.add(-1, RecordDescriptor.ATTRIBUTE_DEDUP, v, 0, -1, h, 0, h.capacity(), v, 0, 1);
        }
        final IngestPipelineTest.Confirms confirms = new IngestPipelineTest.Confirms(3);
        fx.store.newProducer().publishBatch(log, batch, confirms, 0);
        confirms.await();
        assertThat(confirms.confirmed).extracting(c -> c[1]).containsOnly(0L);
        assertThat(log.endOffset()).isEqualTo(1);
    }

    @Test
    void theDedupAttributeWithoutAnIdIsRefused()
    {
        final PartitionLog log = fx.store.openLog("d/0", CONFIG);
        final UnsafeBuffer v = new UnsafeBuffer(bytes("v"));
        assertThatThrownBy(() -> fx.store.newProducer().publish(log, -1, RecordDescriptor.ATTRIBUTE_DEDUP,
            v, 0, -1, v, 0, 0, v, 0, 1, null, 0))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("headers carry no x-dedup-id");
        assertThatThrownBy(() -> fx.store.newProducer().publish(log, -1, 0x80, v, 0, -1, v, 0, 0, v, 0, 1, null, 0))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown record attributes 0x80");
    }

    @Test
    void the128BitKeyMatchesReferenceVectors()
    {
        final UnsafeBuffer empty = new UnsafeBuffer(new byte[0]);
        assertThat(DedupKey.high(empty, 0, 0)).isZero();
        final byte[] fox = bytes("The quick brown fox jumps over the lazy dog");
        final UnsafeBuffer buffer = new UnsafeBuffer(fox);
        assertThat(Long.toHexString(DedupKey.high(buffer, 0, fox.length))).isEqualTo("e34bbc7bbc071b6c");
        assertThat(Long.toHexString(DedupKey.low(buffer, 0, fox.length))).isEqualTo("7a433ca9c49a9347");
    }

    @Test
    void consumedSegmentsHoldingIdsInsideTheWindowStaySoTheWindowSurvivesARestart()
    {
        final LogConfig small = LogFixture.smallSegments(4096).toBuilder().dedupWindowMillis(60_000).build();
        PartitionLog log = fx.store.openLog("d/0", small);
        assertThat(publish(log, "first", "v")).isEqualTo(0);
        for (int i = 0; i < 200; i++)
        {
            fx.append(log, null, "filler-" + i);
        }
        assertThat(log.deleteSegmentsBelow(log.endOffset())).as("the segment with the id stays").isZero();
        fx.reopen();
        log = fx.store.openLog("d/0", small);
        assertThat(publish(log, "first", "again")).as("still a duplicate after the restart").isEqualTo(0);
        fx.clock.advance(60_001);
        assertThat(log.deleteSegmentsBelow(log.endOffset())).as("past the window it goes").isPositive();
    }
}
