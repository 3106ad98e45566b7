package io.spool.cluster;

import io.spool.cluster.ClusterEntryDescriptor.Reply;
import io.spool.cluster.KafkaEntryDescriptor.KafkaPublish;

/**
 * Judges a Kafka producer's batch by its epoch and base sequence against the partition's producer windows, as a
 * Kafka partition leader judges it: the batch after the producer's last one is appended; a retry of a retained batch
 * is answered with its first offset; an older retry is a duplicate whose offset is forgotten; a gap is out of order;
 * an older epoch is fenced, and a newer one starts over at sequence 0. A producer the windows do not know (new, or
 * forgotten) may start at any sequence, as on a Kafka broker. Runs on the state machine's apply thread, like the
 * windows it reads; nothing here reads a clock, so every node judges a batch the same way. Stateless.
 */
final class KafkaSequences
{
    /** Kafka's sequences run from 0 to Integer.MAX_VALUE and then wrap to 0. */
    private static final long SEQUENCE_SPAN = 1L << 31;

    private KafkaSequences()
    {
    }

    /**
     * @return null when the batch is to be appended (the windows then know its epoch), else the answer.
     */
    static Reply check(final ProducerWindows windows, final KafkaPublish batch)
    {
        final long producerId = batch.producerId();
        final int epoch = windows.epoch(producerId);
        if (epoch < 0 || (batch.epoch() > epoch && batch.baseSequence() == 0))
        {
            windows.startEpoch(producerId, batch.epoch());
            return null;
        }
        if (batch.epoch() < epoch)
        {
            return refused(KafkaEntryDescriptor.STATUS_FENCED_EPOCH, "producer " + producerId + " is at epoch " +
                epoch + ", this batch's epoch " + batch.epoch() + " is fenced");
        }
        if (batch.epoch() > epoch)
        {
            return refused(KafkaEntryDescriptor.STATUS_OUT_OF_ORDER, "epoch " + batch.epoch() + " of producer " +
                producerId + " starts at sequence 0, not " + batch.baseSequence());
        }
        final ProducerWindows.Batch last = windows.last(producerId);
        final long expected = last == null ? batch.baseSequence() : (last.sequence() + last.count()) % SEQUENCE_SPAN;
        if (batch.baseSequence() == expected)
        {
            return null;
        }
        final ProducerWindows.Batch retained = windows.retained(producerId, batch.baseSequence());
        if (retained != null && retained.count() == batch.records().size())
        {
            return new Reply(ClusterEntryDescriptor.STATUS_DUPLICATE, retained.baseOffset(), retained.count(), "");
        }
        if (batch.baseSequence() < expected)
        {
            return refused(KafkaEntryDescriptor.STATUS_DUPLICATE_FORGOTTEN, "batch " + batch.baseSequence() +
                " of producer " + producerId + " was stored before its last " + ProducerWindows.RETAINED_BATCHES +
                " batches; where is no longer known");
        }
        return refused(KafkaEntryDescriptor.STATUS_OUT_OF_ORDER, "producer " + producerId + "'s next sequence is " +
            expected + ", not " + batch.baseSequence() + ": a batch in between is missing");
    }

    private static Reply refused(final int status, final String problem)
    {
        return new Reply(status, -1, 0, problem);
    }
}
