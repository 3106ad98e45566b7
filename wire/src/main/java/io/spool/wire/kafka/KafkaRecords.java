package io.spool.wire.kafka;

import io.spool.api.log.HeadersCodec;
import io.spool.api.log.RecordView;
import io.spool.api.stream.ProducerRecord;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.utils.internals.BufferSupplier;
import org.apache.kafka.common.utils.internals.CloseableIterator;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Translates between Kafka's record batches (v2) and Spool's records, which store key, value, headers and
 * timestamp each on its own: a Kafka record becomes one Spool record with the same bytes, and a Spool record
 * becomes one record of an uncompressed batch. Stateless, thread-safe.
 */
final class KafkaRecords
{
    private static final Header[] NO_HEADERS = new Header[0];

    private KafkaRecords()
    {
    }

    /** Copies the records of one Kafka batch into Spool records for {@code partition} of {@code topic}. */
    static List<ProducerRecord> toSpool(final String topic, final int partition, final RecordBatch batch)
    {
        final List<ProducerRecord> records = new ArrayList<>(Math.max(0, recordCount(batch)));
        try (CloseableIterator<Record> all = ((MutableRecordBatch)batch).streamingIterator(BufferSupplier.NO_CACHING))
        {
            while (all.hasNext())
            {
                records.add(toSpool(topic, partition, all.next()));
            }
        }
        return records;
    }

    /** Copies one Kafka record into a Spool record for {@code partition} of {@code topic}. */
    private static ProducerRecord toSpool(final String topic, final int partition, final Record record)
    {
        final Header[] headers = record.headers();
        final Map<String, byte[]> headerMap = headers.length == 0 ? Map.of() : new LinkedHashMap<>();
        for (final Header header : headers)
        {
            headerMap.put(header.key(), header.value());
        }
        final long timestamp = record.timestamp() < 0 ? ProducerRecord.APPEND_TIME : record.timestamp();
        return new ProducerRecord(topic, partition, timestamp, bytes(record.key()), headerMap, bytes(record.value()));
    }

    private static byte[] bytes(final ByteBuffer buffer)
    {
        if (buffer == null)
        {
            return null;
        }
        final byte[] out = new byte[buffer.remaining()];
        buffer.duplicate().get(out);
        return out;
    }

    /**
     * A builder of one uncompressed batch whose first record has {@code baseOffset}, into {@code buffer} (which it
     * outgrows when it must).
     *
     * @param logAppendTime the time every record of the batch was appended, for a topic that keeps append times;
     *                      {@link RecordBatch#NO_TIMESTAMP} for one that keeps the producers' times.
     */
    static MemoryRecordsBuilder newBatch(final ByteBuffer buffer, final long baseOffset, final long logAppendTime)
    {
        return MemoryRecords.builder(buffer, RecordBatch.CURRENT_MAGIC_VALUE, Compression.NONE,
            logAppendTime == RecordBatch.NO_TIMESTAMP ? TimestampType.CREATE_TIME : TimestampType.LOG_APPEND_TIME,
            baseOffset, logAppendTime);
    }

    /**
     * Appends a stored record to a batch with its own offset, timestamp, key, value and headers; its key and value
     * pass through {@code regions}, which the builder copies from before this returns.
     */
    static void append(final MemoryRecordsBuilder batch, final RecordView view, final Regions regions)
    {
        batch.appendWithOffset(view.offset(), view.timestamp(),
            regions.key.copy(view, view.keyOffset(), view.keyLength()),
            regions.value.copy(view, view.valueOffset(), view.valueLength()), headers(view));
    }

    /** A thread's reused copies of a stored record's key and value, so that an append allocates neither. */
    static final class Regions
    {
        private final Region key = new Region();
        private final Region value = new Region();
    }

    /** One reused heap buffer, grown to the largest field copied into it. */
    private static final class Region
    {
        private byte[] bytes = new byte[0];
        private ByteBuffer view = ByteBuffer.wrap(bytes);

        ByteBuffer copy(final RecordView record, final int offset, final int length)
        {
            if (length < 0)
            {
                return null;
            }
            if (length > bytes.length)
            {
                bytes = new byte[Math.max(length, 2 * bytes.length)];
                view = ByteBuffer.wrap(bytes);
            }
            record.buffer().getBytes(offset, bytes, 0, length);
            view.clear().limit(length);
            return view;
        }
    }

    private static Header[] headers(final RecordView view)
    {
        if (view.headersLength() == 0)
        {
            return NO_HEADERS;
        }
        return headers(HeadersCodec.decode(view.buffer(), view.headersOffset(), view.headersLength()));
    }

    /** Spool's headers, in their order, as Kafka's. */
    static Header[] headers(final Map<String, byte[]> headers)
    {
        if (headers.isEmpty())
        {
            return NO_HEADERS;
        }
        final Header[] out = new Header[headers.size()];
        int i = 0;
        for (final Map.Entry<String, byte[]> header : headers.entrySet())
        {
            out[i++] = new RecordHeader(header.getKey(), header.getValue());
        }
        return out;
    }

    /** The number of records a batch says it holds, read without decompressing it. */
    static int recordCount(final RecordBatch batch)
    {
        final Integer count = batch.countOrNull();
        return count == null ? (int)(batch.lastOffset() - batch.baseOffset() + 1) : count;
    }
}
