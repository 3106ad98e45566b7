package io.spool.queue;

import io.spool.api.queue.ConsumerOptions;
import io.spool.api.queue.SubscriptionSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Closing a push consumer: what it held goes back marked redelivered (or, auto-acked, is lost), and it is handed
 * nothing more, whether it is closed by its own listener or by another thread while the listener is busy.
 */
class ConsumerCloseTest
{
    @TempDir
    Path dir;
    QueueFixture fx;
    Subscription work;

    @BeforeEach
    void open()
    {
        fx = new QueueFixture(dir);
        fx.topic("jobs", 2);
        work = fx.spool.createSubscription("work", "jobs", SubscriptionSettings.DEFAULT);
    }

    @AfterEach
    void close()
    {
        fx.close();
    }

    @Test
    void closingAConsumerReturnsItsUnackedDeliveriesMarkedRedelivered()
    {
        fx.publishJobs("jobs", 20);
        final CountDownLatch got = new CountDownLatch(10);
        final QueueConsumer consumer = work.consume(ConsumerOptions.prefetch(10), (delivery, c) -> got.countDown());
        QueueFixture.await(got);
        consumer.close();
        work.sync();
        assertReceivable(20, 10, "the ten it held");
    }

    @Test
    void aConsumerClosedByItsListenerIsHandedNothingMoreOfTheRunItWasReading()
    {
        fx.publishJobs("jobs", 20);
        final AtomicInteger delivered = new AtomicInteger();
        final CountDownLatch closed = new CountDownLatch(1);
        work.consume(ConsumerOptions.prefetch(10), (delivery, c) ->
        {
            if (delivered.incrementAndGet() == 3)
            {
                c.close();
                closed.countDown();
            }
        });
        QueueFixture.await(closed);
        work.sync();

        assertThat(delivered).hasValue(3);
        assertReceivable(20, 10, "the ten it held");
    }

    @Test
    void autoAckLosesWhatTheConsumerHadNotFinishedWhenItStops()
    {
        fx.publishJobs("jobs", 20);
        final HeldListener listener = new HeldListener();
        final QueueConsumer consumer = work.consume(ConsumerOptions.autoAck(5), listener);
        QueueFixture.await(listener.got);
        work.sync();
        final long handedOver = 20 - work.metrics().ready();
        assertThat(handedOver).isGreaterThan(1);
        closeWhileHeld(consumer, listener, () -> { });
        work.sync();
        assertThat(work.receive(100, 0)).hasSize((int)(20 - handedOver));
    }

    /**
     * A consumer that is closing is handed nothing more, though it has credit left: what it were handed now would
     * only come back marked redelivered without ever having been delivered (or, auto-acked, be lost).
     */
    @Test
    void aClosingConsumerIsHandedNothingMore()
    {
        fx.publishJobs("jobs", 3);
        final HeldListener listener = new HeldListener();
        final QueueConsumer consumer = work.consume(ConsumerOptions.prefetch(5), listener);
        QueueFixture.await(listener.got);
        work.sync();
        assertThat(work.metrics().ready()).as("all three handed over").isZero();
        closeWhileHeld(consumer, listener, () ->
        {
            fx.publishJobs("jobs", 10);
            work.sync();
        });
        work.sync();

        assertReceivable(13, 3, "the three handed over before the close");
    }

    /** A receive gets {@code all} messages, {@code redelivered} of them marked redelivered. */
    private void assertReceivable(final int all, final int redelivered, final String whichRedelivered)
    {
        final List<Delivery> after = work.receive(100, 0);
        assertThat(after).hasSize(all);
        assertThat(after.stream().filter(Delivery::redelivered).count()).as(whichRedelivered).isEqualTo(redelivered);
    }

    /** Holds the first delivery it gets until released, acking nothing, so a test can close its consumer meanwhile. */
    private static final class HeldListener implements DeliveryListener
    {
        final CountDownLatch got = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public void onDelivery(final Delivery delivery, final QueueConsumer consumer)
        {
            got.countDown();
            try
            {
                release.await();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Closes the consumer from another thread while its listener holds a delivery: runs {@code meanwhile} once the
     * consumer counts as closed, then lets the listener go and waits for the close to end.
     */
    private static void closeWhileHeld(final QueueConsumer consumer, final HeldListener listener,
        final Runnable meanwhile)
    {
        final Thread closer = new Thread(consumer::close);
        closer.start();
        while (!consumer.isClosed())
        {
            Thread.onSpinWait();
        }
        meanwhile.run();
        listener.release.countDown();
        try
        {
            closer.join(30_000);
        }
        catch (final InterruptedException ex)
        {
            throw new IllegalStateException(ex);
        }
    }
}
