package io.spool.wire;

import io.spool.api.SpoolException;
import io.spool.api.queue.ConsumerOptions;
import io.spool.api.InvalidRequestException;
import io.spool.api.queue.Receipt;
import io.spool.api.queue.StaleReceiptException;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.Subscription;
import io.spool.wire.client.ProducerConfig;
import io.spool.wire.client.RemoteDelivery;
import io.spool.wire.client.RemoteDeliveryListener;
import io.spool.wire.client.RemoteDeliveryView;
import io.spool.wire.client.RemoteProducer;
import io.spool.wire.client.RemoteQueueConsumer;
import io.spool.wire.client.RemoteSubscription;
import io.spool.wire.client.SpoolClient;
import io.spool.wire.server.ServerConfig;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

import static io.spool.wire.RoundTripTest.bytes;
import static io.spool.wire.RoundTripTest.ignoringListener;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Delays and locks of deliveries settled over the network, pulled and pushed alike, on the engine's clock moved by
 * hand: a nack with a delay brings the message back when the clock passes the delay and not before, an extended lock
 * outlives the lock timeout, and a push consumer hears of a lock that ran out.
 */
class QueueClockTest
{
    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final long LOCK_MILLIS = 1_000;

    @TempDir
    Path dir;
    private final CachedEpochClock clock = new CachedEpochClock();
    private WireFixture fixture;
    private SpoolClient client;
    private Subscription embedded;

    @BeforeEach
    void start()
    {
        clock.update(1_000_000);
        fixture = new WireFixture(dir, ServerConfig.builder(), clock);
        client = fixture.connect();
        client.admin().createTopic("jobs", WireFixture.topic(1));
        client.admin().createSubscription("work", "jobs",
            SubscriptionSettings.builder().lockTimeoutMillis(LOCK_MILLIS).build());
        embedded = fixture.spool().subscription("work");
    }

    @AfterEach
    void stop()
    {
        fixture.close();
    }

    @Test
    void aPulledDeliveryNackedWithADelayComesBackWhenTheClockPassesIt()
    {
        publish(1);
        final RemoteSubscription queue = client.subscription("work");
        final RemoteDelivery first = queue.receive(1, 0).get(0);

        queue.nack(first.receipt(), 60_000);
        clock.advance(59_999);
        embedded.sync();
        assertThat(queue.receive(1, 0)).isEmpty();
        assertThat(embedded.metrics().delayed()).isEqualTo(1);

        clock.advance(1);
        embedded.sync();
        final List<RemoteDelivery> again = queue.receive(1, 0);
        assertThat(again).hasSize(1);
        assertThat(again.get(0).offset()).isEqualTo(first.offset());
        assertThat(again.get(0).redelivered()).isTrue();
        assertThat(again.get(0).deliveryNumber()).isEqualTo(2);
    }

    @Test
    void aPulledDeliveryExtendedOutlivesItsLockWhileAnotherComesBack()
    {
        publish(2);
        final RemoteSubscription queue = client.subscription("work");
        final List<RemoteDelivery> held = queue.receive(2, 0);
        assertThat(held).hasSize(2);

        queue.extend(held.get(0).receipt(), 10 * LOCK_MILLIS);
        clock.advance(5 * LOCK_MILLIS);
        embedded.sync();

        final List<RemoteDelivery> back = queue.receive(2, 0);
        assertThat(back).extracting(RemoteDelivery::offset).containsExactly(held.get(1).offset());
        assertThat(back.get(0).redelivered()).isTrue();
        queue.ack(held.get(0).receipt());
        assertThat(queue.ack(List.of(held.get(1).receipt())).failed().get(
            held.get(1).receipt())).isInstanceOf(StaleReceiptException.class);
    }

    @Test
    void aPushedDeliveryNackedWithADelayComesBackWhenTheClockPassesIt()
    {
        publish(2);
        final Recorder recorder = new Recorder();
        final RemoteQueueConsumer consumer = client.subscription("work").consume(ConsumerOptions.prefetch(5),
            new RemoteDeliveryListener()
            {
                @Override
                public void onDelivery(final RemoteDeliveryView delivery, final RemoteQueueConsumer self)
                {
                    recorder.deliveries.add(delivery.copy());
                    if (delivery.redelivered())
                    {
                        self.ack(delivery);
                    }
                    else if (delivery.offset() == 0)
                    {
                        self.nack(delivery, 30_000);
                    }
                }
            });
        await(() -> recorder.deliveries.size() == 2);
        consumer.nack(recorder.deliveries.get(1).receipt(), 60_000);
        await(() -> embedded.metrics().delayed() == 2 && embedded.metrics().inFlight() == 0);

        clock.advance(29_999);
        embedded.sync();
        assertThat(embedded.metrics().delayed()).isEqualTo(2);
        clock.advance(1);
        await(() -> recorder.deliveries.size() == 3 && embedded.metrics().inFlight() == 0);
        clock.advance(30_000);
        await(() -> recorder.deliveries.size() == 4);

        assertThat(recorder.deliveries.subList(2, 4)).extracting(RemoteDelivery::offset).containsExactly(0L, 1L);
        assertThat(recorder.deliveries.subList(2, 4)).allSatisfy(d ->
        {
            assertThat(d.redelivered()).isTrue();
            assertThat(d.deliveryNumber()).isEqualTo(2);
        });
    }

    @Test
    void aPushedDeliveryExtendedOutlivesItsLockAndTheListenerHearsOfTheOneThatRanOut()
    {
        publish(3);
        final Recorder recorder = new Recorder();
        final RemoteQueueConsumer consumer = client.subscription("work").consume(ConsumerOptions.prefetch(3),
            recorder);
        await(() -> recorder.deliveries.size() == 3);
        final Receipt kept = recorder.deliveries.get(0).receipt();
        final Receipt lapsed = recorder.deliveries.get(1).receipt();

        consumer.extend(kept, 10 * LOCK_MILLIS);
        // settlements of one consumer take effect in order: once this ack is in, so is the extension before it
        consumer.ack(recorder.deliveries.get(2).receipt());
        await(() -> embedded.metrics().inFlight() == 2);
        clock.advance(5 * LOCK_MILLIS);

        await(() -> recorder.deliveries.size() == 4 && recorder.lockExpired.size() == 1);
        assertThat(recorder.lockExpired).containsExactly(lapsed);
        final RemoteDelivery again = recorder.deliveries.get(3);
        assertThat(again.offset()).isEqualTo(lapsed.offset());
        assertThat(again.deliveryNumber()).isEqualTo(2);

        consumer.ack(lapsed);
        consumer.ack(kept);
        consumer.ack(again.receipt());
        await(() -> embedded.metrics().inFlight() == 0 && recorder.refused.size() == 1);
        assertThat(recorder.refused.get(0)).isInstanceOf(StaleReceiptException.class);
        assertThat(embedded.metrics().ready()).isZero();
    }

    @Test
    void aPushedSettlementTheEngineRefusesComesBackToTheListener()
    {
        publish(1);
        final Recorder recorder = new Recorder();
        final RemoteQueueConsumer consumer = client.subscription("work").consume(ConsumerOptions.prefetch(1),
            recorder);
        await(() -> recorder.deliveries.size() == 1);

        consumer.nack(recorder.deliveries.get(0).receipt(), 0);
        await(() -> recorder.refused.size() == 1);
        assertThat(recorder.refused.get(0)).isInstanceOf(InvalidRequestException.class)
            .hasMessageContaining("nack delay");
        assertThat(embedded.metrics().inFlight()).isEqualTo(1);
    }

    private void await(final BooleanSupplier condition)
    {
        assertThat(WireFixture.await(() ->
        {
            embedded.sync();
            return condition.getAsBoolean();
        }, BOUND)).isTrue();
    }

    private void publish(final int count)
    {
        final RemoteProducer producer = client.newProducer(ProducerConfig.defaults(), ignoringListener());
        for (int i = 0; i < count; i++)
        {
            producer.send("jobs", null, null, bytes("job-" + i), i);
        }
        assertThat(producer.awaitConfirms()).isTrue();
    }

    /** Keeps what a push consumer was told, in order. */
    private static final class Recorder implements RemoteDeliveryListener
    {
        final List<RemoteDelivery> deliveries = new CopyOnWriteArrayList<>();
        final List<Receipt> lockExpired = new CopyOnWriteArrayList<>();
        final List<SpoolException> refused = new CopyOnWriteArrayList<>();

        @Override
        public void onDelivery(final RemoteDeliveryView delivery, final RemoteQueueConsumer consumer)
        {
            deliveries.add(delivery.copy());
        }

        @Override
        public void onSettlementRefused(final Receipt receipt, final SpoolException error)
        {
            refused.add(error);
        }

        @Override
        public void onLockExpired(final Receipt receipt)
        {
            lockExpired.add(receipt);
        }
    }
}
