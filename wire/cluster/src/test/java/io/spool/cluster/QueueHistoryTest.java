package io.spool.cluster;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The queue history check finds each kind of violation it claims to, and none in a clean history. */
class QueueHistoryTest
{
    private final QueueHistory history = new QueueHistory();

    @Test
    void aCleanHistoryPasses()
    {
        receive(delivery(0, 1), delivery(1, 1));
        history.acked(1);
        receive(delivery(0, 2));
        history.acked(0);

        assertThat(history.violations(2)).isEmpty();
        assertThat(history.settledBelow(2)).isTrue();
    }

    @Test
    void findsAMessageDeliveredAgainAfterItsAckWasConfirmed()
    {
        receive(delivery(0, 1));
        history.acked(0);
        receive(delivery(0, 2));

        assertThat(history.violations(1)).containsExactly("offset 0 delivered again (delivery 2) by a receive " +
            "asked for after its ack was confirmed");
    }

    @Test
    void aReceiveAskedForBeforeTheAckWasConfirmedMayStillHoldTheMessage()
    {
        final long askedAt = history.receiving();
        history.acked(0);
        history.received(askedAt, List.of(delivery(0, 1)));

        assertThat(history.violations(1)).isEmpty();
    }

    @Test
    void findsADeliveryCountThatWentBack()
    {
        receive(delivery(0, 2));
        receive(delivery(0, 1));
        history.acked(0);

        assertThat(history.violations(1)).containsExactly("delivery count of offset 0 went from 2 to 1");
    }

    @Test
    void findsAMessageNeverAckedButCountsOneWhoseAckWentUnanswered()
    {
        receive(delivery(0, 1), delivery(1, 1));
        history.ackUnanswered(0);

        assertThat(history.settledBelow(2)).isFalse();
        assertThat(history.violations(2)).containsExactly("offset 1 never acked: lost to the subscription");
    }

    private void receive(final ClusterDelivery... deliveries)
    {
        history.received(history.receiving(), List.of(deliveries));
    }

    private static ClusterDelivery delivery(final long offset, final int deliveryNumber)
    {
        return new ClusterDelivery(new ClusterReceipt("jobs", 0, "workers", offset, deliveryNumber));
    }
}
