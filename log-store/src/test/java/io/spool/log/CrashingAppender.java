package io.spool.log;

import io.spool.api.SpoolException;
import io.spool.api.log.Durability;
import io.spool.api.log.LogConfig;
import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;

/**
 * The child process of {@link LogCrashTest}: publishes generated records with {@link Durability#EVERY_BATCH} from
 * {@link #PRODUCERS} threads until it is killed, and prints one line per confirm:
 * {@code C <offset> <producer> <sequence> <crc32c of the value> .} The trailing dot marks a complete line, so the
 * parent never trusts a line the kill cut short.
 * <p>
 * Every value is {@link #value} of (seed, producer, sequence), so any record the parent finds, confirmed or not,
 * can be checked byte for byte.
 * <p>
 * Arguments: data directory, seed, segment bytes. Not thread-safe (a program, not a component).
 */
public final class CrashingAppender
{
    static final String LOG_NAME = "crash/0";
    static final int PRODUCERS = 2;
    private static final int VALUE_HEADER_BYTES = Long.BYTES + 2 * Integer.BYTES;
    private static final int MAX_EXTRA_VALUE_BYTES = 300;

    private CrashingAppender()
    {
    }

    static LogConfig logConfig(final int segmentBytes)
    {
        return LogConfig.builder().segmentBytes(segmentBytes).maxRecordBytes(1024).indexIntervalBytes(512)
            .durability(Durability.EVERY_BATCH).build();
    }

    /**
     * The value a producer publishes as its {@code sequence}-th record: the three numbers that name it, then bytes
     * they determine, of a length they determine.
     */
    static byte[] value(final long seed, final int producer, final int sequence)
    {
        final SplittableRandom random = new SplittableRandom(seed * 31 + producer * 1_000_003L + sequence);
        final byte[] value = new byte[VALUE_HEADER_BYTES + random.nextInt(MAX_EXTRA_VALUE_BYTES)];
        final UnsafeBuffer buffer = new UnsafeBuffer(value);
        buffer.putLong(0, seed);
        buffer.putInt(Long.BYTES, producer);
        buffer.putInt(Long.BYTES + Integer.BYTES, sequence);
        for (int i = VALUE_HEADER_BYTES; i < value.length; i++)
        {
            value[i] = (byte)random.nextInt(256);
        }
        return value;
    }

    /** The value {@link #value} would generate for the names stored at the start of {@code stored}, or null. */
    static byte[] regenerate(final byte[] stored)
    {
        if (stored == null || stored.length < VALUE_HEADER_BYTES)
        {
            return null;
        }
        final UnsafeBuffer buffer = new UnsafeBuffer(stored);
        return value(buffer.getLong(0), buffer.getInt(Long.BYTES), buffer.getInt(Long.BYTES + Integer.BYTES));
    }

    static int checksum(final byte[] value)
    {
        final CRC32C crc = new CRC32C();
        crc.update(value);
        return (int)crc.getValue();
    }

    public static void main(final String[] args) throws InterruptedException
    {
        final Path dataDir = Path.of(args[0]);
        final long seed = Long.parseLong(args[1]);
        final int segmentBytes = Integer.parseInt(args[2]);
        final CachedEpochClock clock = new CachedEpochClock();
        // A different start per run, so timestamps also go backwards across recoveries; never negative.
        clock.update(1_000_000L + seed % 1_000_000_000L);
        final LogStore store = LogStore.open(dataDir, LogStoreConfig.builder().clock(clock)
            .backgroundMaintenance(false).ringSize(256).build());
        final PartitionLog log = store.openLog(LOG_NAME, logConfig(segmentBytes));
        final ConfirmListener printer = new ConfirmPrinter(seed);
        final Thread[] producers = new Thread[PRODUCERS];
        for (int p = 0; p < PRODUCERS; p++)
        {
            final int producer = p;
            producers[p] = new Thread(() -> publishForever(store.newProducer(), log, seed, producer, printer),
                "crashing-producer-" + p);
            producers[p].start();
        }
        for (final Thread producer : producers)
        {
            producer.join();
        }
    }

    private static void publishForever(final LogProducer producer, final PartitionLog log, final long seed,
        final int producerId, final ConfirmListener listener)
    {
        final UnsafeBuffer valueBuffer = new UnsafeBuffer(0, 0);
        for (int sequence = 0; ; sequence++)
        {
            final byte[] value = value(seed, producerId, sequence);
            valueBuffer.wrap(value);
            producer.publish(log, -1, valueBuffer, 0, -1, valueBuffer, 0, 0, valueBuffer, 0, value.length,
                listener, ((long)producerId << 32) | sequence);
        }
    }

    /**
     * Prints each confirm with one write, which a pipe takes whole, so a kill never leaves half a line behind a
     * complete one.
     */
    private static final class ConfirmPrinter implements ConfirmListener
    {
        private final FileOutputStream out = new FileOutputStream(FileDescriptor.out);
        private final long seed;

        ConfirmPrinter(final long seed)
        {
            this.seed = seed;
        }

        @Override
        public void onConfirmed(final long correlation, final long offset)
        {
            final int producer = (int)(correlation >>> 32);
            final int sequence = (int)correlation;
            final int crc = checksum(value(seed, producer, sequence));
            final String line = "C " + offset + " " + producer + " " + sequence + " " + crc + " .\n";
            try
            {
                out.write(line.getBytes(StandardCharsets.US_ASCII));
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }

        @Override
        public void onFailed(final long correlation, final SpoolException error)
        {
            System.err.println("publish " + correlation + " failed: " + error);
        }
    }
}
