package io.spool.wire.kafka;

import io.spool.api.log.RecordView;
import io.spool.log.LogReader;
import io.spool.log.PartitionLog;
import io.spool.log.RecordHandler;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.RecordBatch;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

/**
 * One connection's readers, one per partition it fetches, kept between fetches so that a consumer reading on
 * from where it stopped does not seek again; and the encoding of what they read as Kafka record batches. Used on
 * the connection's event loop only.
 */
final class PartitionReaders implements AutoCloseable
{
    private static final int RECORD_OVERHEAD = 32;

    private final Map<PartitionLog, LogReader> readers = new HashMap<>();

    /**
     * Reads records from {@code offset} into uncompressed batches of about {@code maxBytes} at most (at least one
     * record when {@code atLeastOne}); empty records when none is committed there.
     *
     * @throws io.spool.api.log.OffsetOutOfRangeException when retention removed the records at {@code offset}.
     */
    MemoryRecords read(final PartitionLog log, final long offset, final int maxBytes, final boolean atLeastOne)
    {
        final LogReader reader = readers.computeIfAbsent(log, PartitionLog::newReader);
        if (reader.nextOffset() != offset)
        {
            reader.seek(offset);
        }
        final BatchWriter writer = new BatchWriter(log.config().logAppendTime(), Math.min(maxBytes, 1 << 20));
        final int budget = atLeastOne ? Math.max(1, maxBytes) : maxBytes;
        while (writer.bytes < budget)
        {
            final int handed = reader.poll(writer, 4096, budget - writer.bytes);
            if (handed == 0)
            {
                break;
            }
        }
        return writer.finish();
    }

    void forget(final PartitionLog log)
    {
        final LogReader reader = readers.remove(log);
        if (reader != null)
        {
            reader.close();
        }
    }

    @Override
    public void close()
    {
        readers.values().forEach(LogReader::close);
        readers.clear();
    }

    /** Writes the records handed to it into batches; a topic keeping append times gets a batch per append time. */
    private static final class BatchWriter implements RecordHandler
    {
        private final boolean logAppendTime;
        private ByteBuffer buffer;
        private MemoryRecordsBuilder batch;
        private long batchTime = RecordBatch.NO_TIMESTAMP;
        private int bytes;

        BatchWriter(final boolean logAppendTime, final int expectedBytes)
        {
            this.logAppendTime = logAppendTime;
            this.buffer = ByteBuffer.allocate(Math.max(512, expectedBytes + 256));
        }

        @Override
        public void onRecord(final RecordView record)
        {
            if (batch == null || (logAppendTime && record.timestamp() != batchTime))
            {
                closeBatch();
                batchTime = logAppendTime ? record.timestamp() : RecordBatch.NO_TIMESTAMP;
                batch = KafkaRecords.newBatch(buffer, record.offset(), batchTime);
            }
            KafkaRecords.append(batch, record);
            bytes += record.frameLength() + RECORD_OVERHEAD;
        }

        private void closeBatch()
        {
            if (batch != null)
            {
                batch.close();
                // The builder may have outgrown the buffer it was given; the next batch goes after its bytes.
                buffer = batch.buffer();
                batch = null;
            }
        }

        MemoryRecords finish()
        {
            if (batch == null)
            {
                return MemoryRecords.EMPTY;
            }
            closeBatch();
            final ByteBuffer written = buffer.duplicate();
            written.flip();
            return MemoryRecords.readableRecords(written.slice());
        }
    }
}
