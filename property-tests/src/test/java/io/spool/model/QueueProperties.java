package io.spool.model;

import io.spool.Spool;
import io.spool.log.DedupKey;
import io.spool.model.QueueModel.Outcome;
import io.spool.model.QueueModel.State;
import io.spool.queue.AlreadySettledException;
import io.spool.queue.BatchResult;
import io.spool.queue.ConsumerOptions;
import io.spool.queue.DeathHistory;
import io.spool.queue.Delivery;
import io.spool.queue.DeliveryListener;
import io.spool.queue.QueueConsumer;
import io.spool.queue.QueueException;
import io.spool.queue.QueueHeaders;
import io.spool.queue.Receipt;
import io.spool.queue.StaleReceiptException;
import io.spool.queue.Subscription;
import io.spool.queue.SubscriptionMetrics;
import io.spool.queue.SubscriptionSettings;
import io.spool.queue.UnknownDeliveryException;
import io.spool.stream.ConsumerConfig;
import io.spool.stream.ConsumerRecord;
import io.spool.stream.ProducerRecord;
import io.spool.stream.PublishResult;
import io.spool.stream.StreamConsumer;
import io.spool.stream.TopicPartition;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.state.Transformer;
import net.jqwik.api.statistics.Statistics;
import org.agrona.concurrent.CachedEpochClock;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Random sequences of publishes, pull receives, acks, nacks (with and without delay), rejects, lock extensions,
 * clock jumps, a push consumer opening, acking and closing, and whole-engine restarts and crashes, run against a
 * {@link Spool} subscription and against {@link QueueModel}; after every step what each receive and push returned,
 * the answer to each settlement, the metrics and the dead letters of both must agree.
 * <p>
 * A second subscription on the same topic receives and acks on its own; it must see every message whatever the
 * first one does, and retention must keep what either of them has not settled.
 * <p>
 * The dead and redelivery counts of {@code metrics()} start again each time the engine opens, as the subscription's
 * per-partition state documents, and the model counts them the same way.
 * <p>
 * The engine picks which partition a multi-partition receive starts with, so the property does not predict that
 * choice: it checks that the engine took, in every partition, the lowest available offsets in order, and as many
 * as were available up to the asked number, then applies the engine's choice to the model.
 * A push consumer is served before any receive in the agent's pass, so after each step it holds as many messages
 * as its prefetch allows or nothing is left for it.
 */
class QueueProperties
{
    private static final String TOPIC = "jobs";
    private static final String DEAD_LETTER_TOPIC = "jobs.dead";
    private static final String SUBSCRIPTION = "work";
    /** A second subscription on the same topic: it must see every message, whatever the first one does. */
    private static final String AUDIT_SUBSCRIPTION = "audit";
    private static final long AUDIT_LOCK_TIMEOUT_MILLIS = 3_000;
    private static final int PARTITIONS = 2;
    private static final String PULL = "pull";
    private static final String PUSH = "push";
    /**
     * A header that makes every message a few hundred bytes, so that a segment holds only three or four of them and
     * work-queue retention has whole settled segments to delete in many sequences.
     */
    private static final Map<String, byte[]> PADDING = Map.of("padding", new byte[200]);
    private static final List<String> ACTIONS = List.of("publish by key", "publish to partition",
        "publish with a new dedup id", "publish a duplicate", "publish with a time to live", "receive", "ack",
        "nack", "nack with delay", "reject", "extend", "forged receipt", "ack in a batch", "advance clock",
        "open push consumer", "ack through push consumer", "close push consumer", "run maintenance", "audit receive",
        "audit ack", "restart", "crash");

    /** The settings of the sequence being run; a field so that shrinking a sequence keeps them. */
    private Settings settings;

    /** The engine and model of the sequence being run. */
    private QueueSystem running;

    @Property
    void theQueueAgreesWithItsModel(@ForAll("settings") final Settings settings,
        @ForAll("chains") final ActionChain<QueueSystem> chain)
    {
        this.settings = settings;
        running = null;
        try
        {
            chain.withInvariant("metrics and dead letters agree", QueueSystem::checkObservableState).run();
        }
        finally
        {
            if (running != null)
            {
                running.destroy();
            }
        }
        CoverageChecks.require(running != null && running.restarts > 0, ACTIONS);
        // Collected once per sequence, like restarts, so that the label has entries even if the first one fails.
        Statistics.label("retention deleted segments in sequence").collect(running != null &&
            running.segmentsDeleted > 0);
        Statistics.label("retention deleted segments in sequence").coverage(c -> c.check(true).count(n -> n > 0));
    }

    @Provide
    Arbitrary<Settings> settings()
    {
        return Combinators.combine(Arbitraries.of(1_000L, 5_000L), Arbitraries.of(1, 2, 3, QueueModel.UNLIMITED))
            .as(Settings::new);
    }

    /** Opens the engine of a sequence and keeps it, so that it is closed even if the sequence fails at once. */
    private QueueSystem start()
    {
        running = new QueueSystem(settings);
        return running;
    }

    @Provide
    Arbitrary<ActionChain<QueueSystem>> chains()
    {
        return ActionChain.startWith(this::start)
            .withAction(3, new PublishByKey())
            .withAction(1, new PublishToPartition())
            .withAction(2, new PublishWithDedupId())
            .withAction(2, new PublishWithTimeToLive())
            .withAction(5, new Receive())
            .withAction(4, new Settle("ack"))
            .withAction(2, new Settle("nack"))
            .withAction(2, new Settle("nack with delay"))
            .withAction(1, new Settle("reject"))
            .withAction(1, new Settle("extend"))
            .withAction(1, new ForgedReceipt())
            .withAction(1, new AckInBatch())
            .withAction(3, new AdvanceClock())
            .withAction(2, new OpenOrClosePushConsumer())
            .withAction(2, new AckThroughPushConsumer())
            .withAction(2, new AuditReceive())
            .withAction(2, Action.just("audit ack", Transformer.mutate("audit acks everything it holds",
                QueueSystem::auditAck)))
            .withAction(1, Action.just("run maintenance", Transformer.mutate("run maintenance",
                QueueSystem::runMaintenance)))
            .withAction(1, Action.just("restart", Transformer.mutate("restart", QueueSystem::restart)))
            .withAction(1, Action.just("crash", Transformer.mutate("crash", QueueSystem::crash)))
            .withMaxTransformations(60);
    }

    record Settings(long lockTimeoutMillis, int deliveryLimit)
    {
    }

    static final class PublishByKey implements Action.Independent<QueueSystem>
    {
        @Override
        public Arbitrary<Transformer<QueueSystem>> transformer()
        {
            return Arbitraries.integers().between(0, 9).list().ofMinSize(1).ofMaxSize(4)
                .map(keys -> Transformer.mutate("publish with keys " + keys, s -> s.publishByKey(keys)));
        }
    }

    static final class PublishToPartition implements Action.Independent<QueueSystem>
    {
        @Override
        public Arbitrary<Transformer<QueueSystem>> transformer()
        {
            return Arbitraries.integers().between(0, PARTITIONS - 1)
                .map(p -> Transformer.mutate("publish to partition " + p, s -> s.publishToPartition(p)));
        }
    }

    /** Publishes without a key under one of a few dedup ids: a repeat inside the window is not stored again. */
    static final class PublishWithDedupId implements Action.Independent<QueueSystem>
    {
        @Override
        public Arbitrary<Transformer<QueueSystem>> transformer()
        {
            return Arbitraries.integers().between(0, 4).map(id -> Transformer.mutate(
                "publish with dedup id d" + id, s -> s.publishWithDedupId("d" + id)));
        }
    }

    /** Publishes to a partition a message that lives a few seconds. */
    static final class PublishWithTimeToLive implements Action.Independent<QueueSystem>
    {
        @Override
        public Arbitrary<Transformer<QueueSystem>> transformer()
        {
            return Combinators.combine(Arbitraries.integers().between(0, PARTITIONS - 1),
                    Arbitraries.longs().between(1, 8_000))
                .as((p, ttl) -> Transformer.mutate("publish to partition " + p + " living " + ttl + " ms",
                    s -> s.publishWithTimeToLive(p, ttl)));
        }
    }

    static final class Receive implements Action.Independent<QueueSystem>
    {
        @Override
        public Arbitrary<Transformer<QueueSystem>> transformer()
        {
            return Arbitraries.integers().between(1, 4)
                .map(max -> Transformer.mutate("receive " + max, s -> s.receive(max)));
        }
    }

    /**
     * Settles one of the receipts handed out so far (current, stale or already settled ones alike), named by how
     * many were handed out after it, so that the action does not depend on the state it runs in and jqwik can
     * shrink a sequence by dropping earlier steps.
     */
    static final class Settle implements Action.Independent<QueueSystem>
    {
        private final String kind;

        Settle(final String kind)
        {
            this.kind = kind;
        }

        @Override
        public Arbitrary<Transformer<QueueSystem>> transformer()
        {
            final Arbitrary<Integer> receipts = Arbitraries.integers().between(0, 30);
            final Arbitrary<Long> millis = Arbitraries.longs().between(1, 10_000);
            return Combinators.combine(receipts, millis).as((receipt, ms) -> Transformer.<QueueSystem>mutate(
                kind + " receipt " + receipt + " back" + (kind.equals("nack with delay") || kind.equals("extend") ?
                    " " + ms + " ms" : ""), sys -> sys.settle(kind, receipt, ms)));
        }
    }

    /** A receipt for a delivery that never happened: the next delivery number of a message handed out before. */
    static final class ForgedReceipt implements Action.Independent<QueueSystem>
    {
        @Override
        public Arbitrary<Transformer<QueueSystem>> transformer()
        {
            return Arbitraries.integers().between(0, 30).map(receipt -> Transformer.mutate(
                "ack receipt " + receipt + " back with the next delivery number", sys -> sys.ackForged(receipt)));
        }
    }

    /** Acks, in one batch, everything pulled and still held, plus a few older receipts that must be refused. */
    static final class AckInBatch implements Action.Independent<QueueSystem>
    {
        @Override
        public Arbitrary<Transformer<QueueSystem>> transformer()
        {
            return Arbitraries.integers().between(0, 3).map(older -> Transformer.mutate(
                "ack in a batch what the pull consumer holds and the " + older + " newest receipts",
                s -> s.ackInBatch(older)));
        }
    }

    static final class AuditReceive implements Action.Independent<QueueSystem>
    {
        @Override
        public Arbitrary<Transformer<QueueSystem>> transformer()
        {
            return Arbitraries.integers().between(1, 6)
                .map(max -> Transformer.mutate("audit receives " + max, s -> s.auditReceive(max)));
        }
    }

    static final class AdvanceClock implements Action.Independent<QueueSystem>
    {
        @Override
        public Arbitrary<Transformer<QueueSystem>> transformer()
        {
            return Arbitraries.longs().between(1, 10_000)
                .map(ms -> Transformer.mutate("advance clock " + ms + " ms", s -> s.advanceClock(ms)));
        }
    }

    /** Opens a push consumer with a prefetch of 1 to 3, or closes the one that is open. */
    static final class OpenOrClosePushConsumer implements Action.Independent<QueueSystem>
    {
        @Override
        public Arbitrary<Transformer<QueueSystem>> transformer()
        {
            return Arbitraries.integers().between(1, 3).map(prefetch -> Transformer.mutate(
                "open a push consumer with prefetch " + prefetch + ", or close the open one",
                s -> s.openOrClosePushConsumer(prefetch)));
        }
    }

    static final class AckThroughPushConsumer implements Action.Independent<QueueSystem>
    {
        @Override
        public Arbitrary<Transformer<QueueSystem>> transformer()
        {
            return Arbitraries.integers().between(0, 3).map(held -> Transformer.mutate(
                "ack push delivery " + held + " back through the push consumer",
                s -> s.ackThroughPush(held)));
        }
    }

    /** A delivery as the test saw it, copied out of the engine's (possibly pooled) delivery. */
    record Seen(int partition, long offset, int deliveryNumber, String value, boolean redelivered)
    {
        static Seen of(final Delivery delivery)
        {
            return new Seen(delivery.partition(), delivery.offset(), delivery.deliveryNumber(),
                delivery.valueAsString(), delivery.redelivered());
        }
    }

    /**
     * The engine (a {@link Spool} with one subscription on a two-partition topic, dead letters going to a topic of
     * their own) and the model side by side.
     */
    static final class QueueSystem
    {
        final Settings settings;
        final CachedEpochClock clock = new CachedEpochClock();
        final QueueModel model;
        final QueueModel auditModel = new QueueModel(PARTITIONS, AUDIT_LOCK_TIMEOUT_MILLIS, QueueModel.UNLIMITED);
        Path dir;
        /** Every receipt handed out so far, the stale and settled ones too: settling them must be refused. */
        final List<QueueModel.Receipt> receipts = new ArrayList<>();
        final List<QueueModel.Receipt> auditReceipts = new ArrayList<>();
        final BlockingQueue<Seen> pushed = new LinkedBlockingQueue<>();
        final ConcurrentLinkedQueue<String> refusedPushSettlements = new ConcurrentLinkedQueue<>();
        /** The receipts handed to the push consumer. */
        final List<QueueModel.Receipt> pushReceipts = new ArrayList<>();
        final List<QueueModel.DeadLetter> deadLettersRead = new ArrayList<>();
        /** Where the first publish of each dedup id landed: its repeats must confirm the same place. */
        final Map<String, PublishResult> firstByDedupId = new HashMap<>();
        Spool spool;
        Subscription subscription;
        Subscription audit;
        QueueConsumer consumer;
        StreamConsumer deadLetterReader;
        int prefetch;
        int restarts;
        int segmentsDeleted;
        private int counter;

        QueueSystem(final Settings settings)
        {
            this.settings = settings;
            this.model = new QueueModel(PARTITIONS, settings.lockTimeoutMillis(), settings.deliveryLimit());
            this.dir = Engines.temporaryDirectory("spool-queue-property");
            clock.update(1_000_000);
            open();
            spool.createTopic(TOPIC, Engines.topicOfTinySegments(PARTITIONS));
            spool.createTopic(DEAD_LETTER_TOPIC, Engines.topicOfTinySegments(1));
            subscription = spool.createSubscription(SUBSCRIPTION, TOPIC, SubscriptionSettings.builder()
                .lockTimeoutMillis(settings.lockTimeoutMillis())
                .deliveryLimit(settings.deliveryLimit() == QueueModel.UNLIMITED ?
                    SubscriptionSettings.UNLIMITED_DELIVERIES : settings.deliveryLimit())
                .deadLetterTopic(DEAD_LETTER_TOPIC)
                .build());
            audit = spool.createSubscription(AUDIT_SUBSCRIPTION, TOPIC, SubscriptionSettings.builder()
                .lockTimeoutMillis(AUDIT_LOCK_TIMEOUT_MILLIS)
                .deliveryLimit(SubscriptionSettings.UNLIMITED_DELIVERIES)
                .build());
            openDeadLetterReader();
        }

        private void open()
        {
            spool = Spool.builder(dir).clock(clock).backgroundMaintenance(false).open();
        }

        private void openDeadLetterReader()
        {
            deadLetterReader = spool.newConsumer(ConsumerConfig.standalone());
            final TopicPartition deadLetters = new TopicPartition(DEAD_LETTER_TOPIC, 0);
            deadLetterReader.assign(List.of(deadLetters));
            deadLetterReader.seek(deadLetters, deadLettersRead.size());
        }

        private String nextValue()
        {
            return "m" + counter++;
        }

        void publishByKey(final List<Integer> keys)
        {
            CoverageChecks.ran("publish by key");
            for (final int key : keys)
            {
                final String value = nextValue();
                final PublishResult placed = spool.newProducer().send(new ProducerRecord(TOPIC,
                    ProducerRecord.ANY_PARTITION, ("k" + key).getBytes(StandardCharsets.UTF_8), PADDING,
                    value.getBytes(StandardCharsets.UTF_8))).join();
                assertThat(placed.offset()).as("offset of " + value)
                    .isEqualTo(model.publish(placed.partition(), value, clock.time()));
                auditModel.publish(placed.partition(), value, clock.time());
            }
            settle();
        }

        void publishToPartition(final int partition)
        {
            CoverageChecks.ran("publish to partition");
            final String value = nextValue();
            final PublishResult placed = spool.newProducer().send(new ProducerRecord(TOPIC, partition, null, PADDING,
                value.getBytes(StandardCharsets.UTF_8))).join();
            assertThat(placed.partition()).isEqualTo(partition);
            assertThat(placed.offset()).as("offset of " + value)
                .isEqualTo(model.publish(partition, value, clock.time()));
            auditModel.publish(partition, value, clock.time());
            settle();
        }

        void publishWithTimeToLive(final int partition, final long ttlMillis)
        {
            CoverageChecks.ran("publish with a time to live");
            final String value = nextValue();
            final Map<String, byte[]> headers = new HashMap<>(PADDING);
            headers.put(QueueHeaders.TTL, QueueHeaders.millis(ttlMillis));
            final PublishResult placed = spool.newProducer().send(new ProducerRecord(TOPIC, partition, null, headers,
                value.getBytes(StandardCharsets.UTF_8))).join();
            assertThat(placed.offset()).as("offset of " + value)
                .isEqualTo(model.publish(partition, value, clock.time(), ttlMillis));
            auditModel.publish(partition, value, clock.time(), ttlMillis);
            settle();
        }

        void publishWithDedupId(final String dedupId)
        {
            final String value = nextValue();
            final Map<String, byte[]> headers = new HashMap<>(PADDING);
            headers.put(DedupKey.HEADER, dedupId.getBytes(StandardCharsets.UTF_8));
            final PublishResult placed = spool.newProducer().send(new ProducerRecord(TOPIC,
                ProducerRecord.ANY_PARTITION, null, headers, value.getBytes(StandardCharsets.UTF_8))).join();
            final PublishResult first = firstByDedupId.putIfAbsent(dedupId, placed);
            if (first != null)
            {
                CoverageChecks.ran("publish a duplicate");
                assertThat(placed).as("repeat of dedup id %s", dedupId).isEqualTo(first);
            }
            else
            {
                CoverageChecks.ran("publish with a new dedup id");
                assertThat(placed.offset()).as("offset of " + value)
                    .isEqualTo(model.publish(placed.partition(), value, clock.time()));
                auditModel.publish(placed.partition(), value, clock.time());
            }
            settle();
        }

        void receive(final int max)
        {
            CoverageChecks.ran("receive");
            final long available = model.count(State.AVAILABLE);
            final List<Seen> received = subscription.receive(max, 0).stream().map(Seen::of).toList();
            assertThat(received).as("receive %d with %d available", max, available)
                .hasSize((int)Math.min(max, available));
            takeFromModel(model, receipts, received, PULL);
            settle();
        }

        void auditReceive(final int max)
        {
            CoverageChecks.ran("audit receive");
            final long available = auditModel.count(State.AVAILABLE);
            final List<Seen> received = audit.receive(max, 0).stream().map(Seen::of).toList();
            assertThat(received).as("audit receive %d with %d available", max, available)
                .hasSize((int)Math.min(max, available));
            takeFromModel(auditModel, auditReceipts, received, PULL);
            settle();
        }

        /** The audit subscription acks, in one batch, every delivery it holds. */
        void auditAck()
        {
            final List<QueueModel.Receipt> held = auditReceipts.stream()
                .filter(r -> auditModel.check(r) == Outcome.DONE).toList();
            if (held.isEmpty())
            {
                return;
            }
            CoverageChecks.ran("audit ack");
            final BatchResult result = audit.ack(held.stream()
                .map(r -> new Receipt(r.partition(), r.offset(), r.deliveryNumber())).toList());
            assertThat(result.failed()).as("audit acks of held deliveries refused").isEmpty();
            held.forEach(auditModel::ack);
            settle();
        }

        /**
         * Checks that the engine handed out, in each partition, the lowest available offsets in order, with the
         * delivery numbers and redelivered flags the model gives them; the model then holds them too.
         */
        private void takeFromModel(final QueueModel model, final List<QueueModel.Receipt> receipts,
            final List<Seen> deliveries, final String holder)
        {
            final Map<Integer, List<Seen>> byPartition = new LinkedHashMap<>();
            for (final Seen seen : deliveries)
            {
                byPartition.computeIfAbsent(seen.partition(), p -> new ArrayList<>()).add(seen);
            }
            byPartition.forEach((partition, seen) ->
            {
                final List<Long> lowestAvailable = model.availableInOrder(partition).stream()
                    .map(QueueModel.Message::offset).limit(seen.size()).toList();
                assertThat(seen.stream().map(Seen::offset).toList())
                    .as("offsets handed out from partition %d", partition).isEqualTo(lowestAvailable);
                for (final Seen actual : seen)
                {
                    final QueueModel.Delivery expected = model.acquire(partition, actual.offset(), holder,
                        clock.time());
                    assertThat(actual).as("delivery").isEqualTo(new Seen(expected.partition(), expected.offset(),
                        expected.deliveryNumber(), expected.value(), expected.redelivered()));
                    receipts.add(expected.receipt());
                }
            });
        }

        /** Settles the receipt handed out {@code back} receipts ago; nothing happens while there is none. */
        void settle(final String kind, final int back, final long millis)
        {
            if (receipts.isEmpty())
            {
                return;
            }
            CoverageChecks.ran(kind);
            final QueueModel.Receipt receipt = fromNewest(receipts, back);
            final long now = clock.time();
            final Receipt engineReceipt = new Receipt(receipt.partition(), receipt.offset(), receipt.deliveryNumber());
            final Outcome expected;
            final Throwable thrown;
            switch (kind)
            {
                case "ack" ->
                {
                    thrown = catchThrowable(() -> subscription.ack(engineReceipt));
                    expected = model.ack(receipt);
                }
                case "nack" ->
                {
                    thrown = catchThrowable(() -> subscription.nack(engineReceipt));
                    expected = model.nack(receipt, now);
                }
                case "nack with delay" ->
                {
                    thrown = catchThrowable(() -> subscription.nack(engineReceipt, millis));
                    expected = model.nackWithDelay(receipt, millis, now);
                }
                case "reject" ->
                {
                    thrown = catchThrowable(() -> subscription.reject(engineReceipt));
                    expected = model.reject(receipt);
                }
                case "extend" ->
                {
                    thrown = catchThrowable(() -> subscription.extend(engineReceipt, millis));
                    expected = model.extend(receipt, millis, now);
                }
                default -> throw new IllegalArgumentException(kind);
            }
            assertThat(outcomeOf(thrown)).as("%s %s (%s)", kind, receipt, thrown).isEqualTo(expected);
            settle();
        }

        /** Acks the receipt handed out {@code back} receipts ago with the delivery number after its own. */
        void ackForged(final int back)
        {
            if (receipts.isEmpty())
            {
                return;
            }
            CoverageChecks.ran("forged receipt");
            final QueueModel.Receipt handedOut = fromNewest(receipts, back);
            final QueueModel.Receipt forged = new QueueModel.Receipt(handedOut.partition(), handedOut.offset(),
                handedOut.deliveryNumber() + 1);
            final Throwable thrown = catchThrowable(() -> subscription.ack(new Receipt(forged.partition(),
                forged.offset(), forged.deliveryNumber())));
            assertThat(outcomeOf(thrown)).as("ack %s (%s)", forged, thrown).isEqualTo(model.ack(forged));
            settle();
        }

        void ackInBatch(final int newest)
        {
            final Set<QueueModel.Receipt> batch = new LinkedHashSet<>();
            receipts.stream().filter(r -> model.check(r) == Outcome.DONE && !pushReceipts.contains(r))
                .forEach(batch::add);
            batch.addAll(receipts.subList(Math.max(0, receipts.size() - newest), receipts.size()));
            if (batch.isEmpty())
            {
                return;
            }
            CoverageChecks.ran("ack in a batch");
            final BatchResult result = subscription.ack(batch.stream()
                .map(r -> new Receipt(r.partition(), r.offset(), r.deliveryNumber())).toList());
            for (final QueueModel.Receipt receipt : batch)
            {
                final QueueException error = result.failed().get(new Receipt(receipt.partition(), receipt.offset(),
                    receipt.deliveryNumber()));
                assertThat(outcomeOf(error)).as("ack %s in a batch (%s)", receipt, error)
                    .isEqualTo(model.ack(receipt));
            }
            settle();
        }

        private static Outcome outcomeOf(final Throwable thrown)
        {
            if (thrown == null)
            {
                return Outcome.DONE;
            }
            if (thrown instanceof StaleReceiptException)
            {
                return Outcome.STALE;
            }
            if (thrown instanceof AlreadySettledException)
            {
                return Outcome.ALREADY_SETTLED;
            }
            if (thrown instanceof UnknownDeliveryException)
            {
                return Outcome.UNKNOWN_DELIVERY;
            }
            throw new AssertionError("unexpected failure", thrown);
        }

        void advanceClock(final long millis)
        {
            CoverageChecks.ran("advance clock");
            clock.advance(millis);
            model.timeIs(clock.time());
            auditModel.timeIs(clock.time());
            settle();
        }

        void openOrClosePushConsumer(final int prefetchOfNew)
        {
            if (consumer != null)
            {
                closePushConsumer();
                return;
            }
            CoverageChecks.ran("open push consumer");
            prefetch = prefetchOfNew;
            consumer = subscription.consume(ConsumerOptions.prefetch(prefetch), new DeliveryListener()
            {
                @Override
                public void onDelivery(final Delivery delivery, final QueueConsumer from)
                {
                    pushed.add(Seen.of(delivery));
                }

                @Override
                public void onSettlementRefused(final Receipt receipt, final QueueException error)
                {
                    refusedPushSettlements.add(receipt + ": " + error.getMessage());
                }
            });
            settle();
        }

        /** Acks through the consumer the delivery it was pushed {@code back} deliveries ago among those it holds. */
        void ackThroughPush(final int back)
        {
            final List<QueueModel.Receipt> held = currentPushReceipts();
            if (held.isEmpty())
            {
                return;
            }
            CoverageChecks.ran("ack through push consumer");
            final QueueModel.Receipt receipt = fromNewest(held, back);
            consumer.ack(new Receipt(receipt.partition(), receipt.offset(), receipt.deliveryNumber()));
            assertThat(model.ack(receipt)).isEqualTo(Outcome.DONE);
            settle();
        }

        private void closePushConsumer()
        {
            CoverageChecks.ran("close push consumer");
            consumer.close();
            consumer = null;
            model.release(PUSH, clock.time());
            settle();
        }

        /**
         * Runs retention, which for a work-queue subscription deletes the segments it has settled: never one that
         * holds a message the subscription still has to deliver or settle.
         */
        void runMaintenance()
        {
            CoverageChecks.ran("run maintenance");
            segmentsDeleted += spool.runMaintenance();
            for (int partition = 0; partition < PARTITIONS; partition++)
            {
                assertThat(spool.streams().topics().topic(TOPIC).partition(partition).startOffset())
                    .as("start of partition %d after retention", partition)
                    .isLessThanOrEqualTo(Math.min(model.lowestUnsettled(partition),
                        auditModel.lowestUnsettled(partition)));
            }
            settle();
        }

        /** Closes the engine (which closes the push consumer first) and opens it again. */
        void restart()
        {
            CoverageChecks.ran("restart");
            restarts++;
            deadLetterReader.close();
            spool.close();
            model.restart(consumer == null ? List.of() : List.of(PUSH), clock.time());
            auditModel.restart(List.of(), clock.time());
            reopen();
        }

        /**
         * Opens what a process killed now would leave: nothing is closed first, so deliveries the push consumer
         * held come back only when the engine opens again.
         */
        void crash()
        {
            CoverageChecks.ran("crash");
            restarts++;
            final Path image = Engines.crashImage(dir);
            deadLetterReader.close();
            spool.close();
            Engines.deleteDirectory(dir);
            dir = image;
            model.restart(List.of(), clock.time());
            auditModel.restart(List.of(), clock.time());
            reopen();
        }

        private void reopen()
        {
            consumer = null;
            open();
            subscription = spool.subscription(SUBSCRIPTION);
            audit = spool.subscription(AUDIT_SUBSCRIPTION);
            openDeadLetterReader();
            settle();
        }

        /** The receipt {@code back} places before the newest, counting round when there are fewer. */
        private static QueueModel.Receipt fromNewest(final List<QueueModel.Receipt> receipts, final int back)
        {
            return receipts.get(receipts.size() - 1 - back % receipts.size());
        }

        /** The receipts of the push consumer that would settle their message now. */
        private List<QueueModel.Receipt> currentPushReceipts()
        {
            return pushReceipts.stream().filter(r -> model.check(r) == Outcome.DONE).toList();
        }

        /**
         * Lets the subscriptions' agents finish a pass, then takes what the first one pushed to its push consumer: as
         * many messages as the prefetch leaves room for, or all that are available if fewer.
         */
        private void settle()
        {
            subscription.sync();
            audit.sync();
            if (consumer == null)
            {
                return;
            }
            final int expected = (int)Math.min(prefetch - model.heldBy(PUSH), model.count(State.AVAILABLE));
            final List<Seen> deliveries = new ArrayList<>();
            for (int i = 0; i < expected; i++)
            {
                final Seen seen = poll(pushed);
                assertThat(seen).as("push delivery %d of %d", i + 1, expected).isNotNull();
                deliveries.add(seen);
            }
            assertThat(pushed).as("pushed beyond the prefetch").isEmpty();
            final int before = receipts.size();
            takeFromModel(model, receipts, deliveries, PUSH);
            pushReceipts.addAll(receipts.subList(before, receipts.size()));
        }

        private static Seen poll(final BlockingQueue<Seen> queue)
        {
            try
            {
                return queue.poll(10, TimeUnit.SECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(ex);
            }
        }

        void checkObservableState()
        {
            final SubscriptionMetrics metrics = subscription.metrics();
            assertThat(new long[] {metrics.ready(), metrics.inFlight(), metrics.delayed(), metrics.dead(),
                metrics.redeliveries(), metrics.consumers(), metrics.oldestReadyAgeMillis()})
                .as("ready, in flight, delayed, dead, redeliveries, consumers, oldest ready age: engine %s, model %s",
                    metrics, model)
                .containsExactly(model.count(State.AVAILABLE), model.count(State.ACQUIRED),
                    model.count(State.DELAYED), model.deadSinceOpen(), model.redeliveriesSinceOpen(),
                    consumer == null ? 0 : 1, model.oldestAvailableAge(clock.time()));
            final SubscriptionMetrics auditMetrics = audit.metrics();
            assertThat(new long[] {auditMetrics.ready(), auditMetrics.inFlight(), auditMetrics.delayed(),
                auditMetrics.dead(), auditMetrics.redeliveries(), auditMetrics.consumers(),
                auditMetrics.oldestReadyAgeMillis()})
                .as("audit ready, in flight, delayed, dead, redeliveries, consumers, oldest ready age: engine %s, " +
                    "model %s", auditMetrics, auditModel)
                .containsExactly(auditModel.count(State.AVAILABLE), auditModel.count(State.ACQUIRED), 0L,
                    auditModel.deadSinceOpen(), auditModel.redeliveriesSinceOpen(), 0L,
                    auditModel.oldestAvailableAge(clock.time()));
            assertThat(refusedPushSettlements).as("settlements the push consumer had refused").isEmpty();
            checkDeadLetters();
        }

        /** Dead letters are published as messages die; the same set must reach the dead-letter topic. */
        private void checkDeadLetters()
        {
            final List<QueueModel.DeadLetter> expected = model.deadLetters();
            while (deadLettersRead.size() < expected.size())
            {
                final List<ConsumerRecord> records = deadLetterReader.poll(100, 1 << 20, Duration.ofSeconds(10));
                assertThat(records).as("dead letters %d of %d arrive", deadLettersRead.size() + 1, expected.size())
                    .isNotEmpty();
                for (final ConsumerRecord record : records)
                {
                    deadLettersRead.add(new QueueModel.DeadLetter(
                        Integer.parseInt(header(record, DeathHistory.PARTITION)),
                        Long.parseLong(header(record, DeathHistory.OFFSET)),
                        header(record, DeathHistory.REASON),
                        Integer.parseInt(header(record, DeathHistory.DELIVERIES))));
                }
            }
            final Comparator<QueueModel.DeadLetter> byMessage = Comparator
                .comparingInt(QueueModel.DeadLetter::partition).thenComparingLong(QueueModel.DeadLetter::offset);
            assertThat(deadLettersRead.stream().sorted(byMessage).toList()).as("dead letters")
                .isEqualTo(expected.stream().sorted(byMessage).toList());
        }

        private static String header(final ConsumerRecord record, final String name)
        {
            return new String(record.headers().get(name), StandardCharsets.UTF_8);
        }

        void destroy()
        {
            deadLetterReader.close();
            spool.close();
            Engines.deleteDirectory(dir);
        }

        @Override
        public String toString()
        {
            return "QueueSystem{" + settings + ", now=" + clock.time() + ", " + model + '}';
        }
    }
}
