package io.spool.wire.kafka;

import io.spool.api.stream.TopicConfig;
import io.spool.log.PartitionLog;
import io.spool.stream.StreamEngine;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Measures both sides of the choice docs/decisions/001-kafka-record-batches.md records, on the listener's own code:
 * converting each Kafka batch into Spool records on produce and Spool records back into a batch on fetch (what the
 * listener does), against keeping batches as they arrive (checking the CRC, copying the bytes in, stamping the base
 * offset; on fetch, copying the stored bytes out). The stored side of "as they arrive" is modelled by a copy into
 * a buffer, not by the log; the converting side publishes into a real engine's log and reads back through it.
 * For {@code spool bench kafka --batch-storage}; one run at a time.
 */
public final class BatchStorageComparison
{
    private static final int BATCH_RECORDS = 500;

    /** Nanoseconds per record of each side, produce and fetch. */
    public record Result(double convertProduceNanos, double keepProduceNanos, double convertFetchNanos,
        double keepFetchNanos)
    {
    }

    private BatchStorageComparison()
    {
    }

    /** Runs {@code rounds} rounds of {@code records} records of {@code recordBytes} on a fresh topic of {@code streams}. */
    public static Result measure(final StreamEngine streams, final int records, final int recordBytes, final int rounds)
    {
        final List<MemoryRecords> batches = batches(records, recordBytes);
        double convertProduce = 0;
        double keepProduce = 0;
        double convertFetch = 0;
        double keepFetch = 0;
        for (int round = 0; round < rounds; round++)
        {
            final String topic = "batch-storage-" + round;
            streams.createTopic(topic, TopicConfig.of(1));
            final PartitionLog log = streams.topics().topic(topic).partition(0);
            long start = System.nanoTime();
            convertAndPublish(streams, topic, batches);
            convertProduce += System.nanoTime() - start;
            start = System.nanoTime();
            final ByteBuffer kept = keep(batches);
            keepProduce += System.nanoTime() - start;
            start = System.nanoTime();
            final long fetched = fetchConverted(log, records);
            convertFetch += System.nanoTime() - start;
            start = System.nanoTime();
            final long copied = fetchKept(kept);
            keepFetch += System.nanoTime() - start;
            if (fetched == 0 || copied == 0)
            {
                throw new IllegalStateException("a round read nothing back");
            }
            streams.deleteTopic(topic);
        }
        final double perRecord = (double)records * rounds;
        return new Result(convertProduce / perRecord, keepProduce / perRecord, convertFetch / perRecord,
            keepFetch / perRecord);
    }

    private static List<MemoryRecords> batches(final int records, final int recordBytes)
    {
        final List<MemoryRecords> batches = new ArrayList<>();
        final byte[] value = new byte[recordBytes];
        for (int first = 0; first < records; first += BATCH_RECORDS)
        {
            final SimpleRecord[] batch = new SimpleRecord[Math.min(BATCH_RECORDS, records - first)];
            for (int i = 0; i < batch.length; i++)
            {
                batch[i] = new SimpleRecord(System.currentTimeMillis(), null, value, new RecordHeader[0]);
            }
            batches.add(MemoryRecords.withRecords(Compression.NONE, batch));
        }
        return batches;
    }

    private static void convertAndPublish(final StreamEngine streams, final String topic,
        final List<MemoryRecords> batches)
    {
        final io.spool.stream.StreamProducer producer = streams.newProducer();
        java.util.concurrent.CompletableFuture<?> last = null;
        for (final MemoryRecords batch : batches)
        {
            final MutableRecordBatch each = batch.batches().iterator().next();
            each.ensureValid();
            last = producer.sendBatch(KafkaRecords.toSpool(topic, 0, each));
        }
        if (last != null)
        {
            last.join();
        }
    }

    private static ByteBuffer keep(final List<MemoryRecords> batches)
    {
        int size = 0;
        for (final MemoryRecords batch : batches)
        {
            size += batch.sizeInBytes();
        }
        final ByteBuffer stored = ByteBuffer.allocateDirect(size);
        long offset = 0;
        for (final MemoryRecords batch : batches)
        {
            for (final MutableRecordBatch each : batch.batches())
            {
                // The CRC covers attributes to the end, not the base offset: checked once, offsets set in place.
                each.ensureValid();
                each.setLastOffset(offset + each.lastOffset() - each.baseOffset());
                offset = each.nextOffset();
            }
            stored.put(batch.buffer().duplicate());
        }
        stored.flip();
        return stored;
    }

    private static long fetchConverted(final PartitionLog log, final int records)
    {
        long bytes = 0;
        try (PartitionReaders readers = new PartitionReaders())
        {
            long offset = log.startOffset();
            while (offset < log.startOffset() + records)
            {
                final MemoryRecords read = readers.read(log, offset, 1 << 20, true);
                bytes += read.sizeInBytes();
                long next = offset;
                for (final MutableRecordBatch batch : read.batches())
                {
                    next = batch.nextOffset();
                }
                offset = next;
            }
        }
        return bytes;
    }

    private static long fetchKept(final ByteBuffer kept)
    {
        final ByteBuffer out = ByteBuffer.allocate(1 << 20);
        long bytes = 0;
        final ByteBuffer from = kept.duplicate();
        while (from.hasRemaining())
        {
            out.clear();
            final ByteBuffer chunk = from.slice();
            chunk.limit(Math.min(chunk.remaining(), out.capacity()));
            out.put(chunk);
            from.position(from.position() + chunk.limit());
            bytes += chunk.limit();
        }
        return bytes;
    }
}
