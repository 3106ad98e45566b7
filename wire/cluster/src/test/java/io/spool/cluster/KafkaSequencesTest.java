package io.spool.cluster;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.spool.api.stream.ProducerRecord;
import io.spool.cluster.ClusterEntryDescriptor.Reply;
import io.spool.cluster.KafkaEntryDescriptor.KafkaPublish;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/** A Kafka producer's batches judged by epoch and sequence against a partition's producer windows. */
class KafkaSequencesTest
{
    private static final long PRODUCER = 1L << ProducerIdBlocks.BLOCK_BITS;

    private final ProducerWindows windows = new ProducerWindows();
    private long nextOffset;

    @Test
    void theBatchAfterTheLastIsAppendedAndARetryIsAnsweredWithItsFirstOffset()
    {
        assertThat(append(0, 0, 3)).isEqualTo(0);
        assertThat(append(0, 3, 2)).isEqualTo(3);
        final Reply retry = KafkaSequences.check(windows, batch(0, 0, 3));
        assertThat(retry.status()).isEqualTo(ClusterEntryDescriptor.STATUS_DUPLICATE);
        assertThat(retry.baseOffset()).isZero();
        assertThat(KafkaSequences.check(windows, batch(0, 3, 2)).baseOffset()).isEqualTo(3);
    }

    @Test
    void aProducerTheWindowsDoNotKnowMayStartAtAnySequence()
    {
        assertThat(append(0, 41, 1)).isEqualTo(0);
        assertThat(append(0, 42, 1)).isEqualTo(1);
    }

    @Test
    void aGapIsOutOfOrder()
    {
        append(0, 0, 2);
        final Reply gap = KafkaSequences.check(windows, batch(0, 5, 1));
        assertThat(gap.status()).isEqualTo(KafkaEntryDescriptor.STATUS_OUT_OF_ORDER);
        assertThat(gap.problem()).contains("next sequence is 2, not 5");
    }

    @Test
    void aRetryOlderThanTheRetainedBatchesIsADuplicateWhoseOffsetIsForgotten()
    {
        for (int i = 0; i <= ProducerWindows.RETAINED_BATCHES; i++)
        {
            append(0, i, 1);
        }
        final Reply old = KafkaSequences.check(windows, batch(0, 0, 1));
        assertThat(old.status()).isEqualTo(KafkaEntryDescriptor.STATUS_DUPLICATE_FORGOTTEN);
        assertThat(old.problem()).contains("no longer known");
    }

    @Test
    void anOlderEpochIsFencedAndANewerOneStartsOverAtSequenceZero()
    {
        append(1, 0, 2);
        assertThat(KafkaSequences.check(windows, batch(0, 2, 1)).status())
            .isEqualTo(KafkaEntryDescriptor.STATUS_FENCED_EPOCH);
        assertThat(KafkaSequences.check(windows, batch(2, 7, 1)).problem()).contains("starts at sequence 0");
        assertThat(append(2, 0, 1)).isEqualTo(2);
        assertThat(KafkaSequences.check(windows, batch(1, 2, 1)).status())
            .isEqualTo(KafkaEntryDescriptor.STATUS_FENCED_EPOCH);
    }

    @Test
    void theSequenceWrapsToZeroAfterItsLargestValue()
    {
        append(0, Integer.MAX_VALUE - 1, 2);
        assertThat(append(0, 0, 1)).isEqualTo(2);
        assertThat(KafkaSequences.check(windows, batch(0, Integer.MAX_VALUE - 1, 2)).status())
            .isEqualTo(ClusterEntryDescriptor.STATUS_DUPLICATE);
    }

    @Test
    void windowsReadBackFromASnapshotKeepTheEpochAndJudgeTheSameWay()
    {
        append(1, 0, 2);
        append(1, 2, 1);
        final ByteBuf snapshot = Unpooled.buffer();
        windows.writeTo(snapshot);
        final ProducerWindows restored = new ProducerWindows();
        restored.readFrom(snapshot);

        assertThat(snapshot.isReadable()).as("bytes left after the windows").isFalse();
        assertThat(restored.epoch(PRODUCER)).isEqualTo(1);
        final Reply retry = KafkaSequences.check(restored, batch(1, 0, 2));
        assertThat(retry.status()).isEqualTo(ClusterEntryDescriptor.STATUS_DUPLICATE);
        assertThat(retry.baseOffset()).isZero();
        assertThat(KafkaSequences.check(restored, batch(0, 3, 1)).status())
            .isEqualTo(KafkaEntryDescriptor.STATUS_FENCED_EPOCH);
        assertThat(KafkaSequences.check(restored, batch(1, 4, 1)).status())
            .isEqualTo(KafkaEntryDescriptor.STATUS_OUT_OF_ORDER);
        assertThat(KafkaSequences.check(restored, batch(1, 3, 1))).as("the batch after the last").isNull();
    }

    /** Appends the batch as the state machine does once it is judged new; returns its first offset. */
    private long append(final int epoch, final int baseSequence, final int count)
    {
        final KafkaPublish batch = batch(epoch, baseSequence, count);
        assertThat(KafkaSequences.check(windows, batch)).as("the verdict on batch %d", baseSequence).isNull();
        final long baseOffset = nextOffset;
        windows.appended(PRODUCER, baseSequence, baseOffset, count);
        nextOffset += count;
        return baseOffset;
    }

    private static KafkaPublish batch(final int epoch, final int baseSequence, final int count)
    {
        final List<ProducerRecord> records = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            records.add(ProducerRecord.toPartition("orders", 0, null, ("v" + i).getBytes(UTF_8)));
        }
        return new KafkaPublish(PRODUCER, (short)epoch, baseSequence, records);
    }
}
