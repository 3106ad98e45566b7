package io.spool.cluster;

import io.spool.api.InvalidRequestException;
import io.spool.api.queue.AlreadySettledException;
import io.spool.api.queue.StaleReceiptException;
import io.spool.api.queue.UnknownDeliveryException;
import io.spool.api.queue.UnknownSubscriptionException;
import io.spool.cluster.QueueEntryDescriptor.CreateSubscription;
import io.spool.cluster.QueueEntryDescriptor.QueueReply;
import io.spool.cluster.QueueEntryDescriptor.Receive;
import io.spool.cluster.QueueEntryDescriptor.Settle;
import io.spool.queue.ReplicatedPartitionState.Delivered;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The queue entries of a partition's group applied on two nodes' {@link ReplicatedSubscriptions}, each entry
 * encoded, stamped by the "leader" and decoded as Ratis would carry it. Time is the entries' only clock, so lock
 * expiry is driven by stamping later times; nothing sleeps.
 */
class ReplicatedSubscriptionsTest
{
    private static final String SUBSCRIPTION = "billing";
    private static final long START = 1_000_000L;
    private static final long LOCK = 1_000L;
    private static final int DELIVERY_LIMIT = 3;

    private final ReplicatedSubscriptions leader = new ReplicatedSubscriptions("orders", 0);
    private final ReplicatedSubscriptions follower = new ReplicatedSubscriptions("orders", 0);
    private long replicatedEnd = 10;

    @Test
    void anAckedMessageIsNeverDeliveredAgainAndCountsGoOnAfterLocksRunOut()
    {
        create();
        final List<Delivered> first = receive(START, 3);
        assertThat(first).containsExactly(new Delivered(0, 1), new Delivered(1, 1), new Delivered(2, 1));
        assertThat(settle(START + 1, QueueEntryDescriptor.ACTION_ACK, 0, 1, 0).refusal()).isZero();
        assertThat(settle(START + 2, QueueEntryDescriptor.ACTION_NACK, 1, 1, 0).refusal()).isZero();

        // offset 2's lock runs out at START + LOCK by the entries' clock
        final List<Delivered> second = receive(START + LOCK + 1, 3);
        assertThat(second).containsExactly(new Delivered(1, 2), new Delivered(2, 2), new Delivered(3, 1));
        assertThat(second).extracting(Delivered::offset).doesNotContain(0L);
        assertSameState(10);
    }

    @Test
    void aMessageAtItsDeliveryLimitGoesDeadAndToNoConsumer()
    {
        create();
        replicatedEnd = 1;
        // the limit counts redeliveries, as RabbitMQ's delivery-limit does: the first delivery and three more
        for (int delivery = 1; delivery <= DELIVERY_LIMIT + 1; delivery++)
        {
            assertThat(receive(START + delivery, 1)).containsExactly(new Delivered(0, delivery));
            assertThat(settle(START + delivery, QueueEntryDescriptor.ACTION_NACK, 0, delivery, 0).refusal())
                .isZero();
        }
        assertThat(receive(START + 10, 1)).isEmpty();
        // a dead message is settled: the ack floor passes it, and below the floor every offset reads as done
        assertThat(leader.state(SUBSCRIPTION).ackFloor()).isEqualTo(1);
        assertSameState(1);
    }

    @Test
    void aNackWithADelayComesBackWhenTheEntriesClockPassesIt()
    {
        create();
        replicatedEnd = 1;
        receive(START, 1);
        assertThat(settle(START, QueueEntryDescriptor.ACTION_NACK, 0, 1, 5_000).refusal()).isZero();
        assertThat(receive(START + 4_999, 1)).isEmpty();
        assertThat(receive(START + 5_000, 1)).containsExactly(new Delivered(0, 2));
        assertSameState(1);
    }

    @Test
    void anExtendedLockHoldsPastItsFirstDeadline()
    {
        create();
        replicatedEnd = 1;
        receive(START, 1);
        final QueueReply extended = settle(START + 500, QueueEntryDescriptor.ACTION_EXTEND, 0, 1, 10_000);
        assertThat(extended.value()).isEqualTo(START + 500 + 10_000);
        assertThat(receive(START + LOCK + 1, 1)).isEmpty();
        assertThat(settle(START + 10_000, QueueEntryDescriptor.ACTION_ACK, 0, 1, 0).refusal()).isZero();
        assertSameState(1);
    }

    @Test
    void settlingTwiceOrLateOrAForeignDeliveryIsRefusedSayingWhich()
    {
        create();
        receive(START, 2);
        settle(START, QueueEntryDescriptor.ACTION_ACK, 0, 1, 0);
        assertThat(settle(START, QueueEntryDescriptor.ACTION_ACK, 0, 1, 0).toException())
            .isInstanceOf(AlreadySettledException.class);
        assertThat(settle(START + LOCK + 1, QueueEntryDescriptor.ACTION_ACK, 1, 1, 0).toException())
            .isInstanceOf(StaleReceiptException.class);
        assertThat(settle(START + LOCK + 1, QueueEntryDescriptor.ACTION_ACK, 7, 1, 0).toException())
            .isInstanceOf(UnknownDeliveryException.class);
        assertThat(settle(START + LOCK + 1, 9, 1, 2, 0).toException())
            .isInstanceOf(InvalidRequestException.class).hasMessageContaining("settle action 9");
        assertSameState(10);
    }

    @Test
    void anUnknownSubscriptionIsRefusedByName()
    {
        final QueueReply reply = apply(QueueEntryDescriptor.receive(new Receive("nope", 0, 1, LOCK)).getContent(),
            START);
        assertThat(reply.toException()).isInstanceOf(UnknownSubscriptionException.class)
            .hasMessageContaining("nope");
    }

    @Test
    void aSecondCreationIsRefusedAsExisting()
    {
        create();
        assertThat(apply(createEntry(), START).refusal())
            .isEqualTo(QueueEntryDescriptor.REFUSAL_SUBSCRIPTION_EXISTS);
    }

    @Test
    void aGarbledReceiptIsRefusedBeforeItReachesTheCluster()
    {
        final ClusterReceipt receipt = new ClusterReceipt("orders", 2, "billing", 41, 3);
        assertThat(ClusterReceipt.parse(receipt.encode())).isEqualTo(receipt);
        for (final String garbled : new String[] {"", "orders/2/billing/41", "orders/x/billing/41/3", "orders/2//41/3",
            "orders/2/billing/41/0", null})
        {
            assertThatThrownBy(() -> ClusterReceipt.parse(garbled)).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("is not one a cluster receive handed out");
        }
    }

    private void create()
    {
        assertThat(apply(createEntry(), START).refusal()).isZero();
    }

    private static ByteString createEntry()
    {
        return QueueEntryDescriptor.createSubscription(
            new CreateSubscription(SUBSCRIPTION, 0, LOCK, DELIVERY_LIMIT, null)).getContent();
    }

    private List<Delivered> receive(final long now, final int max)
    {
        final QueueReply reply = apply(
            QueueEntryDescriptor.receive(new Receive(SUBSCRIPTION, 0, max, LOCK)).getContent(), now);
        assertThat(reply.refusal()).as(reply.problem()).isZero();
        return reply.deliveries();
    }

    private QueueReply settle(final long now, final int action, final long offset, final int deliveryNumber,
        final long argument)
    {
        return apply(QueueEntryDescriptor.settle(
            new Settle(SUBSCRIPTION, 0, action, offset, deliveryNumber, argument)).getContent(), now);
    }

    /** Stamps the entry as the leader does, applies it on both nodes, and checks they answered alike. */
    private QueueReply apply(final ByteString entry, final long now)
    {
        final ByteString stamped = QueueEntryDescriptor.stamped(entry, now);
        final QueueReply onLeader = applyOn(leader, stamped);
        final QueueReply onFollower = applyOn(follower, stamped);
        assertThat(onFollower).isEqualTo(onLeader);
        return QueueEntryDescriptor.decodeReply(QueueEntryDescriptor.reply(onLeader).getContent());
    }

    private QueueReply applyOn(final ReplicatedSubscriptions node, final ByteString entry)
    {
        return switch (entry.byteAt(1))
        {
            case QueueEntryDescriptor.TYPE_CREATE_SUBSCRIPTION ->
                node.create(QueueEntryDescriptor.decodeCreateSubscription(entry));
            case QueueEntryDescriptor.TYPE_RECEIVE -> node.receive(QueueEntryDescriptor.decodeReceive(entry),
                replicatedEnd);
            default -> node.settle(QueueEntryDescriptor.decodeSettle(entry));
        };
    }

    private void assertSameState(final long end)
    {
        final List<Object> onLeader = new ArrayList<>();
        final List<Object> onFollower = new ArrayList<>();
        for (long offset = 0; offset < end; offset++)
        {
            onLeader.add(leader.state(SUBSCRIPTION).stateOf(offset));
            onFollower.add(follower.state(SUBSCRIPTION).stateOf(offset));
        }
        assertThat(onFollower).isEqualTo(onLeader);
        assertThat(follower.state(SUBSCRIPTION).ackFloor()).isEqualTo(leader.state(SUBSCRIPTION).ackFloor());
    }
}
