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
    private final BatchWriter writer = new BatchWriter();

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
        writer.start(log.config().logAppendTime());
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

    /**
     * Writes the records handed to it into batches; a topic keeping append times gets a batch per append time.
     * Reused from read to read: the batches are built in one buffer kept for the connection, and each read's
     * records leave in a copy of their size, since the response holds on to them after the next read began.
     */
    private static final class BatchWriter implements RecordHandler
    {
        private final KafkaRecords.Regions regions = new KafkaRecords.Regions();
        private ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
        private boolean logAppendTime;
        private MemoryRecordsBuilder batch;
        private long batchTime;
        private int bytes;

        void start(final boolean logAppendTime)
        {
            this.logAppendTime = logAppendTime;
            buffer.clear();
            batch = null;
            batchTime = RecordBatch.NO_TIMESTAMP;
            bytes = 0;
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
            KafkaRecords.append(batch, record, regions);
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
            final ByteBuffer records = ByteBuffer.allocate(written.remaining());
            records.put(written).flip();
            return MemoryRecords.readableRecords(records);
        }
    }
}
