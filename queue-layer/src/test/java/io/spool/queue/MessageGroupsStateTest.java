package io.spool.queue;

import io.spool.api.queue.GroupKeySource;
import io.spool.api.queue.GroupMode;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.internal.state.MessageGroups;
import io.spool.queue.internal.state.MessageState;
import io.spool.queue.internal.state.SubscriptionPartitionState;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MessageGroupsStateTest
{
    private static final int HOT_GROUP = 7;

    @Test
    void aHotGroupStopsTheCursorAtTheWaitingBoundInsteadOfHoldingTheWholeBacklog()
    {
        final SubscriptionPartitionState state = SubscriptionPartitionState.inMemory(0, SubscriptionSettings.builder()
            .messageGroups(GroupMode.ORDERED, GroupKeySource.HEADER).build(), new CachedEpochClock(), 0,
            DeadLetterHandler.NONE);
        state.inspector((offset, traits) -> traits.clear().group = HOT_GROUP);
        state.logEnd(MessageGroups.MAX_WAITING + 100);

        assertThat(state.acquire(1_000, 1, (offset, deliveryNumber) -> {})).isEqualTo(1);
        assertThat(state.readCursor()).as("one acquire passes over a bounded run").isEqualTo(
            SubscriptionPartitionState.MAX_PASSED_PER_ACQUIRE + 1);
        while (state.acquire(1_000, 1, (offset, deliveryNumber) -> {}) == 0 &&
            state.counts().groupWaitingCount() < MessageGroups.MAX_WAITING)
        {
            continue;
        }
        assertThat(state.counts().groupWaitingCount()).isEqualTo(MessageGroups.MAX_WAITING);
        assertThat(state.readCursor()).isEqualTo(MessageGroups.MAX_WAITING + 1);
        assertThat(state.state(5)).isEqualTo(MessageState.AVAILABLE);

        state.ack(0, 1);
        final org.agrona.collections.LongArrayList delivered = new org.agrona.collections.LongArrayList();
        assertThat(state.acquire(1_000, 1, (offset, deliveryNumber) -> delivered.addLong(offset)))
            .as("the new head and the run behind it").isEqualTo(1_000);
        for (int i = 0; i < delivered.size(); i++)
        {
            assertThat(delivered.getLong(i)).isEqualTo(i + 1);
        }
        assertThat(state.counts().groupWaitingCount())
            .as("the run's members stay in the group until the head passes them")
            .isEqualTo(MessageGroups.MAX_WAITING - 1);
        assertThat(state.acquire(1_000, 2, (offset, deliveryNumber) -> {})).as("the group is blocked to others")
            .isZero();
    }
}
