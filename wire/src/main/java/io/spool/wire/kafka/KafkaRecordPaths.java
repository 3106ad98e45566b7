package io.spool.wire.kafka;

import io.spool.log.PartitionLog;
import io.spool.stream.StreamEngine;
import io.spool.stream.StreamProducer;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;

import java.nio.ByteBuffer;

/**
 * The listener's per-record work on one partition, without the network: a produce batch converted and published
 * as {@link ProduceApi} does it, a fetch read into record batches as {@link FetchApi} does it. For the allocation
 * benchmarks (which, outside this package, hold a batch as its bytes only); used by one thread, as a
 * connection's event loop would.
 */
public final class KafkaRecordPaths implements AutoCloseable
{
    private final String topic;
    private final PartitionLog log;
    private final StreamProducer producer;
    private final PartitionReaders readers = new PartitionReaders();

    /** The paths onto partition 0 of {@code topic}, which must exist. */
    public KafkaRecordPaths(final StreamEngine streams, final String topic)
    {
        this.topic = topic;
        this.log = streams.topics().topic(topic).partition(0);
        this.producer = streams.newProducer();
    }

    /** A produce request's batch of {@code count} records with no key or headers and {@code value} each. */
    public static ByteBuffer batchOf(final int count, final byte[] value)
    {
        final SimpleRecord[] records = new SimpleRecord[count];
        for (int i = 0; i < count; i++)
        {
            records[i] = new SimpleRecord(System.currentTimeMillis(), null, value, new RecordHeader[0]);
        }
        return MemoryRecords.withRecords(Compression.NONE, records).buffer();
    }

    /** Converts and publishes the one batch in {@code batchBytes} (left as it is); its first offset once stored. */
    public long produce(final ByteBuffer batchBytes)
    {
        final RecordBatch batch = MemoryRecords.readableRecords(batchBytes.duplicate()).batches().iterator().next();
        batch.ensureValid();
        return producer.sendBatch(KafkaRecords.toSpool(topic, 0, batch)).join().get(0).offset();
    }

    /** Reads from {@code offset} into record batches of about {@code maxBytes}; the bytes they take. */
    public int fetch(final long offset, final int maxBytes)
    {
        return readers.read(log, offset, maxBytes, true).sizeInBytes();
    }

    @Override
    public void close()
    {
        readers.close();
    }
}
