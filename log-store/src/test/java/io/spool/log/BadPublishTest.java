package io.spool.log;

import io.spool.api.log.LogConfig;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.spool.log.LogFixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * A caller's bad publish is refused before anything is claimed, and a fault between a claim and its publish turns the
 * claimed slots into no-ops: either way every later publish, to any log of the pipeline, still confirms and the store
 * still closes. Each case runs under a generous deadline because the defect it guards against is a hang.
 */
class BadPublishTest
{
    private static final Duration HANG = Duration.ofSeconds(60);

    @TempDir
    Path dir;
    private LogStore store;
    private PartitionLog log;
    private PartitionLog other;

    /** One way of publishing a single record. */
    enum Entry
    {
        PUBLISH, PUBLISH_WITH_ATTRIBUTES, TRY_PUBLISH, TRY_PUBLISH_WITH_ATTRIBUTES;

        long publish(final LogProducer producer, final PartitionLog log,
            final DirectBuffer key, final int keyOffset, final int keyLength,
            final DirectBuffer headers, final int headersOffset, final int headersLength,
            final DirectBuffer value, final int valueOffset, final int valueLength, final ConfirmListener listener)
        {
            return switch (this)
            {
                case PUBLISH -> producer.publish(log, -1, key, keyOffset, keyLength, headers, headersOffset,
                    headersLength, value, valueOffset, valueLength, listener, 0);
                case PUBLISH_WITH_ATTRIBUTES -> producer.publish(log, -1, 0, key, keyOffset, keyLength, headers,
                    headersOffset, headersLength, value, valueOffset, valueLength, listener, 0);
                case TRY_PUBLISH -> producer.tryPublish(log, -1, key, keyOffset, keyLength, headers, headersOffset,
                    headersLength, value, valueOffset, valueLength, listener, 0);
                case TRY_PUBLISH_WITH_ATTRIBUTES -> producer.tryPublish(log, -1, 0, key, keyOffset, keyLength,
                    headers, headersOffset, headersLength, value, valueOffset, valueLength, listener, 0);
            };
        }
    }

    @ParameterizedTest
    @EnumSource(Entry.class)
    void aRangePastItsBufferIsRefusedAndTheEngineGoesOn(final Entry entry)
    {
        assertTimeoutPreemptively(HANG, () ->
        {
            open(PipelineThreading.COMBINED);
            final LogProducer producer = store.newProducer();
            final UnsafeBuffer small = new UnsafeBuffer(new byte[10]);
            final UnsafeBuffer key = new UnsafeBuffer(new byte[4]);

            assertThatThrownBy(() -> entry.publish(producer, log, small, 0, -1, small, 0, 0, small, 0, 500, null))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("value (500 bytes at offset 0")
                .hasMessageContaining("buffer of 10 bytes");
            assertThatThrownBy(() -> entry.publish(producer, log, key, 100, 4, small, 0, 0, small, 0, 1, null))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("key (4 bytes at offset 100");
            assertThatThrownBy(() -> entry.publish(producer, log, key, 0, 4, small, 8, 3, small, 0, 1, null))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("headers");
            assertThatThrownBy(() -> entry.publish(producer, log, key, 0, 4, small, 0, 0, small, -1, 2, null))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("value (2 bytes at offset -1");
            assertThatThrownBy(() -> entry.publish(producer, log, null, 0, 4, small, 0, 0, small, 0, 2, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("key is 4 bytes long but its buffer is null");

            assertLaterPublishesConfirm();
        });
    }

    @ParameterizedTest
    @EnumSource(PipelineThreading.class)
    void aFaultBetweenClaimAndPublishLeavesANoOpSlot(final PipelineThreading threading)
    {
        assertTimeoutPreemptively(HANG, () ->
        {
            open(threading);
            final LogProducer producer = store.newProducer();
            final UnsafeBuffer released = new ReleasedBuffer(new byte[8]);
            final IngestPipelineTest.Confirms confirms = new IngestPipelineTest.Confirms(1);

            for (final Entry entry : Entry.values())
            {
                assertThatThrownBy(() -> entry.publish(producer, log, released, 0, -1, released, 0, 0, released, 0, 8,
                    confirms)).isInstanceOf(IllegalStateException.class).hasMessageContaining("released");
            }
            assertLaterPublishesConfirm();
            assertThat(confirms.confirmed).as("an aborted slot tells its listener nothing").isEmpty();
            assertThat(confirms.failed).isEmpty();
            assertThat(log.endOffset()).isEqualTo(1);
        });
    }

    @Test
    void aFaultInABatchLeavesItsSlotsNoOps()
    {
        assertTimeoutPreemptively(HANG, () ->
        {
            open(PipelineThreading.COMBINED);
            final LogProducer producer = store.newProducer();
            final UnsafeBuffer good = new UnsafeBuffer(bytes("fine"));
            final UnsafeBuffer released = new ReleasedBuffer(new byte[8]);
            final RecordBatch batch = new RecordBatch().add(-1, good, 0, -1, good, 0, 0, good, 0, 4);
            final IngestPipelineTest.Confirms confirms = new IngestPipelineTest.Confirms(1);
            batch.clearOver(released).addInPlace(-1, 0, 0, -1, 0, 8).addInPlace(-1, 0, 0, 4, 0, 4);

            assertThatThrownBy(() -> producer.publishBatch(log, batch, confirms, 0))
                .isInstanceOf(IllegalStateException.class);
            assertLaterPublishesConfirm();
            assertThat(confirms.confirmed).isEmpty();
            assertThat(confirms.failed).isEmpty();
        });
    }

    @Test
    void aBatchRefusesARangePastItsBufferAndKeepsWhatWasAdded()
    {
        assertTimeoutPreemptively(HANG, () ->
        {
            open(PipelineThreading.COMBINED);
            final UnsafeBuffer value = new UnsafeBuffer(bytes("first"));
            final RecordBatch batch = new RecordBatch().add(-1, value, 0, -1, value, 0, 0, value, 0, 5);

            assertThatThrownBy(() -> batch.add(-1, value, 0, 3, value, 0, 0, value, 2, 500))
                .isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("value (500 bytes at offset 2");
            assertThatThrownBy(() -> batch.add(-1, value, 9, 3, value, 0, 0, value, 0, 1))
                .isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("key (3 bytes at offset 9");
            assertThat(batch.size()).isEqualTo(1);
            final IngestPipelineTest.Confirms confirms = new IngestPipelineTest.Confirms(1);
            store.newProducer().publishBatch(log, batch, confirms, 0);
            confirms.await();
            assertThat(LogFixture.readAll(log, 0)).containsExactly("0:null:first");

            assertLaterPublishesConfirm();
        });
    }

    /** Opens a store with one pipeline that two logs share. */
    private void open(final PipelineThreading threading)
    {
        store = LogStore.open(dir, LogStoreConfig.builder().ringSize(64).pipelines(1).threading(threading)
            .backgroundMaintenance(false).build());
        log = store.openLog("t/0", LogConfig.DEFAULT);
        other = store.openLog("u/0", LogConfig.DEFAULT);
    }

    /** A publish to each log confirms, then the store closes; both would hang behind a slot left unpublished. */
    private void assertLaterPublishesConfirm() throws Exception
    {
        final LogProducer producer = store.newProducer();
        final CompletableFuture<Long> next = producer.append(log, null, null, bytes("after"));
        final CompletableFuture<Long> elsewhere = producer.append(other, null, null, bytes("elsewhere"));
        assertThat(next.get(30, TimeUnit.SECONDS)).isEqualTo(log.endOffset() - 1);
        assertThat(elsewhere.get(30, TimeUnit.SECONDS)).isEqualTo(other.endOffset() - 1);
        store.close();
    }

    /** A buffer whose bytes can no longer be copied, as if it were freed under the publisher: it fails mid-copy. */
    private static final class ReleasedBuffer extends UnsafeBuffer
    {
        ReleasedBuffer(final byte[] bytes)
        {
            super(bytes);
        }

        @Override
        public byte[] byteArray()
        {
            throw new IllegalStateException("the buffer was released");
        }
    }
}
