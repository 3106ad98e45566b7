package io.spool.queue.internal.delivery;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class DeliveryHandoffTest
{
    private final List<String> runs = new ArrayList<>();
    private final DeliveryHandoff.RunHandler record = (partition, firstOffset, count, deliveryNumber, firstTime) ->
        runs.add(partition + ":" + firstOffset + "+" + count + "#" + deliveryNumber + "@" + firstTime);

    @Test
    void deliveriesThatContinueTheLastStagedRunJoinIt()
    {
        final DeliveryHandoff handoff = new DeliveryHandoff(100);
        handoff.stage(0, 10, 5, 1, 7);
        handoff.stage(0, 15, 3, 1, 7);
        handoff.stage(0, 18, 1, 2, 7);
        handoff.stage(1, 19, 1, 2, 7);
        handoff.stage(1, 21, 1, 2, 7);
        handoff.stage(1, 22, 1, 2, 8);
        handoff.publish();

        while (handoff.take(record))
        {
            // Each run is recorded.
        }
        assertThat(runs).containsExactly("0:10+8#1@7", "0:18+1#2@7", "1:19+1#2@7", "1:21+1#2@7", "1:22+1#2@8");
    }

    @Test
    void aPublishedRunIsNotExtendedByLaterDeliveries()
    {
        final DeliveryHandoff handoff = new DeliveryHandoff(100);
        handoff.stage(0, 10, 5, 1, 7);
        handoff.publish();
        handoff.stage(0, 15, 5, 1, 7);
        assertThat(handoff.take(record)).isTrue();
        handoff.publish();
        assertThat(handoff.take(record)).isTrue();

        assertThat(runs).containsExactly("0:10+5#1@7", "0:15+5#1@7");
    }

    @Test
    void roomAndCreditCountMessagesAndFreeUpAsTheConsumerReachesEach()
    {
        final DeliveryHandoff handoff = new DeliveryHandoff(100);
        final int size = handoff.room(Integer.MAX_VALUE);
        handoff.stage(0, 0, 40, 1, 7);
        assertThat(handoff.pending()).isEqualTo(40);
        assertThat(handoff.room(Integer.MAX_VALUE)).isEqualTo(size - 40);
        assertThat(handoff.available()).isZero();
        assertThat(handoff.isEmpty()).isTrue();

        handoff.publish();
        assertThat(handoff.available()).isEqualTo(40);
        assertThat(handoff.take((partition, firstOffset, count, deliveryNumber, firstTime) ->
        {
            handoff.tookOne();
            handoff.tookOne();
        })).isTrue();

        assertThat(handoff.isEmpty()).isTrue();
        assertThat(handoff.available()).isEqualTo(38);
        assertThat(handoff.pending()).isEqualTo(38);
        assertThat(handoff.room(Integer.MAX_VALUE)).isEqualTo(size - 38);
    }

    @Test
    void runsWrapAroundTheRingAsMessagesAreTaken()
    {
        final DeliveryHandoff handoff = new DeliveryHandoff(4);
        final DeliveryHandoff.RunHandler takeAll = (partition, firstOffset, count, deliveryNumber, firstTime) ->
        {
            for (int i = 0; i < count; i++)
            {
                handoff.tookOne();
            }
            record.onRun(partition, firstOffset, count, deliveryNumber, firstTime);
        };
        for (long offset = 0; offset < 100; offset += 2)
        {
            // Gaps between the offsets keep every delivery a run of its own.
            assertThat(handoff.room(1)).isOne();
            handoff.stage(0, offset, 1, 1, 7);
            handoff.publish();
            assertThat(handoff.take(takeAll)).isTrue();
        }

        assertThat(runs).hasSize(50).startsWith("0:0+1#1@7").endsWith("0:98+1#1@7");
        assertThat(handoff.pending()).isZero();
    }

    @Test
    void roomHoldsTwiceTheCapacityAndIsNeverMoreThanTheConsumerFreed()
    {
        final DeliveryHandoff handoff = new DeliveryHandoff(4);
        assertThat(handoff.room(Integer.MAX_VALUE)).isEqualTo(8);
        handoff.stage(0, 0, 8, 1, 7);
        handoff.publish();
        assertThat(handoff.room(3)).isZero();

        assertThat(handoff.take((partition, firstOffset, count, deliveryNumber, firstTime) ->
        {
            for (int i = 0; i < 5; i++)
            {
                handoff.tookOne();
            }
        })).isTrue();
        assertThat(handoff.room(3)).isEqualTo(3);
        assertThat(handoff.room(Integer.MAX_VALUE)).isEqualTo(5);
        assertThat(handoff.pending()).isEqualTo(3);
    }
}
