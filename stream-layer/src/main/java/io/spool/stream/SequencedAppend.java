package io.spool.stream;

import java.util.concurrent.CompletableFuture;

/**
 * What {@link ProducerSequences#append} did with one producer's batch: appended it, recognised it as a retry of a
 * batch it already has (then {@link #baseOffset()} is that batch's), or refused it with the reason in
 * {@link #problem()}. Immutable, thread-safe.
 *
 * @param baseOffset the offset of the batch's first record once stored; null when refused.
 */
public record SequencedAppend(Outcome outcome, CompletableFuture<Long> baseOffset, String problem)
{
    public enum Outcome
    {
        APPENDED,
        /** The same producer, epoch and sequences as a batch among the last few: not stored again. */
        DUPLICATE,
        /** The first sequence is not the one after the producer's last batch: a batch in between is missing. */
        OUT_OF_ORDER_SEQUENCE,
        /** An older epoch than the producer's current one: a newer instance of the producer took over. */
        FENCED_EPOCH
    }

    static SequencedAppend refused(final Outcome outcome, final String problem)
    {
        return new SequencedAppend(outcome, null, problem);
    }
}
