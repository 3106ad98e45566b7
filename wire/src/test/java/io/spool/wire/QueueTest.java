package io.spool.wire;

import io.spool.api.SpoolException;
import io.spool.api.log.HeadersCodec;
import io.spool.api.queue.AlreadySettledException;
import io.spool.api.queue.ConsumerOptions;
import io.spool.api.queue.QueueException;
import io.spool.api.queue.Receipt;
import io.spool.api.queue.StaleReceiptException;
import io.spool.api.queue.SubscriptionExistsException;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.queue.UnknownDeliveryException;
import io.spool.api.queue.UnknownSubscriptionException;
import io.spool.queue.Subscription;
import io.spool.wire.client.ProducerConfig;
import io.spool.wire.client.RemoteDelivery;
import io.spool.wire.client.RemoteDeliveryListener;
import io.spool.wire.client.RemoteDeliveryView;
import io.spool.wire.client.RemoteProducer;
import io.spool.wire.client.RemoteQueueConsumer;
import io.spool.wire.client.RemoteSubscription;
import io.spool.wire.client.SpoolClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.spool.wire.RoundTripTest.bytes;
import static io.spool.wire.RoundTripTest.ignoringListener;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class QueueTest
{
    private static final Duration BOUND = Duration.ofSeconds(10);

    @TempDir
    Path dir;
    private WireFixture fixture;
    private SpoolClient client;

    @BeforeEach
    void start()
    {
        fixture = new WireFixture(dir);
        client = fixture.connect();
        client.admin().createTopic("jobs", WireFixture.topic(2));
    }

    @AfterEach
    void stop()
    {
        fixture.close();
    }

    @Test
    void subscriptionsAreCreatedListedAndDeleted()
    {
        final SubscriptionSettings settings = SubscriptionSettings.builder().lockTimeoutMillis(5_000)
            .deliveryLimit(3).build();
        client.admin().createSubscription("workers", "jobs", settings);

        assertThat(client.admin().listSubscriptions()).containsExactly("workers");
        assertThat(fixture.spool().subscription("workers").settings()).isEqualTo(settings);
        assertThatThrownBy(() -> client.admin().createSubscription("workers", "jobs", settings))
            .isInstanceOf(SubscriptionExistsException.class)
            .hasMessage(new SubscriptionExistsException("workers", "jobs").getMessage());
        client.admin().deleteSubscription("workers");
        assertThat(client.admin().listSubscriptions()).isEmpty();
        assertThatThrownBy(() -> client.subscription("workers").receive(1, 0))
            .isInstanceOf(UnknownSubscriptionException.class)
            .hasMessage(new UnknownSubscriptionException("workers").getMessage());
    }

    @Test
    void pulledDeliveriesAreAckedNackedDelayedRejectedAndExtended()
    {
        client.admin().createSubscription("pull", "jobs", SubscriptionSettings.DEFAULT);
        publish(5);
        final RemoteSubscription queue = client.subscription("pull");
        final List<RemoteDelivery> deliveries = receive(queue, 5);
        assertThat(deliveries).extracting(RemoteDelivery::valueAsString)
            .containsExactlyInAnyOrder("job-0", "job-1", "job-2", "job-3", "job-4");
        assertThat(deliveries).allSatisfy(d -> assertThat(d.redelivered()).isFalse());

        queue.ack(deliveries.get(0).receipt());
        queue.nack(deliveries.get(1).receipt());
        queue.nack(deliveries.get(2).receipt(), 60_000);
        queue.reject(deliveries.get(3).receipt());
        queue.extend(deliveries.get(4).receipt(), 60_000);

        final List<RemoteDelivery> again = queue.receive(5, 1_000);
        assertThat(again).hasSize(1);
        assertThat(again.get(0).offset()).isEqualTo(deliveries.get(1).offset());
        assertThat(again.get(0).partition()).isEqualTo(deliveries.get(1).partition());
        assertThat(again.get(0).redelivered()).isTrue();
        assertThat(again.get(0).deliveryNumber()).isEqualTo(2);

        assertThatThrownBy(() -> queue.ack(deliveries.get(1).receipt())).isInstanceOf(StaleReceiptException.class);
        assertThatThrownBy(() -> queue.ack(deliveries.get(0).receipt())).isInstanceOf(QueueException.class);
        final Map<Receipt, SpoolException> failed = queue.ack(
            List.of(again.get(0).receipt(), deliveries.get(0).receipt())).failed();
        assertThat(failed).containsOnlyKeys(deliveries.get(0).receipt());
        final Subscription embedded = fixture.spool().subscription("pull");
        embedded.sync();
        assertThat(embedded.metrics().dead()).isEqualTo(1);
        assertThat(embedded.metrics().delayed()).isEqualTo(1);
        assertThat(embedded.metrics().inFlight()).isEqualTo(1);
    }

    @Test
    void pushConsumerNeverHoldsMoreThanItsPrefetchAndGetsEverythingWhenItAcks()
    {
        client.admin().createSubscription("push", "jobs", SubscriptionSettings.DEFAULT);
        publish(100);
        final List<RemoteDelivery> held = new CopyOnWriteArrayList<>();
        final RemoteQueueConsumer consumer = client.subscription("push").consume(ConsumerOptions.prefetch(10),
            (delivery, self) -> held.add(delivery.copy()));

        assertThat(WireFixture.await(() -> held.size() == 10, BOUND)).isTrue();
        final Subscription embedded = fixture.spool().subscription("push");
        embedded.sync();
        embedded.sync();
        assertThat(held).hasSize(10);
        assertThat(embedded.metrics().inFlight()).isEqualTo(10);

        final Set<String> values = ConcurrentHashMap.newKeySet();
        int acked = 0;
        while (values.size() < 100)
        {
            final int seen = held.size();
            for (int i = acked; i < seen; i++)
            {
                values.add(held.get(i).valueAsString());
                consumer.ack(held.get(i).receipt());
            }
            acked = seen;
            final int before = seen;
            assertThat(WireFixture.await(() -> held.size() > before || values.size() == 100, BOUND)).isTrue();
        }
        assertThat(values).hasSize(100);
        consumer.close();
        embedded.sync();
        assertThat(embedded.metrics().inFlight()).isZero();
        assertThat(embedded.metrics().ready()).isZero();
    }

    @Test
    void aClosedConnectionReturnsEverythingItHeldAtOnceMarkedRedelivered()
    {
        client.admin().createSubscription("drop", "jobs", SubscriptionSettings.DEFAULT);
        publish(8);
        final SpoolClient doomed = fixture.connect();
        final List<RemoteDelivery> pulled = receive(doomed.subscription("drop"), 3);
        final List<RemoteDelivery> pushed = new CopyOnWriteArrayList<>();
        doomed.subscription("drop").consume(ConsumerOptions.prefetch(5), (delivery, self) -> pushed.add(delivery.copy()));
        assertThat(WireFixture.await(() -> pushed.size() == 5, BOUND)).isTrue();
        doomed.close();

        final RemoteSubscription survivor = client.subscription("drop");
        final List<RemoteDelivery> back = new ArrayList<>();
        assertThat(WireFixture.await(() ->
        {
            back.addAll(survivor.receive(8, 100));
            return back.size() == 8;
        }, BOUND)).isTrue();
        assertThat(back).allSatisfy(d -> assertThat(d.redelivered()).isTrue());
        final List<Long> before = new ArrayList<>();
        pulled.forEach(d -> before.add(d.offset() * 10 + d.partition()));
        pushed.forEach(d -> before.add(d.offset() * 10 + d.partition()));
        assertThat(back).extracting(d -> d.offset() * 10 + d.partition()).containsExactlyInAnyOrderElementsOf(before);
    }

    @Test
    void aClosedConnectionReleasesItsDeliveriesEvenWhenOneOfItsSubscriptionsWasDeleted()
    {
        final SubscriptionSettings longLocks = SubscriptionSettings.builder().lockTimeoutMillis(600_000).build();
        client.admin().createSubscription("kept", "jobs", longLocks);
        client.admin().createSubscription("deleted", "jobs", longLocks);
        publish(2);
        final SpoolClient doomed = fixture.connect();
        receive(doomed.subscription("deleted"), 2);
        receive(doomed.subscription("kept"), 2);
        final List<Throwable> uncaught = new CopyOnWriteArrayList<>();
        final Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, error) -> uncaught.add(error));
        try
        {
            client.admin().deleteSubscription("deleted");
            doomed.close();

            final RemoteSubscription kept = client.subscription("kept");
            final List<RemoteDelivery> back = new ArrayList<>();
            assertThat(WireFixture.await(() ->
            {
                back.addAll(kept.receive(2, 100));
                return back.size() == 2;
            }, BOUND)).isTrue();
            assertThat(back).allSatisfy(d -> assertThat(d.redelivered()).isTrue());
            assertThat(uncaught).isEmpty();
        }
        finally
        {
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
    }

    /** The server encodes a pushed delivery from its view of the log and a received one from its copy. */
    @Test
    void pushedAndReceivedDeliveriesCarryKeyHeadersAndValue()
    {
        client.admin().createSubscription("push", "jobs", SubscriptionSettings.DEFAULT);
        client.admin().createSubscription("pull", "jobs", SubscriptionSettings.DEFAULT);
        final RemoteProducer producer = client.newProducer(ProducerConfig.defaults(), ignoringListener());
        for (int i = 0; i < 3; i++)
        {
            producer.send("jobs", bytes("key-" + i), HeadersCodec.encode(Map.of("trace", bytes("trace-" + i))),
                bytes("value-" + i), i);
        }
        assertThat(producer.awaitConfirms()).isTrue();
        final List<RemoteDelivery> pushed = new CopyOnWriteArrayList<>();
        final RemoteQueueConsumer consumer = client.subscription("push").consume(ConsumerOptions.prefetch(10),
            (delivery, self) -> pushed.add(delivery.copy()));
        assertThat(WireFixture.await(() -> pushed.size() == 3, BOUND)).isTrue();
        consumer.close();

        for (final List<RemoteDelivery> deliveries : List.of(pushed, receive(client.subscription("pull"), 3)))
        {
            assertThat(deliveries).extracting(d -> new String(d.key()) + " " + new String(d.headers().get("trace")) +
                " " + d.valueAsString()).containsExactlyInAnyOrder(
                "key-0 trace-0 value-0", "key-1 trace-1 value-1", "key-2 trace-2 value-2");
        }
    }

    @Test
    void aPushConsumerNacksAndRejects()
    {
        client.admin().createSubscription("picky", "jobs", SubscriptionSettings.DEFAULT);
        publish(2);
        final List<RemoteDelivery> seen = new CopyOnWriteArrayList<>();
        client.subscription("picky").consume(ConsumerOptions.prefetch(5), (delivery, self) ->
        {
            seen.add(delivery.copy());
            if (delivery.valueAsString().equals("job-0") && !delivery.redelivered())
            {
                self.nack(delivery);
            }
            else if (delivery.valueAsString().equals("job-1"))
            {
                self.reject(delivery);
            }
            else
            {
                self.ack(delivery);
            }
        });

        assertThat(WireFixture.await(() -> seen.size() == 3, BOUND)).isTrue();
        assertThat(seen).filteredOn(d -> d.valueAsString().equals("job-0")).extracting(RemoteDelivery::redelivered)
            .containsExactly(false, true);
        final Subscription embedded = fixture.spool().subscription("picky");
        assertThat(WireFixture.await(() ->
        {
            embedded.sync();
            return embedded.metrics().dead() == 1 && embedded.metrics().inFlight() == 0;
        }, BOUND)).isTrue();
    }

    @Test
    void aSecondAckOfAPushDeliveryIsRefusedToTheListener()
    {
        client.admin().createSubscription("twice", "jobs", SubscriptionSettings.DEFAULT);
        publish(1);
        final List<SpoolException> refusals = new CopyOnWriteArrayList<>();
        final List<RemoteDelivery> held = new CopyOnWriteArrayList<>();
        final RemoteQueueConsumer consumer = client.subscription("twice").consume(ConsumerOptions.prefetch(1),
            new RemoteDeliveryListener()
            {
                @Override
                public void onDelivery(final RemoteDeliveryView delivery, final RemoteQueueConsumer self)
                {
                    held.add(delivery.copy());
                }

                @Override
                public void onSettlementRefused(final Receipt receipt, final SpoolException error)
                {
                    refusals.add(error);
                }
            });
        assertThat(WireFixture.await(() -> held.size() == 1, BOUND)).isTrue();
        consumer.ack(held.get(0).receipt());
        consumer.ack(held.get(0).receipt());

        assertThat(WireFixture.await(() -> refusals.size() == 1, BOUND)).isTrue();
        assertThat(refusals.get(0)).isInstanceOfAny(AlreadySettledException.class, StaleReceiptException.class);
    }

    @Test
    void aReceiptIsBoundToItsSubscriptionAndAPushConsumerToItsOwnDeliveriesOverTheWire()
    {
        client.admin().createSubscription("a", "jobs", SubscriptionSettings.DEFAULT);
        client.admin().createSubscription("b", "jobs", SubscriptionSettings.DEFAULT);
        publish(1);
        final RemoteSubscription a = client.subscription("a");
        final RemoteSubscription b = client.subscription("b");
        final Receipt ofA = receive(a, 1).get(0).receipt();
        final Receipt ofB = receive(b, 1).get(0).receipt();
        assertThat(ofA.issuer()).isNotEqualTo(ofB.issuer());

        assertThatThrownBy(() -> b.ack(ofA)).isInstanceOf(UnknownDeliveryException.class)
            .hasMessageContaining("did not issue");
        assertThatThrownBy(() -> b.ack(new Receipt(0, ofB.partition(), ofB.offset(), ofB.deliveryNumber())))
            .as("a receipt made up without the issuer").isInstanceOf(UnknownDeliveryException.class);

        final List<SpoolException> refusals = new CopyOnWriteArrayList<>();
        final RemoteQueueConsumer consumer = b.consume(ConsumerOptions.prefetch(1), new RemoteDeliveryListener()
        {
            @Override
            public void onDelivery(final RemoteDeliveryView delivery, final RemoteQueueConsumer self)
            {
            }

            @Override
            public void onSettlementRefused(final Receipt receipt, final SpoolException error)
            {
                refusals.add(error);
            }
        });
        consumer.ack(ofB);
        consumer.ack(ofA);
        assertThat(WireFixture.await(() -> refusals.size() == 2, BOUND)).isTrue();
        assertThat(refusals).allMatch(error -> error instanceof UnknownDeliveryException);
        assertThat(refusals).as("b's delivery is the pull receive's, a's is another subscription's")
            .anyMatch(error -> error.getMessage().contains("pull receive"))
            .anyMatch(error -> error.getMessage().contains("did not issue"));
        b.ack(ofB);
        a.ack(ofA);
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

    private static List<RemoteDelivery> receive(final RemoteSubscription queue, final int count)
    {
        final List<RemoteDelivery> deliveries = new ArrayList<>();
        assertThat(WireFixture.await(() ->
        {
            deliveries.addAll(queue.receive(count - deliveries.size(), 100));
            return deliveries.size() == count;
        }, BOUND)).isTrue();
        return deliveries;
    }
}
