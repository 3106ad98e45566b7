package io.spool.stream;

import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicPartition;

import java.util.List;
import java.util.zip.CRC32C;

/**
 * How {@link ProducerSequences} finds a producer's batch in the log after a crash: by the partition's end when the
 * batch was accepted (it cannot be stored before that) and a fingerprint of its records' keys and values. Kafka
 * finds its producers' batches by the producer id each batch carries; Spool stores records, not batches, so it
 * matches their content. Implementations are thread-safe.
 */
public interface StoredBatches
{
    /** Keeps nothing and finds nothing: producer state in memory only. */
    StoredBatches NONE = new StoredBatches()
    {
        @Override
        public long endOffset(final TopicPartition partition)
        {
            return 0;
        }

        @Override
        public long find(final TopicPartition partition, final long from, final int recordCount,
            final int fingerprint)
        {
            return -1;
        }

        @Override
        public long storedPrefix(final TopicPartition partition, final long from, final long end,
            final List<ProducerRecord> batch)
        {
            return -1;
        }
    };

    /** The offset the partition's next record will have; 0 when there is no such partition. */
    long endOffset(TopicPartition partition);

    /**
     * The offset, at or after {@code from}, of the first of {@code recordCount} consecutive records whose
     * fingerprint is {@code fingerprint}; -1 when there are none.
     */
    long find(TopicPartition partition, long from, int recordCount, int fingerprint);

    /**
     * The lowest offset in {@code [from, end)} from which the records up to {@code end} have the keys and values of
     * the first records of {@code batch}, in order: where the part of a batch that a crash cut short was stored, the
     * log having ended at {@code end}. -1 when there is none.
     */
    long storedPrefix(TopicPartition partition, long from, long end, List<ProducerRecord> batch);

    /** The fingerprint of a batch about to be appended. */
    static int fingerprint(final List<ProducerRecord> records)
    {
        final CRC32C crc = new CRC32C();
        for (final ProducerRecord record : records)
        {
            add(crc, record.key());
            add(crc, record.value());
        }
        return (int)crc.getValue();
    }

    /** Adds one key or value (null allowed) to a fingerprint, as {@link #fingerprint} does. */
    static void add(final CRC32C crc, final byte[] bytes)
    {
        final int length = bytes == null ? -1 : bytes.length;
        crc.update(length >>> 24);
        crc.update(length >>> 16);
        crc.update(length >>> 8);
        crc.update(length);
        if (bytes != null)
        {
            crc.update(bytes);
        }
    }
}
