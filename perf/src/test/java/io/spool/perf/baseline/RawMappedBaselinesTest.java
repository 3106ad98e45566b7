package io.spool.perf.baseline;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

import static io.spool.api.log.RecordDescriptor.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RawMappedBaselinesTest
{
    private static final int SEGMENT_BYTES = 64 * 1024;
    private static final long TIMESTAMP = 1_700_000_000_000L;

    @TempDir
    Path directory;

    @Test
    void appendsFramesInTheLogLayoutWithValidCrcAndDenseOffsets() throws IOException
    {
        final byte[] value = valueOf(100);
        try (RawMappedAppendBaseline append = new RawMappedAppendBaseline(directory, SEGMENT_BYTES, 4, value))
        {
            assertThat(append.append(1_000, TIMESTAMP)).isEqualTo(1_000);
            append.close();

            long expectedOffset = 0;
            for (final Path segment : append.segmentFiles())
            {
                final ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(segment)).order(ByteOrder.LITTLE_ENDIAN);
                int position = 0;
                while (position + HEADER_LENGTH <= bytes.capacity() && bytes.getInt(position) > 0)
                {
                    final int frameLength = bytes.getInt(position + FRAME_LENGTH_OFFSET);
                    assertThat(frameLength).isEqualTo(HEADER_LENGTH + value.length);
                    assertThat(bytes.getInt(position + CRC_OFFSET)).isEqualTo(crcOf(bytes, position, frameLength));
                    assertThat(bytes.get(position + VERSION_OFFSET)).isEqualTo(VERSION_1);
                    assertThat(bytes.getInt(position + KEY_LENGTH_OFFSET)).isEqualTo(-1);
                    assertThat(bytes.getLong(position + OFFSET_OFFSET)).isEqualTo(expectedOffset++);
                    assertThat(bytes.getLong(position + TIMESTAMP_OFFSET)).isEqualTo(TIMESTAMP);
                    assertThat(bytes.getInt(position + HEADERS_LENGTH_OFFSET)).isZero();
                    assertThat(bytes.getInt(position + VALUE_LENGTH_OFFSET)).isEqualTo(value.length);
                    assertThat(Arrays.copyOfRange(bytes.array(), position + HEADER_LENGTH, position + frameLength))
                        .isEqualTo(value);
                    position += align(frameLength);
                }
            }
            assertThat(expectedOffset).isEqualTo(1_000);
        }
    }

    @Test
    void preallocatesItsSegmentsAndRollsToTheNextWhenAFrameDoesNotFit() throws IOException
    {
        final int framesPerSegment = SEGMENT_BYTES / align(frameLength(-1, 0, 100));
        try (RawMappedAppendBaseline append = new RawMappedAppendBaseline(directory, SEGMENT_BYTES, 2, valueOf(100)))
        {
            assertThat(append.segmentFiles()).hasSize(2);
            assertThat(Files.size(append.segmentFiles().get(1))).isEqualTo(SEGMENT_BYTES);

            append.append(framesPerSegment + 1, TIMESTAMP);
            append.close();

            assertThat(frameCount(append.segmentFiles().get(0))).isEqualTo(framesPerSegment);
            assertThat(frameCount(append.segmentFiles().get(1))).isEqualTo(1);
        }
    }

    @Test
    void wrapsToTheFirstSegmentAfterTheLast() throws IOException
    {
        final int framesPerSegment = SEGMENT_BYTES / align(frameLength(-1, 0, 100));
        try (RawMappedAppendBaseline append = new RawMappedAppendBaseline(directory, SEGMENT_BYTES, 2, valueOf(100)))
        {
            append.append(2 * framesPerSegment + 1, TIMESTAMP);
            append.close();

            final ByteBuffer first = ByteBuffer.wrap(Files.readAllBytes(append.segmentFiles().get(0)))
                .order(ByteOrder.LITTLE_ENDIAN);
            assertThat(first.getLong(OFFSET_OFFSET)).isEqualTo(2L * framesPerSegment);
        }
    }

    @Test
    void sizesThePoolSoThatARunNeverWraps()
    {
        final int framesPerSegment = SEGMENT_BYTES / align(frameLength(-1, 0, 100));
        assertThat(RawMappedAppendBaseline.segmentsFor(0, 100, SEGMENT_BYTES)).isEqualTo(1);
        assertThat(RawMappedAppendBaseline.segmentsFor(framesPerSegment, 100, SEGMENT_BYTES)).isEqualTo(1);
        assertThat(RawMappedAppendBaseline.segmentsFor(framesPerSegment + 1L, 100, SEGMENT_BYTES)).isEqualTo(2);
    }

    @Test
    void scanReadsBackEveryAppendedRecordAcrossSegments()
    {
        final List<Path> segments;
        try (RawMappedAppendBaseline append = new RawMappedAppendBaseline(directory, SEGMENT_BYTES, 4, valueOf(100)))
        {
            append.append(700, TIMESTAMP);
            append.append(300, TIMESTAMP);
            segments = append.segmentFiles();
        }
        assertThat(segments).hasSizeGreaterThan(1);

        try (RawMappedScanBaseline scan = new RawMappedScanBaseline(segments))
        {
            assertThat(scan.scan()).isEqualTo(1_000);
            final long firstChecksum = scan.checksum();
            assertThat(scan.scan()).isEqualTo(1_000);
            assertThat(scan.checksum()).isEqualTo(firstChecksum);
            // offsets 0..999 sum to 499,500; each record also adds its value length and last value byte.
            assertThat(firstChecksum).isEqualTo(499_500L + 1_000L * (100 + 99));
        }
    }

    @ParameterizedTest
    @EnumSource(value = RawMappedAppendBaseline.Pages.class, names = "PREPARED", mode = EnumSource.Mode.EXCLUDE)
    void otherPagesHoldTheSameFramesAsPreparedPages(final RawMappedAppendBaseline.Pages pages) throws IOException
    {
        final byte[] value = valueOf(100);
        final Path preparedDirectory = Files.createDirectory(directory.resolve("prepared"));
        final Path otherDirectory = Files.createDirectory(directory.resolve("other"));
        try (RawMappedAppendBaseline prepared = new RawMappedAppendBaseline(preparedDirectory, SEGMENT_BYTES, 3, value,
                RawMappedAppendBaseline.Pages.PREPARED);
            RawMappedAppendBaseline other = new RawMappedAppendBaseline(otherDirectory, SEGMENT_BYTES, 3, value, pages))
        {
            prepared.append(1_200, TIMESTAMP);
            other.append(1_200, TIMESTAMP);
            prepared.close();
            other.close();

            assertThat(other.segmentFiles()).hasSize(3);
            for (int i = 0; i < 3; i++)
            {
                assertThat(Files.size(other.segmentFiles().get(i))).isEqualTo(SEGMENT_BYTES);
                assertThat(Files.readAllBytes(other.segmentFiles().get(i)))
                    .isEqualTo(Files.readAllBytes(prepared.segmentFiles().get(i)));
            }
            assertThat(frameCount(other.segmentFiles().get(0)) + frameCount(other.segmentFiles().get(1)) +
                frameCount(other.segmentFiles().get(2))).isEqualTo(1_200);
        }
    }

    @Test
    void refusesAValueLargerThanASegment()
    {
        assertThatThrownBy(() -> new RawMappedAppendBaseline(directory, 128, 1, valueOf(100)))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("segments hold 128");
    }

    private static int frameCount(final Path segment) throws IOException
    {
        final ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(segment)).order(ByteOrder.LITTLE_ENDIAN);
        int frames = 0;
        for (int position = 0; position + HEADER_LENGTH <= bytes.capacity() && bytes.getInt(position) > 0;
            position += align(bytes.getInt(position)))
        {
            frames++;
        }
        return frames;
    }

    private static byte[] valueOf(final int length)
    {
        final byte[] value = new byte[length];
        for (int i = 0; i < length; i++)
        {
            value[i] = (byte)i;
        }
        return value;
    }

    private static int crcOf(final ByteBuffer bytes, final int frameOffset, final int frameLength)
    {
        final CRC32C crc = new CRC32C();
        crc.update(bytes.array(), frameOffset + CRC_START_OFFSET, frameLength - CRC_START_OFFSET);
        return (int)crc.getValue();
    }
}
