package io.spool.queue.internal.state;

import io.spool.api.queue.GroupKeySource;
import io.spool.api.queue.GroupMode;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.DeadLetterHandler;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Key-sticky delivery: even offsets are key A, odd ones key B.
 */
class KeyStickyGroupsTest
{
    private static final int FIRST = 1;
    private static final int SECOND = 2;

    private final CachedEpochClock clock = new CachedEpochClock();
    private SubscriptionPartitionState state;

    @BeforeEach
    void open()
    {
        state = SubscriptionPartitionState.inMemory(0, SubscriptionSettings.builder()
            .messageGroups(GroupMode.KEY_STICKY, GroupKeySource.HEADER).build(), clock, 0, DeadLetterHandler.NONE);
        state.inspector((offset, traits) ->
        {
            traits.clear().group = offset % 2 == 0 ? 'A' : 'B';
            traits.expireAt = offset == 2 ? 1_000 : MessageTraits.NEVER;
        });
        state.logEnd(8);
    }

    private List<Long> acquire(final int consumer, final int max)
    {
        final List<Long> offsets = new ArrayList<>();
        state.acquire(max, consumer, (offset, deliveryNumber) -> offsets.add(offset));
        return offsets;
    }

    @Test
    void eachKeyStaysWithTheConsumerHoldingItsOlderMessagesInOrder()
    {
        assertThat(acquire(FIRST, 1)).containsExactly(0L);
        assertThat(acquire(SECOND, 10)).containsExactly(1L, 3L, 5L, 7L);
        assertThat(acquire(FIRST, 10)).containsExactly(2L, 4L, 6L);
    }

    @Test
    void aReleasedMessageGoesBackToItsKeysOwner()
    {
        assertThat(acquire(FIRST, 1)).containsExactly(0L);
        state.nack(0, 1);
        assertThat(acquire(SECOND, 2)).containsExactly(1L, 3L);
        assertThat(acquire(FIRST, 1)).containsExactly(0L);
        assertThat(state.deliveryCount(0)).isEqualTo(2);
    }

    @Test
    void whenAConsumerLeavesTheNextTakesItsKeysWithoutAStallAndInOrder()
    {
        assertThat(acquire(FIRST, 1)).containsExactly(0L);
        assertThat(acquire(SECOND, 10)).containsExactly(1L, 3L, 5L, 7L);
        state.releaseConsumer(FIRST);
        assertThat(acquire(SECOND, 10)).containsExactly(0L, 2L, 4L, 6L);
    }

    @Test
    void aKeyWithNothingUnsettledGoesToWhoeverAsksNext()
    {
        assertThat(acquire(FIRST, 1)).containsExactly(0L);
        state.ack(0, 1);
        assertThat(acquire(SECOND, 2)).containsExactly(1L, 2L);
    }

    @Test
    void aMessageWaitingForItsKeysOwnerExpiresWhereItWaits()
    {
        assertThat(acquire(FIRST, 1)).containsExactly(0L);
        assertThat(acquire(SECOND, 2)).containsExactly(1L, 3L);
        clock.update(1_000);
        state.expireDue();
        assertThat(state.state(2)).isEqualTo(MessageState.DEAD);
        assertThat(acquire(FIRST, 10)).containsExactly(4L, 6L);
    }
}
