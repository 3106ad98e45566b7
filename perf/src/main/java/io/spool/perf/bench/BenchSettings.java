package io.spool.perf.bench;

import io.spool.api.log.Durability;
import io.spool.api.log.LogConfig;
import io.spool.api.log.RecordDescriptor;

import java.nio.file.Path;

/**
 * What a {@code spool bench} run does. Immutable; the constructor refuses settings that cannot run, with a message
 * naming the setting.
 *
 * @param records            records written (ingest) or written then read back (replay).
 * @param baselineRecords    records the raw baseline is measured over.
 * @param payloadBytes       value size of every record; keys are null and there are no headers.
 * @param partitions         logs the records are spread over, batch by batch.
 * @param producers          producing threads.
 * @param pipelines          ingest pipelines the partitions are spread over.
 * @param durability         durability policy of every log.
 * @param batchSize          records a producer publishes with one claim, stamped with one clock read.
 * @param maxInFlightBatches batches a producer may have unconfirmed before it waits for a confirm.
 * @param dataDirectory      directory the run writes into (in a fresh subdirectory, deleted afterwards).
 */
public record BenchSettings(
    long records,
    long baselineRecords,
    int payloadBytes,
    int partitions,
    int producers,
    int pipelines,
    Durability durability,
    int batchSize,
    int maxInFlightBatches,
    Path dataDirectory)
{
    /** The largest value the log accepts by default, in a record with a null key and no headers. */
    public static final int MAX_PAYLOAD_BYTES = LogConfig.DEFAULT_MAX_RECORD_BYTES - RecordDescriptor.HEADER_LENGTH;

    public BenchSettings
    {
        requireAtLeast("records", records, 1);
        requireAtLeast("baseline records", baselineRecords, 1);
        requireAtLeast("payload bytes", payloadBytes, 0);
        if (payloadBytes > MAX_PAYLOAD_BYTES)
        {
            throw new IllegalArgumentException("payload bytes must be at most " + MAX_PAYLOAD_BYTES +
                " (a record of at most " + LogConfig.DEFAULT_MAX_RECORD_BYTES + " bytes with its header), was " +
                payloadBytes);
        }
        requireAtLeast("partitions", partitions, 1);
        requireAtLeast("producers", producers, 1);
        requireAtLeast("pipelines", pipelines, 1);
        requireAtLeast("batch size", batchSize, 1);
        requireAtLeast("in-flight batches", maxInFlightBatches, 1);
        if (durability == null || dataDirectory == null)
        {
            throw new IllegalArgumentException("durability and data directory are required");
        }
    }

    private static void requireAtLeast(final String setting, final long value, final long minimum)
    {
        if (value < minimum)
        {
            throw new IllegalArgumentException(setting + " must be at least " + minimum + ", was " + value);
        }
    }

    /** The same settings for a run of {@code count} records. */
    public BenchSettings withRecords(final long count)
    {
        return new BenchSettings(count, baselineRecords, payloadBytes, partitions, producers, pipelines, durability,
            batchSize, maxInFlightBatches, dataDirectory);
    }

    /** Records producer {@code producer} (0-based) writes: an even share, the first ones taking the remainder. */
    public long recordsOfProducer(final int producer)
    {
        return records / producers + (producer < records % producers ? 1 : 0);
    }

    /** A value of {@link #payloadBytes} printable bytes, the same for every record. */
    public byte[] value()
    {
        return Payloads.printable(payloadBytes);
    }
}
