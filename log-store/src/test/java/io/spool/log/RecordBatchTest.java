package io.spool.log;

import io.spool.api.log.HeadersCodec;
import io.spool.api.log.LogConfig;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

import static io.spool.log.LogFixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RecordBatchTest
{
    @TempDir
    Path dir;

    @Test
    void recordsLeftInTheCallersBufferAreStoredAsCopiedOnesAre() throws Exception
    {
        final byte[] headers = HeadersCodec.encode(Map.of("h", bytes("1")));
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[64 + headers.length]);
        int at = 3;
        frame.putStringWithoutLengthAscii(at, "k0v0");
        at += 4;
        frame.putBytes(at, headers);
        at += headers.length;
        frame.putStringWithoutLengthAscii(at, "v1");

        try (LogFixture fx = new LogFixture(dir))
        {
            final PartitionLog inPlace = fx.store.openLog("in-place/0", LogConfig.DEFAULT);
            final RecordBatch batch = new RecordBatch().clearOver(frame)
                .addInPlace(-1, 0, 3, 2, 0, 2)
                .addInPlace(-1, 0, 7, -1, headers.length, 2);
            final IngestPipelineTest.Confirms confirms = new IngestPipelineTest.Confirms(2);
            fx.store.newProducer().publishBatch(inPlace, batch, confirms, 0);
            confirms.await();

            assertThat(LogFixture.readAll(inPlace, 0)).containsExactly("0:k0:v0", "1:null:v1");
            try (LogReader reader = inPlace.newReader())
            {
                reader.seek(1);
                reader.poll(record -> assertThat(HeadersCodec.decode(record.buffer(), record.headersOffset(),
                    record.headersLength())).containsOnlyKeys("h"), 1);
            }
        }
    }

    @Test
    void aBatchTakesRecordsOneWayUntilItIsClearedTheOther()
    {
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[16]);
        final UnsafeBuffer value = new UnsafeBuffer("v".getBytes(StandardCharsets.US_ASCII));
        final RecordBatch batch = new RecordBatch();

        assertThatThrownBy(() -> batch.addInPlace(-1, 0, 0, -1, 0, 1)).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("copies its records");
        batch.clearOver(frame).addInPlace(-1, 0, 0, -1, 0, 16);
        assertThatThrownBy(() -> batch.add(-1, value, 0, -1, value, 0, 0, value, 0, 1))
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("stay in the caller's buffer");
        batch.clear();
        assertThat(batch.add(-1, value, 0, -1, value, 0, 0, value, 0, 1).size()).isEqualTo(1);
    }

    @Test
    void aRecordOutsideTheCallersBufferIsRefusedByItsPlace()
    {
        final RecordBatch batch = new RecordBatch().clearOver(new UnsafeBuffer(new byte[16]));

        assertThatThrownBy(() -> batch.addInPlace(-1, 0, 10, 2, 0, 5))
            .isInstanceOf(IndexOutOfBoundsException.class)
            .hasMessage("a record of key 2, headers 0 and value 5 bytes at 10 does not lie inside the 16 bytes of " +
                "the batch's buffer");
        assertThatThrownBy(() -> batch.addInPlace(-1, 0, -1, -1, 0, 1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(batch.size()).isZero();
    }
}
