package io.spool.cluster;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.spool.cluster.DeadLetterCopies.OwedCopy;
import io.spool.queue.DeadReason;
import io.spool.queue.ReplicatedPartitionState.DeadLetter;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

/** Dead letters are numbered per subscription, owed until confirmed once, and read back from a snapshot. */
class DeadLetterCopiesTest
{
    private final DeadLetterCopies copies = new DeadLetterCopies();

    @Test
    void eachSubscriptionNumbersItsDeadLettersAndASecondConfirmChangesNothing()
    {
        copies.owe("billing", "dead", new DeadLetter(4, DeadReason.REJECTED, 1), 100);
        copies.owe("billing", "dead", new DeadLetter(2, DeadReason.DELIVERY_LIMIT, 3), 200);
        copies.owe("audit", "dead", new DeadLetter(4, DeadReason.REJECTED, 1), 300);
        copies.copied("billing", 0);
        final long changes = copies.changes();
        copies.copied("billing", 0);

        assertThat(copies.changes()).isEqualTo(changes);
        assertThat(copies.owed()).containsExactly(
            new OwedCopy("audit", "dead", 0, 4, DeadReason.REJECTED, 1, 300),
            new OwedCopy("billing", "dead", 1, 2, DeadReason.DELIVERY_LIMIT, 3, 200));
    }

    @Test
    void aSnapshotKeepsWhatIsOwedAndTheNextOrdinal()
    {
        copies.owe("billing", "dead", new DeadLetter(4, DeadReason.REJECTED, 1), 100);
        copies.owe("billing", "dead", new DeadLetter(5, DeadReason.EXPIRED, 2), 200);
        copies.copied("billing", 0);
        final ByteBuf snapshot = Unpooled.buffer();
        copies.writeTo(snapshot);

        final DeadLetterCopies restored = new DeadLetterCopies();
        restored.readFrom(snapshot, subscription -> "dead");
        restored.owe("billing", "dead", new DeadLetter(6, DeadReason.REJECTED, 1), 300);

        assertThat(restored.owed()).extracting(OwedCopy::ordinal, OwedCopy::offset)
            .containsExactly(tuple(1L, 5L), tuple(2L, 6L));
    }

    @Test
    void aSnapshotWrittenBeforeDeadLetterCopiesOwesNothing()
    {
        copies.readFrom(Unpooled.buffer(), subscription -> "dead");
        assertThat(copies.owed()).isEmpty();
    }
}
