package io.spool.queue;

import io.spool.api.SpoolException;
import io.spool.api.queue.AlreadySettledException;
import io.spool.api.queue.ConsumerOptions;
import io.spool.api.queue.Receipt;
import io.spool.api.queue.StaleReceiptException;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.queue.UnknownDeliveryException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Who may settle a delivery: a receipt is bound to the subscription that issued it, and a push consumer settles only
 * the deliveries it was handed, while the subscription settles any of its own deliveries by receipt.
 */
class ReceiptOwnershipTest
{
    @TempDir
    Path dir;
    QueueFixture fx;

    @BeforeEach
    void open()
    {
        fx = new QueueFixture(dir);
        fx.topic("orders", 1);
    }

    @AfterEach
    void close()
    {
        fx.close();
    }

    @Test
    void aReceiptOfOneSubscriptionIsRefusedByAnotherThatDeliveredTheSameMessage()
    {
        final Subscription a = fx.spool.createSubscription("a", "orders", SubscriptionSettings.DEFAULT);
        final Subscription b = fx.spool.createSubscription("b", "orders", SubscriptionSettings.DEFAULT);
        fx.publish("orders", "m");
        final Receipt ofA = a.receive(1, 0).get(0).receipt();
        final Receipt ofB = b.receive(1, 0).get(0).receipt();
        assertThat(ofA.offset()).isEqualTo(ofB.offset());
        assertThat(ofA.deliveryNumber()).isEqualTo(ofB.deliveryNumber());

        assertThatThrownBy(() -> b.ack(ofA)).isInstanceOf(UnknownDeliveryException.class)
            .hasMessageContaining("subscription b did not issue that receipt");
        assertThat(b.nack(List.of(ofA)).failed()).containsOnlyKeys(ofA);
        assertThatThrownBy(() -> b.ack(Receipt.parseToken(ofA.toToken())))
            .as("the token form carries its issuer").isInstanceOf(UnknownDeliveryException.class);

        assertThat(b.metrics().inFlight()).as("b's delivery is untouched").isEqualTo(1);
        b.ack(ofB);
        a.ack(ofA);
        assertThat(a.metrics().inFlight()).isZero();
        assertThat(b.metrics().inFlight()).isZero();
    }

    @Test
    void aReceiptMadeUpWithoutTheIssuerIsRefusedAndChangesNothing()
    {
        final Subscription work = fx.spool.createSubscription("work", "orders", SubscriptionSettings.DEFAULT);
        fx.publish("orders", "m");
        final Receipt real = work.receive(1, 0).get(0).receipt();

        for (final long guess : new long[] {0, 1, -1, real.issuer() + 1})
        {
            final Receipt forged = new Receipt(guess, real.partition(), real.offset(), real.deliveryNumber());
            assertThatThrownBy(() -> work.ack(forged)).isInstanceOf(UnknownDeliveryException.class)
                .hasMessageContaining("did not issue");
        }
        assertThat(work.metrics().inFlight()).isEqualTo(1);
        work.ack(real);
        assertThat(work.metrics().inFlight()).isZero();
    }

    @Test
    void aReceiptKeepsItsMeaningAcrossARestart()
    {
        fx.spool.createSubscription("work", "orders", SubscriptionSettings.DEFAULT);
        fx.publish("orders", "acked", "held");
        final List<Delivery> before = fx.spool.subscription("work").receive(2, 0);
        fx.spool.subscription("work").ack(before.get(0).receipt());
        fx.reopen();
        final Subscription work = fx.spool.subscription("work");

        assertThatThrownBy(() -> work.ack(before.get(0).receipt())).isInstanceOf(AlreadySettledException.class);
        assertThatThrownBy(() -> work.ack(before.get(1).receipt())).isInstanceOf(StaleReceiptException.class);
        final Delivery again = work.receive(1, 0).get(0);
        assertThat(again.redelivered()).isTrue();
        assertThat(again.receipt().issuer()).isEqualTo(before.get(1).receipt().issuer());
        work.ack(again.receipt());
    }

    @Test
    void aSubscriptionCreatedAgainUnderTheSameNameRefusesTheOldOnesReceipts()
    {
        fx.spool.createSubscription("work", "orders", SubscriptionSettings.DEFAULT);
        fx.publish("orders", "m");
        final Receipt old = fx.spool.subscription("work").receive(1, 0).get(0).receipt();
        fx.spool.deleteSubscription("work");
        final Subscription work = fx.spool.createSubscription("work", "orders", SubscriptionSettings.DEFAULT);
        assertThat(work.receive(1, 0)).hasSize(1);

        assertThatThrownBy(() -> work.ack(old)).isInstanceOf(UnknownDeliveryException.class)
            .hasMessageContaining("did not issue");
        assertThat(work.metrics().inFlight()).isEqualTo(1);
    }

    @Test
    void aPushConsumerSettlesOnlyItsOwnDeliveriesAndTheSubscriptionSettlesAnyByReceipt()
    {
        final Subscription work = fx.spool.createSubscription("work", "orders", SubscriptionSettings.DEFAULT);
        final Recorder x = new Recorder();
        final Recorder y = new Recorder();
        final QueueConsumer consumerX = work.consume(ConsumerOptions.prefetch(1), x);
        fx.publish("orders", "for x");
        final Receipt ofX = x.nextDelivery();
        final QueueConsumer consumerY = work.consume(ConsumerOptions.prefetch(1), y);
        fx.publish("orders", "for y");
        final Receipt ofY = y.nextDelivery();
        fx.publish("orders", "pulled");
        final Receipt pulled = work.receive(1, 0).get(0).receipt();

        consumerX.ack(ofY);
        assertThat(x.nextRefusal()).isInstanceOf(UnknownDeliveryException.class)
            .hasMessageContaining("consumer " + consumerY.id() + "'s, not consumer " + consumerX.id() + "'s");
        consumerX.reject(pulled);
        assertThat(x.nextRefusal()).isInstanceOf(UnknownDeliveryException.class)
            .hasMessageContaining("a pull receive's, not consumer " + consumerX.id() + "'s");
        work.sync();
        assertThat(work.metrics().inFlight()).as("nothing changed").isEqualTo(3);
        assertThat(work.metrics().dead()).isZero();

        consumerY.ack(ofY);
        consumerX.ack(ofX);
        work.ack(pulled);
        work.sync();
        assertThat(work.metrics().inFlight()).isZero();
        assertThat(x.refusals).as("the owners' settlements took effect").isEmpty();
        assertThat(y.refusals).isEmpty();
    }

    @Test
    void theSubscriptionSettlesAPushConsumersDeliveryByItsReceipt()
    {
        final Subscription work = fx.spool.createSubscription("work", "orders", SubscriptionSettings.DEFAULT);
        final Recorder x = new Recorder();
        final QueueConsumer consumer = work.consume(ConsumerOptions.prefetch(1), x);
        fx.publish("orders", "m");
        final Receipt ofX = x.nextDelivery();

        work.ack(ofX);
        consumer.ack(ofX);

        assertThat(x.nextRefusal()).as("the consumer's own ack comes second").isInstanceOf(AlreadySettledException.class);
    }

    @Test
    void aPushConsumerRefusesAReceiptOfAnotherSubscription()
    {
        final Subscription work = fx.spool.createSubscription("work", "orders", SubscriptionSettings.DEFAULT);
        final Subscription other = fx.spool.createSubscription("other", "orders", SubscriptionSettings.DEFAULT);
        final Recorder x = new Recorder();
        final QueueConsumer consumer = work.consume(ConsumerOptions.prefetch(1), x);
        fx.publish("orders", "m");
        final Receipt own = x.nextDelivery();
        final Receipt foreign = other.receive(1, 0).get(0).receipt();

        consumer.ack(foreign);

        assertThat(x.nextRefusal()).isInstanceOf(UnknownDeliveryException.class)
            .hasMessageContaining("subscription work did not issue that receipt");
        assertThat(other.metrics().inFlight()).isEqualTo(1);
        consumer.ack(own);
        other.ack(foreign);
    }

    /** Keeps what a push consumer is told, for the test thread to take in order. */
    private static final class Recorder implements DeliveryListener
    {
        final BlockingQueue<Receipt> deliveries = new LinkedBlockingQueue<>();
        final BlockingQueue<SpoolException> refusals = new LinkedBlockingQueue<>();

        @Override
        public void onDelivery(final Delivery delivery, final QueueConsumer consumer)
        {
            deliveries.add(delivery.receipt());
        }

        @Override
        public void onSettlementRefused(final Receipt receipt, final SpoolException error)
        {
            refusals.add(error);
        }

        Receipt nextDelivery()
        {
            return take(deliveries);
        }

        SpoolException nextRefusal()
        {
            return take(refusals);
        }

        /** Waits on the real clock, up to 30 s: the consumer's thread tells of it. */
        private static <T> T take(final BlockingQueue<T> queue)
        {
            try
            {
                final T next = queue.poll(30, TimeUnit.SECONDS);
                assertThat(next).as("the consumer was told").isNotNull();
                return next;
            }
            catch (final InterruptedException ex)
            {
                throw new IllegalStateException(ex);
            }
        }
    }
}
