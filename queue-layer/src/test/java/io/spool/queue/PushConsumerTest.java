package io.spool.queue;

import io.spool.api.SpoolException;
import io.spool.api.MetricSample;
import io.spool.api.log.HeadersCodec;
import io.spool.api.queue.AlreadySettledException;
import io.spool.api.queue.ConsumerOptions;
import io.spool.api.queue.Receipt;
import io.spool.api.queue.StaleReceiptException;
import io.spool.api.queue.SubscriptionMetrics;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.ProducerRecord;
import org.agrona.DirectBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PushConsumerTest
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

    /**
     * A pushed delivery views the log and a received one keeps a copy: through either, the key, headers and value
     * read back as published, by the copying getters and by the buffer at the offsets the getters give.
     */
    @Test
    void pushedAndReceivedDeliveriesReadTheirMessageThroughEveryGetter()
    {
        final Subscription audit = fx.spool.createSubscription("audit", "jobs", SubscriptionSettings.DEFAULT);
        for (int i = 0; i < 3; i++)
        {
            fx.spool.newProducer().send(new ProducerRecord("jobs", 0, bytes("key-" + i),
                Map.of("trace", bytes("trace-" + i)), bytes("value-" + i))).join();
        }
        final List<String> pushed = new CopyOnWriteArrayList<>();
        final CountDownLatch all = new CountDownLatch(3);
        final QueueConsumer consumer = work.consume(ConsumerOptions.prefetch(10), (delivery, c) ->
        {
            pushed.add(readEveryWay(delivery));
            c.ack(delivery);
            all.countDown();
        });
        QueueFixture.await(all);
        consumer.close();
        final List<String> received = new ArrayList<>();
        for (final Delivery delivery : audit.receive(10, 0))
        {
            received.add(readEveryWay(delivery));
        }

        final List<String> expected = List.of(
            "0 key-0 trace-0 value-0 | key-0 trace-0 value-0",
            "1 key-1 trace-1 value-1 | key-1 trace-1 value-1",
            "2 key-2 trace-2 value-2 | key-2 trace-2 value-2");
        assertThat(pushed).isEqualTo(expected);
        assertThat(received).isEqualTo(expected);
    }

    private static String readEveryWay(final Delivery delivery)
    {
        final DirectBuffer buffer = delivery.buffer();
        final Map<String, byte[]> headers =
            HeadersCodec.decode(buffer, delivery.headersOffset(), delivery.headersLength());
        return delivery.offset() + " " + new String(delivery.key(), StandardCharsets.UTF_8) + " " +
            delivery.header("trace") + " " + delivery.valueAsString() + " | " +
            buffer.getStringWithoutLengthUtf8(delivery.keyOffset(), delivery.keyLength()) + " " +
            new String(headers.get("trace"), StandardCharsets.UTF_8) + " " +
            buffer.getStringWithoutLengthUtf8(delivery.valueOffset(), delivery.valueLength());
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void neverMoreUnackedThanThePrefetch()
    {
        fx.publishJobs("jobs", 200);
        final AtomicInteger unacked = new AtomicInteger();
        final AtomicInteger maxUnacked = new AtomicInteger();
        final List<Receipt> held = new CopyOnWriteArrayList<>();
        final CountDownLatch all = new CountDownLatch(200);
        final QueueConsumer consumer = work.consume(ConsumerOptions.prefetch(10), (delivery, c) ->
        {
            maxUnacked.accumulateAndGet(unacked.incrementAndGet(), Math::max);
            held.add(delivery.receipt());
            if (held.size() >= 5)
            {
                for (final Receipt receipt : held)
                {
                    unacked.decrementAndGet();
                    c.ack(receipt);
                }
                held.clear();
            }
            all.countDown();
        });
        QueueFixture.await(all);
        assertThat(maxUnacked.get()).isLessThanOrEqualTo(10);
        consumer.close();
    }

    @Test
    void competingConsumersShareTheMessagesAndEachIsDeliveredOnce()
    {
        final Set<String> seen = ConcurrentHashMap.newKeySet();
        final AtomicInteger duplicates = new AtomicInteger();
        final AtomicInteger[] perConsumer = {new AtomicInteger(), new AtomicInteger()};
        final CountDownLatch all = new CountDownLatch(300);
        final QueueConsumer[] consumers = new QueueConsumer[2];
        for (int i = 0; i < 2; i++)
        {
            final int id = i;
            consumers[i] = work.consume(ConsumerOptions.prefetch(5), (delivery, c) ->
            {
                if (!seen.add(delivery.valueAsString()))
                {
                    duplicates.incrementAndGet();
                }
                perConsumer[id].incrementAndGet();
                c.ack(delivery);
                all.countDown();
            });
        }
        // Published once both wait: a consumer attached to a backlog alone may drain it before the next one comes.
        fx.publishJobs("jobs", 300);
        QueueFixture.await(all);
        assertThat(duplicates.get()).isZero();
        assertThat(perConsumer[0].get() + perConsumer[1].get()).isEqualTo(300);
        assertThat(perConsumer[0].get()).isPositive();
        assertThat(perConsumer[1].get()).isPositive();
        consumers[0].close();
        consumers[1].close();
    }

    /** A backlog goes out in long turns (an even share of it each): still every message once, and all of them. */
    @Test
    void competingConsumersWithALargePrefetchDrainABacklogEachMessageOnce()
    {
        final int messages = 4_000;
        fx.publishJobs("jobs", messages);
        final Set<String> seen = ConcurrentHashMap.newKeySet();
        final AtomicInteger deliveries = new AtomicInteger();
        final CountDownLatch all = new CountDownLatch(messages);
        final QueueConsumer[] consumers = new QueueConsumer[4];
        for (int i = 0; i < consumers.length; i++)
        {
            consumers[i] = work.consume(ConsumerOptions.prefetch(1_000), (delivery, c) ->
            {
                deliveries.incrementAndGet();
                seen.add(delivery.partition() + "@" + delivery.offset());
                c.ack(delivery);
                all.countDown();
            });
        }
        QueueFixture.await(all);
        work.sync();

        assertThat(seen).hasSize(messages);
        assertThat(deliveries.get()).isEqualTo(messages);
        assertThat(work.metrics().ready()).isZero();
        assertThat(work.metrics().inFlight()).isZero();
        for (final QueueConsumer consumer : consumers)
        {
            consumer.close();
        }
    }

    @Test
    void aRefusedSettlementIsReportedToTheConsumerAndChangesNothing()
    {
        fx.publishJobs("jobs", 1);
        final CountDownLatch refused = new CountDownLatch(1);
        final List<SpoolException> errors = new CopyOnWriteArrayList<>();
        final QueueConsumer consumer = work.consume(ConsumerOptions.prefetch(1), new DeliveryListener()
        {
            @Override
            public void onDelivery(final Delivery delivery, final QueueConsumer c)
            {
                c.ack(delivery);
                c.ack(delivery);
            }

            @Override
            public void onSettlementRefused(final Receipt receipt, final SpoolException error)
            {
                errors.add(error);
                refused.countDown();
            }
        });
        QueueFixture.await(refused);
        assertThat(errors).hasSize(1);
        work.sync();
        assertThat(work.metrics().inFlight()).isZero();
        consumer.close();
    }

    @Test
    void aConsumerHoldingADeliveryPastTheLockTimeoutLosesItAndIsTold()
    {
        fx.spool.deleteSubscription("work");
        work = fx.spool.createSubscription("work", "jobs", SubscriptionSettings.builder().lockTimeoutMillis(10_000).build());
        fx.publishJobs("jobs", 1);
        final CountDownLatch delivered = new CountDownLatch(1);
        final CountDownLatch told = new CountDownLatch(1);
        final List<Receipt> expired = new CopyOnWriteArrayList<>();
        final QueueConsumer slow = work.consume(ConsumerOptions.prefetch(1), new DeliveryListener()
        {
            @Override
            public void onDelivery(final Delivery delivery, final QueueConsumer c)
            {
                delivered.countDown();
            }

            @Override
            public void onLockExpired(final Receipt receipt)
            {
                expired.add(receipt);
                told.countDown();
            }
        });
        QueueFixture.await(delivered);
        fx.advance(work, 10_000);
        QueueFixture.await(told);
        assertThat(expired).hasSize(1);
        slow.close();
        final List<Delivery> again = work.receive(1, 0);
        assertThat(again).hasSize(1);
        assertThat(again.get(0).redelivered()).isTrue();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> work.ack(expired.get(0)))
            .isInstanceOf(StaleReceiptException.class);
    }

    @Test
    void aLockThatExpiresTakesOnlyThatDeliveryFromTheConsumer()
    {
        fx.spool.deleteSubscription("work");
        work = fx.spool.createSubscription("work", "jobs", SubscriptionSettings.builder().lockTimeoutMillis(10_000).build());
        final List<Delivery> held = new CopyOnWriteArrayList<>();
        final List<Receipt> expired = new CopyOnWriteArrayList<>();
        final List<SpoolException> refused = new CopyOnWriteArrayList<>();
        final CountDownLatch first = new CountDownLatch(1);
        final CountDownLatch second = new CountDownLatch(2);
        final CountDownLatch told = new CountDownLatch(1);
        final QueueConsumer consumer = work.consume(ConsumerOptions.prefetch(2), new DeliveryListener()
        {
            @Override
            public void onDelivery(final Delivery delivery, final QueueConsumer c)
            {
                held.add(delivery);
                first.countDown();
                second.countDown();
            }

            @Override
            public void onLockExpired(final Receipt receipt)
            {
                expired.add(receipt);
                told.countDown();
            }

            @Override
            public void onSettlementRefused(final Receipt receipt, final SpoolException error)
            {
                refused.add(error);
            }
        });
        fx.publishJobs("jobs", 1);
        QueueFixture.await(first);
        final Receipt early = held.get(0).receipt();
        fx.advance(work, 6_000);
        fx.publishJobs("jobs", 1);
        QueueFixture.await(second);
        final Receipt late = held.get(1).receipt();
        fx.advance(work, 4_000);
        QueueFixture.await(told);

        assertThat(expired).containsExactly(early);
        consumer.ack(late);
        work.sync();
        work.sync();
        assertThat(refused).isEmpty();
        assertThat(work.metrics().inFlight()).isEqualTo(1);
        assertThat(work.metrics().redeliveries()).isEqualTo(1);
        consumer.close();
    }

    @Test
    void aBacklogSpreadsOverConsumersAttachedTogetherWhateverTheirPrefetch()
    {
        final AtomicInteger[] got = {new AtomicInteger(), new AtomicInteger()};
        final CountDownLatch all = new CountDownLatch(300);
        final QueueConsumer[] consumers = new QueueConsumer[2];
        for (int i = 0; i < 2; i++)
        {
            final int id = i;
            consumers[i] = work.consume(ConsumerOptions.prefetch(1000), (delivery, c) ->
            {
                got[id].incrementAndGet();
                all.countDown();
            });
        }
        final List<io.spool.api.stream.ProducerRecord> records = new java.util.ArrayList<>();
        for (int i = 0; i < 300; i++)
        {
            records.add(new io.spool.api.stream.ProducerRecord("jobs", 0, null, java.util.Map.of(), new byte[8]));
        }
        fx.spool.newProducer().sendBatch(records).join();
        QueueFixture.await(all);
        assertThat(got[0].get()).as("first consumer's share").isGreaterThanOrEqualTo(32);
        assertThat(got[1].get()).as("second consumer's share").isGreaterThanOrEqualTo(32);
        consumers[0].close();
        consumers[1].close();
    }

    @Test
    void deliveriesKeptByReceiptCanBeExtendedAndDelayedAfterTheCallback()
    {
        fx.spool.deleteSubscription("work");
        work = fx.spool.createSubscription("work", "jobs", SubscriptionSettings.builder().lockTimeoutMillis(1_000).build());
        fx.publishJobs("jobs", 1);
        final List<Receipt> kept = new CopyOnWriteArrayList<>();
        final CountDownLatch delivered = new CountDownLatch(1);
        final List<SpoolException> refused = new CopyOnWriteArrayList<>();
        final QueueConsumer consumer = work.consume(ConsumerOptions.prefetch(1), new DeliveryListener()
        {
            @Override
            public void onDelivery(final Delivery delivery, final QueueConsumer c)
            {
                kept.add(delivery.receipt());
                delivered.countDown();
            }

            @Override
            public void onSettlementRefused(final Receipt receipt, final SpoolException error)
            {
                refused.add(error);
            }
        });
        QueueFixture.await(delivered);
        consumer.extend(kept.get(0), 5_000);
        work.sync();
        fx.advance(work, 2_000);
        assertThat(refused).isEmpty();
        assertThat(work.metrics().inFlight()).as("extended past the lock timeout").isEqualTo(1);
        consumer.nack(kept.get(0), 10_000);
        work.sync();
        assertThat(work.metrics().delayed()).isEqualTo(1);
        consumer.close();
    }

    @Test
    void acksTheConsumerThreadMadeHaveTakenEffectWhenSyncReturns()
    {
        fx.publishJobs("jobs", 500);
        final CountDownLatch acked = new CountDownLatch(500);
        final QueueConsumer consumer = work.consume(ConsumerOptions.prefetch(50), (delivery, c) ->
        {
            c.ack(delivery);
            acked.countDown();
        });
        QueueFixture.await(acked);
        work.sync();
        final SubscriptionMetrics metrics = work.metrics();
        assertThat(metrics.inFlight()).isZero();
        assertThat(metrics.ready()).isZero();
        consumer.close();
    }

    @Test
    void aNackAfterAnAckOfTheSameDeliveryOnTheConsumerThreadIsRefusedAsTheAckCameFirst()
    {
        fx.publishJobs("jobs", 10);
        final CountDownLatch all = new CountDownLatch(10);
        final CountDownLatch refused = new CountDownLatch(1);
        final List<SpoolException> errors = new CopyOnWriteArrayList<>();
        final AtomicInteger deliveries = new AtomicInteger();
        final QueueConsumer consumer = work.consume(ConsumerOptions.prefetch(10), new DeliveryListener()
        {
            @Override
            public void onDelivery(final Delivery delivery, final QueueConsumer c)
            {
                deliveries.incrementAndGet();
                c.ack(delivery);
                if (delivery.valueAsString().equals("job-4"))
                {
                    c.nack(delivery);
                }
                all.countDown();
            }

            @Override
            public void onSettlementRefused(final Receipt receipt, final SpoolException error)
            {
                errors.add(error);
                refused.countDown();
            }
        });
        QueueFixture.await(all);
        QueueFixture.await(refused);
        work.sync();
        assertThat(errors).singleElement().isInstanceOf(AlreadySettledException.class);
        assertThat(deliveries.get()).as("job-4 was not redelivered").isEqualTo(10);
        assertThat(work.metrics().inFlight()).isZero();
        consumer.close();
    }

    /**
     * A listener that acks and then syncs the subscription finds its ack applied, also within a run of acks, where an
     * ack is only a count the consumer raises.
     */
    @Test
    void aListenerThatAcksAndSyncsFindsItsAckApplied()
    {
        fx.topic("single", 1);
        final Subscription ordered = fx.spool.createSubscription("ordered", "single", SubscriptionSettings.DEFAULT);
        final int messages = 32;
        for (int i = 0; i < messages; i++)
        {
            fx.publish("single", "job-" + i);
        }
        final List<Long> unackedAfterSync = new CopyOnWriteArrayList<>();
        final List<Long> expected = new ArrayList<>();
        final CountDownLatch all = new CountDownLatch(messages);
        final QueueConsumer consumer = ordered.consume(ConsumerOptions.prefetch(1), (delivery, c) ->
        {
            c.ack(delivery);
            ordered.sync();
            final SubscriptionMetrics metrics = ordered.metrics();
            unackedAfterSync.add(metrics.ready() + metrics.inFlight());
            all.countDown();
        });
        QueueFixture.await(all);
        consumer.close();

        for (long acked = 1; acked <= messages; acked++)
        {
            expected.add(messages - acked);
        }
        assertThat(unackedAfterSync).isEqualTo(expected);
    }

    /** The acks metric counts each ack that took effect, and not a refused ack, a nack or a reject. */
    @Test
    void pulledAcksCountOnceEachAndRefusedOnesNotAtAll()
    {
        fx.publishJobs("jobs", 6);
        final List<Delivery> deliveries = work.receive(6, 0);
        assertThat(deliveries).hasSize(6);

        work.ack(deliveries.get(0).receipt());
        assertThatThrownBy(() -> work.ack(deliveries.get(0).receipt())).isInstanceOf(AlreadySettledException.class);
        work.ack(List.of(deliveries.get(1).receipt(), deliveries.get(2).receipt()));
        work.nack(deliveries.get(3).receipt());
        work.reject(deliveries.get(4).receipt());

        assertThat(work.metrics().acks()).isEqualTo(3);
        assertThat(work.metrics().inFlight()).isEqualTo(1);
    }

    @Test
    void pushedAcksCountInTheRunsTheyAreSettledIn()
    {
        fx.publishJobs("jobs", 40);
        final CountDownLatch all = new CountDownLatch(40);
        final QueueConsumer consumer = work.consume(ConsumerOptions.prefetch(100), (delivery, c) ->
        {
            c.ack(delivery);
            all.countDown();
        });
        QueueFixture.await(all);
        work.sync();
        work.sync();

        assertThat(work.metrics().acks()).isEqualTo(40);
        assertThat(work.metrics().inFlight()).isZero();
        consumer.close();
    }

    @Test
    void theEngineMetricsCarryEachSubscriptionsAcksAsACounter()
    {
        fx.publishJobs("jobs", 2);
        for (final Delivery delivery : work.receive(2, 0))
        {
            work.ack(delivery.receipt());
        }

        final List<MetricSample> samples = fx.spool.metrics();
        final MetricSample acks = samples.stream()
            .filter(sample -> sample.name().equals("spool_subscription_acks_total")).findFirst().orElseThrow();
        assertThat(acks.kind()).isEqualTo(MetricSample.Kind.COUNTER);
        assertThat(acks.labels()).isEqualTo(Map.of("subscription", "work", "topic", "jobs"));
        assertThat(acks.value()).isEqualTo(2.0);
    }
}
