package io.spool.log;

import io.spool.api.log.HeadersCodec;
import io.spool.log.internal.recovery.LogRecovery;
import io.spool.log.internal.segment.Checksums;
import io.spool.log.internal.segment.SegmentDescriptor;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32C;

import static io.spool.api.log.RecordDescriptor.*;
import static io.spool.log.LogFixture.bytes;
import static io.spool.log.LogFixture.text;
import static io.spool.log.internal.segment.SegmentDescriptor.LOG_SUFFIX;
import static io.spool.log.internal.segment.SegmentDescriptor.fileName;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Records of version 1 (checksum over every byte after itself, the offset included) written by earlier builds
 * still open, are read and take new records after them; version 2 records (the checksum the producer computes,
 * without the offset) are checked on recovery as strictly.
 */
class RecordFormatVersionTest
{
    private static final int SEGMENT_BYTES = 8 * 1024;
    private static final int RECORDS = 300;

    @TempDir
    Path dir;

    @Test
    void aLogWrittenInVersionOneOpensReadsAndAppendsVersionTwoAfterIt() throws IOException, InterruptedException
    {
        final List<String> written = new ArrayList<>();
        try (LogFixture fx = new LogFixture(dir))
        {
            final PartitionLog log = fx.store.openLog("old/0", LogFixture.smallSegments(SEGMENT_BYTES));
            writeMixedRecords(fx, log, 0, written);
        }
        final List<Path> segments = rewriteAsVersionOne(dir.resolve("old").resolve("0"));
        assertThat(segments).as("the records span several segments").hasSizeGreaterThan(2);

        try (LogFixture fx = new LogFixture(dir))
        {
            final PartitionLog log = fx.store.openLog("old/0", LogFixture.smallSegments(SEGMENT_BYTES));
            assertThat(log.recoveryReport().isClean()).as(log.recoveryReport().toString()).isTrue();
            assertThat(read(log)).containsExactlyElementsOf(written);
            assertThat(versions(log)).containsOnly((int)VERSION_1);
            writeMixedRecords(fx, log, RECORDS, written);
        }
        try (LogFixture fx = new LogFixture(dir))
        {
            final PartitionLog log = fx.store.openLog("old/0", LogFixture.smallSegments(SEGMENT_BYTES));
            assertThat(log.recoveryReport().isClean()).as(log.recoveryReport().toString()).isTrue();
            assertThat(read(log)).containsExactlyElementsOf(written);
            final List<Integer> versions = versions(log);
            assertThat(versions.subList(0, RECORDS)).containsOnly((int)VERSION_1);
            assertThat(versions.subList(RECORDS, 2 * RECORDS)).containsOnly((int)CURRENT_VERSION);
        }
    }

    @Test
    void aFlippedByteInAVersionOneRecordCutsTheActiveSegmentThere() throws IOException, InterruptedException
    {
        try (LogFixture fx = new LogFixture(dir))
        {
            final PartitionLog log = fx.store.openLog("old/0", LogFixture.smallSegments(1024 * 1024));
            writeMixedRecords(fx, log, 0, new ArrayList<>());
        }
        final Path segment = rewriteAsVersionOne(dir.resolve("old").resolve("0")).get(0);
        final int damaged = 120;
        flip(segment, framePosition(segment, damaged) + OFFSET_OFFSET, 0x01);

        try (LogFixture fx = new LogFixture(dir))
        {
            final PartitionLog log = fx.store.openLog("old/0", LogFixture.smallSegments(1024 * 1024));
            assertThat(log.recoveryReport().truncatedAtOffset()).isEqualTo(damaged);
            assertThat(log.endOffset()).isEqualTo(damaged);
        }
    }

    @Test
    void aVersionTwoChecksumLeavesOutTheOffsetAndCoversEveryOtherByte()
    {
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[64]);
        frame.putInt(FRAME_LENGTH_OFFSET, 50);
        frame.putByte(VERSION_OFFSET, CURRENT_VERSION);
        frame.putInt(KEY_LENGTH_OFFSET, -1);
        frame.putLong(TIMESTAMP_OFFSET, 1234);
        frame.putInt(VALUE_LENGTH_OFFSET, 10);
        frame.putStringWithoutLengthAscii(HEADER_LENGTH, "0123456789");
        final ByteBuffer view = ByteBuffer.wrap(frame.byteArray());
        final CRC32C crc = new CRC32C();
        final int checksum = Checksums.record(crc, view, 0, 50, CURRENT_VERSION);

        frame.putLong(OFFSET_OFFSET, 987_654_321L);
        assertThat(Checksums.record(crc, view, 0, 50, CURRENT_VERSION)).as("the offset is the writer's").isEqualTo(checksum);
        assertThat(Checksums.record(crc, view, 0, 50, VERSION_1)).as("version 1 covered the offset")
            .isNotEqualTo(Checksums.record(crc, view.put(OFFSET_OFFSET, (byte)0), 0, 50, VERSION_1));
        for (int position = CRC_START_OFFSET; position < 50; position++)
        {
            if (position >= OFFSET_OFFSET && position < TIMESTAMP_OFFSET)
            {
                continue;
            }
            frame.putByte(position, (byte)(frame.getByte(position) ^ 0x10));
            assertThat(Checksums.record(crc, view, 0, 50, CURRENT_VERSION)).as("byte %d is covered", position)
                .isNotEqualTo(checksum);
            frame.putByte(position, (byte)(frame.getByte(position) ^ 0x10));
        }
    }

    @Test
    void aRecordWithoutATimestampIsStampedByItsProducerInsideTheChecksum() throws IOException
    {
        try (LogFixture fx = new LogFixture(dir))
        {
            final PartitionLog log = fx.store.openLog("new/0", LogFixture.smallSegments(1024 * 1024));
            fx.append(log, null, "first");
            fx.append(log, null, "second");
            fx.append(log, null, "third");
            assertThat(LogFixture.readAll(log, 0)).hasSize(3);
        }
        final Path segment = dir.resolve("new").resolve("0").resolve(fileName(0, LOG_SUFFIX));
        flip(segment, framePosition(segment, 1) + TIMESTAMP_OFFSET, 0x01);

        try (LogFixture fx = new LogFixture(dir))
        {
            final PartitionLog log = fx.store.openLog("new/0", LogFixture.smallSegments(1024 * 1024));
            assertThat(log.recoveryReport().truncatedAtOffset()).isEqualTo(1);
            assertThat(log.endOffset()).isEqualTo(1);
        }
    }

    /** Records with and without keys, headers and timestamps of their own, one by one and in batches. */
    private static void writeMixedRecords(final LogFixture fx, final PartitionLog log, final int first,
        final List<String> written) throws InterruptedException
    {
        final LogProducer producer = fx.store.newProducer();
        final byte[] headers = HeadersCodec.encode(new LinkedHashMap<>(Map.of("trace", bytes("t"))));
        final RecordBatch batch = new RecordBatch();
        for (int i = first; i < first + RECORDS; i++)
        {
            final byte[] key = i % 3 == 0 ? null : bytes("key-" + i);
            final byte[] value = bytes(("value-" + i + "-").repeat(1 + i % 7));
            if (i % 2 == 0)
            {
                producer.appendAndWait(log, key, i % 5 == 0 ? headers : null, value);
            }
            else
            {
                batch.clear();
                batch.add(key, null, value);
                final long offset = log.endOffset();
                producer.publishBatch(log, batch, LogFixture.recordingFailures(new AtomicReference<>()), 0);
                assertThat(log.awaitEndAbove(offset, TimeUnit.SECONDS.toNanos(30))).isTrue();
            }
            written.add(i + ":" + (key == null ? null : text(key)) + ":" + text(value));
        }
    }

    private static List<String> read(final PartitionLog log)
    {
        return LogFixture.readAll(log, 0);
    }

    private static List<Integer> versions(final PartitionLog log)
    {
        final List<Integer> versions = new ArrayList<>();
        try (LogReader reader = log.newReader())
        {
            reader.seek(0);
            while (reader.poll(r -> versions.add(r.version()), 100) > 0)
            {
                continue;
            }
        }
        return versions;
    }

    /**
     * Rewrites every frame of every segment in {@code logDir} as an earlier build wrote it: version 1, the checksum
     * over every byte after itself.
     *
     * @return the segment files, in offset order.
     */
    private static List<Path> rewriteAsVersionOne(final Path logDir) throws IOException
    {
        final List<Path> files = new ArrayList<>();
        final CRC32C crc = new CRC32C();
        for (final long base : LogRecovery.segmentBases(logDir))
        {
            final Path file = logDir.resolve(fileName(base, LOG_SUFFIX));
            files.add(file);
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE))
            {
                final ByteBuffer mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, channel.size());
                final UnsafeBuffer buffer = new UnsafeBuffer(mapped);
                int position = SegmentDescriptor.HEADER_LENGTH;
                while (position + Integer.BYTES <= buffer.capacity() && buffer.getInt(position) != 0)
                {
                    final int length = buffer.getInt(position);
                    buffer.putByte(position + VERSION_OFFSET, VERSION_1);
                    final ByteBuffer covered = mapped.duplicate();
                    covered.limit(position + length).position(position + CRC_START_OFFSET);
                    crc.reset();
                    crc.update(covered);
                    buffer.putInt(position + CRC_OFFSET, (int)crc.getValue());
                    position += align(length);
                }
            }
        }
        return files;
    }

    private static int framePosition(final Path segment, final long relativeOffset) throws IOException
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(TemplateLog.read(segment));
        int position = SegmentDescriptor.HEADER_LENGTH;
        for (long i = 0; i < relativeOffset; i++)
        {
            position += align(buffer.getInt(position));
        }
        return position;
    }

    private static void flip(final Path file, final int position, final int mask) throws IOException
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            final ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, position);
            one.put(0, (byte)(one.get(0) ^ mask));
            one.rewind();
            channel.write(one, position);
        }
    }
}
