package io.spool.queue.internal.delivery;

import io.spool.queue.QueueConsumer;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Both sides of an ack run on one thread, in the orders the two threads can interleave: what the agent settles is
 * every ack the consumer published, once, and never one run's count applied to another run.
 */
class AckRunTest
{
    private final AckRun run = new AckRun();
    private final List<String> settled = new ArrayList<>();
    private final AckRun.RangeHandler record = (partition, from, count, deliveryNumber) ->
        settled.add(partition + ":" + from + "+" + count + "#" + deliveryNumber);

    /** The consumer side of a new run: what {@link QueueConsumer} does around its ring entry. */
    private int open(final int partition, final long offset, final int deliveryNumber)
    {
        final int number = run.open(partition, offset, deliveryNumber);
        run.publish();
        return number;
    }

    @Test
    void theAgentSettlesTheFirstAckWithTheOpeningEntryAndTheRestAsOneRangePerLook()
    {
        final int number = open(2, 100, 1);
        run.onOpened(number, 2, 100, 1, record);
        for (long offset = 101; offset < 110; offset++)
        {
            assertThat(run.extend(2, offset, 1)).isTrue();
        }
        assertThat(run.unsettled()).isTrue();
        assertThat(run.poll(record)).isEqualTo(9);
        assertThat(run.poll(record)).isZero();
        assertThat(run.unsettled()).isFalse();
        assertThat(run.extend(2, 110, 1)).isTrue();
        run.onEnded(run.end(), record);

        assertThat(settled).containsExactly("2:100+1#1", "2:101+9#1", "2:110+1#1");
        assertThat(run.poll(record)).isZero();
    }

    @Test
    void onlyAnAckThatContinuesTheRunInOffsetPartitionAndDeliveryNumberJoinsIt()
    {
        open(0, 10, 1);
        assertThat(run.extend(0, 12, 1)).as("a gap").isFalse();
        assertThat(run.extend(0, 10, 1)).as("the same offset again").isFalse();
        assertThat(run.extend(1, 11, 1)).as("another partition").isFalse();
        assertThat(run.extend(0, 11, 2)).as("another delivery number").isFalse();
        assertThat(run.extend(0, 11, 1)).isTrue();
        run.end();
        assertThat(run.extend(0, 12, 1)).as("after the run ended").isFalse();
    }

    @Test
    void aCountPublishedForALaterRunIsNeverAppliedToTheRunTheAgentKnows()
    {
        final int first = open(0, 0, 1);
        run.onOpened(first, 0, 0, 1, record);
        run.extend(0, 1, 1);
        final long firstEnd = run.end();
        open(0, 50, 1);
        run.extend(0, 51, 1);

        assertThat(run.poll(record)).as("the run moved on: its end entry is to be read first").isEqualTo(-1);
        assertThat(run.unsettled()).isTrue();
        run.onEnded(firstEnd, record);
        assertThat(settled).containsExactly("0:0+1#1", "0:1+1#1");
    }

    @Test
    void aRunWhoseNumberIsNotPublishedYetHasNothingMoreToSettle()
    {
        final int number = run.open(0, 7, 1);
        run.onOpened(number, 0, 7, 1, record);

        assertThat(run.poll(record)).isZero();
        assertThat(run.unsettled()).isFalse();
        run.publish();
        assertThat(run.poll(record)).isZero();
        assertThat(settled).containsExactly("0:7+1#1");
    }
}
