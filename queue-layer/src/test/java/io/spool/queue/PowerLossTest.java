package io.spool.queue;

import io.spool.Spool;
import io.spool.SpoolProducer;
import io.spool.api.log.Durability;
import io.spool.api.log.LogConfig;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.ConsumerRecord;
import io.spool.api.stream.PublishResult;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicPartition;
import io.spool.log.PowerLossFileSync;
import io.spool.stream.ConsumerConfig;
import io.spool.stream.StreamConsumer;
import io.spool.testing.SlowTest;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Power loss, not only a killed process: the engine runs on a {@link PowerLossFileSync}, which keeps apart what was
 * forced, while a publisher publishes under EVERY_BATCH and a consumer acks under journal durability EVERY_BATCH;
 * at a point the test picks, the power goes, and the data directory becomes what storage kept: every byte and
 * directory entry never forced is gone. The engine opened on it must hold every record whose publish was confirmed,
 * must not deliver any message whose ack returned, and must still deliver every confirmed message not acked. Round
 * after round on the same directory, each crash cutting into the work of the one before it; journals compact into
 * snapshots every few kilobytes so the crashes also land around snapshot and journal rotation.
 * <p>
 * {@code -Dspool.powerLoss.rounds=N} runs more rounds than the build does.
 */
@SlowTest
class PowerLossTest
{
    private static final int ROUNDS = Integer.getInteger("spool.powerLoss.rounds", 12);
    private static final String TOPIC = "orders";
    private static final int PARTITIONS = 2;
    private static final long LOCK_MILLIS = SubscriptionSettings.DEFAULT_LOCK_TIMEOUT_MILLIS;

    @TempDir
    Path dir;
    private final CachedEpochClock clock = new CachedEpochClock();
    /** Every confirmed record, by value: where it was stored. */
    private final Map<String, PublishResult> confirmed = new HashMap<>();
    /** Every message whose ack returned. */
    private final Set<String> acked = new HashSet<>();

    @Test
    void whatWasConfirmedOrAckedSurvivesAPowerLoss() throws Exception
    {
        clock.update(1_000_000);
        final SplittableRandom random = new SplittableRandom(18);
        long forces = 0;
        for (int round = 0; round < ROUNDS; round++)
        {
            final PowerLossFileSync storage = new PowerLossFileSync(dir);
            final Spool spool = open(storage);
            if (round == 0)
            {
                spool.createTopic(TOPIC, new TopicConfig(PARTITIONS, LogConfig.builder().segmentBytes(64 * 1024)
                    .maxRecordBytes(16 * 1024).durability(Durability.EVERY_BATCH).build()));
                spool.createSubscription("work", TOPIC, SubscriptionSettings.DEFAULT);
            }
            else
            {
                checkAndSettle(spool, "after power loss " + round);
            }
            runUntilPowerLoss(spool, storage, round, 200 + random.nextInt(800), random.nextInt(3));
            forces += storage.forces();
            spool.close();
            storage.restoreWhatWasForced();
        }
        try (Spool spool = open(new PowerLossFileSync(dir)))
        {
            checkAndSettle(spool, "after the last power loss");
        }
        final String summary = ROUNDS + " power losses: " + confirmed.size() + " confirmed records and " +
            acked.size() + " acks checked, " + forces + " forces kept";
        System.out.println(summary);
        assertThat(confirmed).as(summary).hasSizeGreaterThan(ROUNDS * 100);
        assertThat(acked).as(summary).hasSizeGreaterThan(ROUNDS * 50);
    }

    private Spool open(final PowerLossFileSync storage)
    {
        return Spool.builder(dir).clock(clock).backgroundMaintenance(false).fileSync(storage)
            .stateDurability(StateDurability.EVERY_BATCH).stateCompactionThresholdBytes(4096).open();
    }

    /**
     * Publishes on one thread and receives and acks (two of every three deliveries) on this one until {@code target}
     * records of this round are confirmed, then cuts the power with work in flight on both.
     */
    private void runUntilPowerLoss(final Spool spool, final PowerLossFileSync storage, final int round,
        final int target, final int ackSkew) throws Exception
    {
        final Map<String, PublishResult> confirmedNow = new ConcurrentHashMap<>();
        final AtomicBoolean stop = new AtomicBoolean();
        final CompletableFuture<Void> publishing = CompletableFuture.runAsync(() ->
        {
            final SpoolProducer producer = spool.newProducer();
            for (int i = 0; !stop.get(); i++)
            {
                final String value = "r" + round + "-" + i;
                final CompletableFuture<PublishResult> sent = producer.send(TOPIC, null, bytes(value));
                sent.thenAccept(result -> confirmedNow.put(value, result));
                if (i % 32 == 31)
                {
                    sent.exceptionally(failed -> null).join();
                }
            }
        });
        final Subscription work = spool.subscription("work");
        final Set<String> ackedNow = new HashSet<>();
        int delivered = 0;
        while (confirmedNow.size() < target)
        {
            final List<Delivery> deliveries = work.receive(50, 0);
            if (deliveries.isEmpty())
            {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            for (final Delivery delivery : deliveries)
            {
                if (delivered++ % 3 != ackSkew)
                {
                    work.ack(delivery.receipt());
                    ackedNow.add(delivery.valueAsString());
                }
            }
        }
        final Map<String, PublishResult> confirmedBeforeTheLoss = Map.copyOf(confirmedNow);
        storage.losePower();
        stop.set(true);
        publishing.get(60, TimeUnit.SECONDS);
        confirmed.putAll(confirmedBeforeTheLoss);
        acked.addAll(ackedNow);
    }

    /**
     * Every confirmed record is where its confirm said, with its value; once the locks of deliveries in flight at the
     * loss have run out, the subscription hands out every confirmed message not acked and none that was; those are
     * acked now, so the next round starts from a settled queue.
     */
    private void checkAndSettle(final Spool spool, final String when)
    {
        final Map<TopicPartition, Map<Long, String>> stored = readTopic(spool);
        final List<String> missing = new ArrayList<>();
        confirmed.forEach((value, result) ->
        {
            final String found = stored.getOrDefault(new TopicPartition(TOPIC, result.partition()), Map.of())
                .get(result.offset());
            if (!value.equals(found))
            {
                missing.add(value + "@" + result.partition() + ":" + result.offset() + " found " + found);
            }
        });
        assertThat(missing).as("confirmed records missing " + when).isEmpty();

        final Subscription work = spool.subscription("work");
        clock.advance(LOCK_MILLIS + 1);
        work.sync();
        final Set<String> redelivered = new HashSet<>();
        List<Delivery> deliveries;
        while (!(deliveries = work.receive(500, 0)).isEmpty())
        {
            for (final Delivery delivery : deliveries)
            {
                redelivered.add(delivery.valueAsString());
                work.ack(delivery.receipt());
            }
        }
        final Set<String> ackedAgain = new HashSet<>(redelivered);
        ackedAgain.retainAll(acked);
        assertThat(ackedAgain).as("acked messages delivered again " + when).isEmpty();
        final Set<String> lost = new HashSet<>(confirmed.keySet());
        lost.removeAll(acked);
        lost.removeAll(redelivered);
        assertThat(lost).as("confirmed messages neither acked nor delivered " + when).isEmpty();
        acked.addAll(redelivered);
    }

    private static Map<TopicPartition, Map<Long, String>> readTopic(final Spool spool)
    {
        final Map<TopicPartition, Map<Long, String>> stored = new HashMap<>();
        try (StreamConsumer consumer = spool.newConsumer(ConsumerConfig.standalone()))
        {
            final List<TopicPartition> partitions = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++)
            {
                partitions.add(new TopicPartition(TOPIC, p));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            List<ConsumerRecord> records;
            while (!(records = consumer.poll(10_000, Integer.MAX_VALUE, Duration.ZERO)).isEmpty())
            {
                for (final ConsumerRecord record : records)
                {
                    stored.computeIfAbsent(new TopicPartition(TOPIC, record.partition()), p -> new HashMap<>())
                        .put(record.offset(), new String(record.value(), StandardCharsets.UTF_8));
                }
            }
        }
        return stored;
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
