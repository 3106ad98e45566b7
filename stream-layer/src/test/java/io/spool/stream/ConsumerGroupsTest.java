package io.spool.stream;

import io.spool.api.log.OffsetOutOfRangeException;
import io.spool.api.stream.CommitFailedException;
import io.spool.api.stream.ConsumerRecord;
import io.spool.api.stream.InvalidGroupException;
import io.spool.api.InvalidRequestException;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicPartition;
import io.spool.stream.internal.group.CommittedOffsetStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static io.spool.stream.EngineFixture.NO_WAIT;
import static io.spool.stream.EngineFixture.bytes;
import static io.spool.stream.EngineFixture.topic;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConsumerGroupsTest
{
    private static final long SESSION = 10_000;

    @TempDir
    Path dir;

    /** Records what a member was told, in order. */
    private static final class RecordingListener implements RebalanceListener
    {
        final List<String> events = new ArrayList<>();
        final Set<TopicPartition> owned = new HashSet<>();

        @Override
        public void onPartitionsRevoked(final Collection<TopicPartition> partitions)
        {
            events.add("revoked " + partitions);
            owned.removeAll(partitions);
        }

        @Override
        public void onPartitionsAssigned(final Collection<TopicPartition> partitions)
        {
            events.add("assigned " + partitions);
            owned.addAll(partitions);
        }

        @Override
        public void onPartitionsLost(final Collection<TopicPartition> partitions)
        {
            events.add("lost " + partitions);
            owned.removeAll(partitions);
        }
    }

    private static ConsumerConfig manualCommit(final String assignor)
    {
        return ConsumerConfig.group("g").withAutoCommit(false, 0).withSessionTimeout(SESSION).withAssignor(assignor);
    }

    private static void publishEach(final StreamEngine engine, final int partitions, final int perPartition)
    {
        final StreamProducer producer = engine.newProducer();
        for (int p = 0; p < partitions; p++)
        {
            for (int i = 0; i < perPartition; i++)
            {
                producer.send(ProducerRecord.toPartition("orders", p, null, bytes("r" + i))).join();
            }
        }
    }

    @Test
    void joinRebalancesAndTellsEachMemberWhatItLostAndGained()
    {
        final EngineFixture fixture = new EngineFixture(dir);
        try (StreamEngine engine = fixture.open())
        {
            engine.createTopic("orders", topic(4));
            final RecordingListener first = new RecordingListener();
            final RecordingListener second = new RecordingListener();
            try (StreamConsumer a = engine.newConsumer(manualCommit("range"));
                StreamConsumer b = engine.newConsumer(manualCommit("range")))
            {
                a.subscribe(Set.of("orders"), "g", first);
                assertThat(first.owned).hasSize(4);

                b.subscribe(Set.of("orders"), "g", second);
                assertThat(second.owned).as("nothing until the owner lets go").isEmpty();
                a.poll(10, 1 << 20, NO_WAIT);
                b.poll(10, 1 << 20, NO_WAIT);

                assertThat(first.owned).hasSize(2);
                assertThat(second.owned).hasSize(2);
                assertThat(a.assignment()).isEqualTo(first.owned).doesNotContainAnyElementsOf(b.assignment());
                assertThat(first.events).hasSize(2);
                assertThat(first.events.get(1)).startsWith("revoked");
            }
        }
    }

    @Test
    void leaverHandsItsPartitionsOverAtItsCommittedPosition()
    {
        final EngineFixture fixture = new EngineFixture(dir);
        try (StreamEngine engine = fixture.open())
        {
            engine.createTopic("orders", topic(2));
            final StreamConsumer stayer = engine.newConsumer(ConsumerConfig.group("g").withSessionTimeout(SESSION));
            final StreamConsumer leaver = engine.newConsumer(ConsumerConfig.group("g").withSessionTimeout(SESSION));
            stayer.subscribe("orders", "g");
            leaver.subscribe("orders", "g");
            stayer.poll(100, 1 << 20, NO_WAIT);
            leaver.poll(100, 1 << 20, NO_WAIT);
            stayer.poll(100, 1 << 20, NO_WAIT);
            publishEach(engine, 2, 5);
            final TopicPartition leaversPartition = leaver.assignment().iterator().next();
            final int read = leaver.poll(3, 1 << 20, NO_WAIT).size();
            assertThat(read).isEqualTo(3);

            leaver.close();

            assertThat(engine.groups().committed("g", leaversPartition)).isEqualTo(3);
            final List<ConsumerRecord> rest = stayer.poll(100, 1 << 20, NO_WAIT);
            assertThat(stayer.assignment()).hasSize(2);
            assertThat(stayer.poll(100, 1 << 20, NO_WAIT)).isEmpty();
            assertThat(rest).filteredOn(r -> r.topicPartition().equals(leaversPartition))
                .extracting(ConsumerRecord::offset).containsExactly(3L, 4L);
            stayer.close();
        }
    }

    @Test
    void memberThatStopsHeartbeatingLosesItsPartitionsToTheOthers()
    {
        final EngineFixture fixture = new EngineFixture(dir);
        try (StreamEngine engine = fixture.open())
        {
            engine.createTopic("orders", topic(4));
            final RecordingListener aliveEvents = new RecordingListener();
            final RecordingListener silentEvents = new RecordingListener();
            try (StreamConsumer alive = engine.newConsumer(manualCommit("sticky"));
                StreamConsumer silent = engine.newConsumer(manualCommit("sticky")))
            {
                alive.subscribe(Set.of("orders"), "g", aliveEvents);
                silent.subscribe(Set.of("orders"), "g", silentEvents);
                alive.poll(1, 1, NO_WAIT);
                silent.poll(1, 1, NO_WAIT);
                assertThat(alive.assignment()).hasSize(2);
                assertThat(silent.assignment()).hasSize(2);

                fixture.clock.advance(SESSION / 2 + 1);
                alive.poll(1, 1, NO_WAIT);
                fixture.clock.advance(SESSION / 2 + 1);
                assertThat(engine.runMaintenance()).as("only the silent member expired").isEqualTo(1);
                alive.poll(1, 1, NO_WAIT);
                assertThat(alive.assignment()).hasSize(4);
                assertThat(aliveEvents.events).noneMatch(e -> e.startsWith("lost"));

                silent.poll(1, 1, NO_WAIT);
                assertThat(silentEvents.events).anyMatch(e -> e.startsWith("lost"));
                assertThat(silent.assignment()).as("rejoined, waiting for a share").isEmpty();
                alive.poll(1, 1, NO_WAIT);
                silent.poll(1, 1, NO_WAIT);
                assertThat(alive.assignment()).hasSize(2);
                assertThat(silent.assignment()).hasSize(2);
            }
        }
    }

    @Test
    void committedOffsetsSurviveReopenAndLagFollowsThem()
    {
        final EngineFixture fixture = new EngineFixture(dir);
        try (StreamEngine engine = fixture.open())
        {
            engine.createTopic("orders", topic(2));
            publishEach(engine, 2, 10);
            try (StreamConsumer consumer = engine.newConsumer(manualCommit("range")))
            {
                consumer.subscribe("orders", "g");
                consumer.seek(new TopicPartition("orders", 1), 10);
                consumer.poll(4, 1 << 20, NO_WAIT);
                consumer.commitSync();
            }
            assertThat(engine.lag("g")).containsEntry(new TopicPartition("orders", 0), 6L)
                .containsEntry(new TopicPartition("orders", 1), 0L);
        }
        try (StreamEngine engine = fixture.open())
        {
            assertThat(engine.groups().committed("g", new TopicPartition("orders", 0))).isEqualTo(4);
            assertThat(engine.lag("g", new TopicPartition("orders", 0))).isEqualTo(6);
            assertThat(engine.lag("fresh", new TopicPartition("orders", 0))).isEqualTo(10);
            try (StreamConsumer consumer = engine.newConsumer(manualCommit("range")))
            {
                consumer.subscribe("orders", "g");
                assertThat(consumer.poll(100, 1 << 20, NO_WAIT)).extracting(ConsumerRecord::offset)
                    .containsExactly(4L, 5L, 6L, 7L, 8L, 9L);
            }
        }
    }

    @Test
    void autoCommitRunsOnItsIntervalOfTheEngineClock()
    {
        final EngineFixture fixture = new EngineFixture(dir);
        try (StreamEngine engine = fixture.open())
        {
            engine.createTopic("orders", topic(1));
            publishEach(engine, 1, 5);
            final TopicPartition partition = new TopicPartition("orders", 0);
            try (StreamConsumer consumer = engine.newConsumer(ConsumerConfig.group("g").withAutoCommit(true, 1_000)))
            {
                consumer.subscribe("orders", "g");
                consumer.poll(5, 1 << 20, NO_WAIT);
                consumer.poll(5, 1 << 20, NO_WAIT);
                assertThat(engine.groups().committed("g", partition)).isEqualTo(CommittedOffsetStore.NO_OFFSET);

                fixture.clock.advance(1_000);
                consumer.poll(5, 1 << 20, NO_WAIT);
                assertThat(engine.groups().committed("g", partition)).isEqualTo(5);
            }
        }
    }

    @Test
    void commitOfAPartitionHandedAwayIsRefused()
    {
        final EngineFixture fixture = new EngineFixture(dir);
        try (StreamEngine engine = fixture.open())
        {
            engine.createTopic("orders", topic(2));
            try (StreamConsumer a = engine.newConsumer(manualCommit("range"));
                StreamConsumer b = engine.newConsumer(manualCommit("range")))
            {
                a.subscribe("orders", "g");
                b.subscribe("orders", "g");
                a.poll(1, 1, NO_WAIT);
                b.poll(1, 1, NO_WAIT);
                final TopicPartition notMine = b.assignment().iterator().next();

                assertThatThrownBy(() -> a.commitSync(Map.of(notMine, 0L)))
                    .isInstanceOf(CommitFailedException.class).hasMessageContaining("does not own " + notMine);
            }
        }
    }

    @Test
    void aStandaloneCommitAboveTheLogEndIsRefused()
    {
        try (StreamEngine engine = new EngineFixture(dir).open())
        {
            engine.createTopic("orders", topic(1));
            final StreamProducer producer = engine.newProducer();
            for (int i = 0; i < 600; i++)
            {
                producer.send("orders", null, bytes("r" + i));
            }
            producer.send("orders", null, bytes("last")).join();
            final TopicPartition partition = new TopicPartition("orders", 0);

            assertThatThrownBy(() -> engine.groups().commitStandalone("g", Map.of(partition, 1_000_000_000L)))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("orders-0 ends at 601");
            assertThat(engine.groups().committedOffsets("g")).isEmpty();
            engine.groups().commitStandalone("g", Map.of(partition, 601L));
            assertThat(engine.groups().committed("g", partition)).isEqualTo(601);
        }
    }

    @Test
    void committedOffsetThatRetentionRemovedIsReportedAfterTheAssignedCallback()
    {
        final EngineFixture fixture = new EngineFixture(dir);
        try (StreamEngine engine = fixture.open())
        {
            engine.createTopic("orders", TopicConfig.of(1).withLog(EngineFixture.SMALL_SEGMENTS.toBuilder()
                .retentionBytes(64 * 1024).build()));
            final TopicPartition partition = new TopicPartition("orders", 0);
            engine.groups().commitStandalone("g", Map.of(partition, 0L));
            final StreamProducer producer = engine.newProducer();
            for (int i = 0; i < 100; i++)
            {
                producer.send("orders", null, new byte[4000]).join();
            }
            engine.runMaintenance();
            final long earliest = engine.describeTopic("orders").partitions().get(0).startOffset();
            final RecordingListener events = new RecordingListener();
            try (StreamConsumer consumer = engine.newConsumer(manualCommit("range")))
            {
                consumer.subscribe(Set.of("orders"), "g", events);
                assertThat(events.events).containsExactly("assigned [orders-0]");

                assertThatThrownBy(() -> consumer.poll(10, 1 << 20, NO_WAIT))
                    .isInstanceOfSatisfying(OffsetOutOfRangeException.class,
                        ex -> assertThat(ex.earliestOffset()).isEqualTo(earliest));
                consumer.seek(partition, earliest);
                assertThat(consumer.poll(1, 1 << 20, NO_WAIT).get(0).offset()).isEqualTo(earliest);
            }
        }
    }

    @Test
    void aRefusedSubscribeLeavesTheConsumerUsable()
    {
        final EngineFixture fixture = new EngineFixture(dir);
        try (StreamEngine engine = fixture.open())
        {
            engine.createTopic("orders", topic(2));
            try (StreamConsumer range = engine.newConsumer(manualCommit("range"));
                StreamConsumer sticky = engine.newConsumer(manualCommit("sticky")))
            {
                range.subscribe("orders", "g");
                assertThatThrownBy(() -> sticky.subscribe("orders", "g"))
                    .isInstanceOf(InvalidGroupException.class).hasMessageContaining("uses assignor range");

                assertThat(sticky.memberId()).isNull();
                sticky.assign(List.of(new TopicPartition("orders", 0)));
                assertThat(sticky.assignment()).containsExactly(new TopicPartition("orders", 0));
            }
        }
    }

    @Test
    void deletingASubscribedTopicRevokesItsPartitionsAndTheOthersCarryOn()
    {
        final EngineFixture fixture = new EngineFixture(dir);
        try (StreamEngine engine = fixture.open())
        {
            engine.createTopic("orders", topic(2));
            engine.createTopic("audit", topic(1));
            final RecordingListener events = new RecordingListener();
            try (StreamConsumer consumer = engine.newConsumer(ConsumerConfig.group("g")))
            {
                consumer.subscribe(Set.of("orders", "audit"), "g", events);
                assertThat(consumer.assignment()).hasSize(3);

                engine.deleteTopic("orders");
                engine.newProducer().send("audit", null, bytes("still here")).join();

                assertThat(consumer.poll(10, 1 << 20, NO_WAIT)).extracting(ConsumerRecord::topic)
                    .containsExactly("audit");
                assertThat(consumer.assignment()).containsExactly(new TopicPartition("audit", 0));
                assertThat(events.events).contains("revoked [orders-0, orders-1]");
            }
        }
    }

    @Test
    void aMemberWaitingInALongPollWakesWhenAPartitionIsHandedToIt() throws InterruptedException
    {
        final EngineFixture fixture = new EngineFixture(dir);
        try (StreamEngine engine = fixture.open())
        {
            engine.createTopic("orders", topic(2));
            final ConsumerConfig config = manualCommit("range").withSessionTimeout(90_000);
            try (StreamConsumer holder = engine.newConsumer(config);
                StreamConsumer waiter = engine.newConsumer(config))
            {
                holder.subscribe("orders", "g");
                waiter.subscribe("orders", "g");
                assertThat(waiter.assignment()).isEmpty();
                final List<ConsumerRecord> received = new ArrayList<>();
                final long[] waitedNanos = {0};
                final Thread waiting = new Thread(() ->
                {
                    final long start = System.nanoTime();
                    received.addAll(waiter.poll(10, 1 << 20, Duration.ofSeconds(60)));
                    waitedNanos[0] = System.nanoTime() - start;
                });
                waiting.start();
                publishEach(engine, 2, 1);

                holder.poll(10, 1 << 20, NO_WAIT);
                waiting.join();

                assertThat(received).hasSize(1);
                assertThat(holder.assignment()).doesNotContain(received.get(0).topicPartition());
                assertThat(waitedNanos[0]).as("woken by the hand-over, not by its 30 s heartbeat interval")
                    .isLessThan(TimeUnit.SECONDS.toNanos(20));
            }
        }
    }

    @Test
    void aRevokeCallbackThatThrowsStillHandsThePartitionOver()
    {
        final EngineFixture fixture = new EngineFixture(dir);
        try (StreamEngine engine = fixture.open())
        {
            engine.createTopic("orders", topic(2));
            final RebalanceListener failing = new RebalanceListener()
            {
                @Override
                public void onPartitionsRevoked(final Collection<TopicPartition> partitions)
                {
                    throw new IllegalStateException("revoke callback failed");
                }

                @Override
                public void onPartitionsAssigned(final Collection<TopicPartition> partitions)
                {
                }
            };
            final StreamConsumer clumsy = engine.newConsumer(manualCommit("range"));
            try (StreamConsumer other = engine.newConsumer(manualCommit("range")))
            {
                clumsy.subscribe(Set.of("orders"), "g", failing);
                other.subscribe("orders", "g");

                assertThatThrownBy(() -> clumsy.poll(1, 1, NO_WAIT)).hasMessageContaining("revoke callback failed");
                other.poll(1, 1, NO_WAIT);
                assertThat(clumsy.assignment()).hasSize(1);
                assertThat(other.assignment()).hasSize(1).doesNotContainAnyElementsOf(clumsy.assignment());

                assertThatThrownBy(clumsy::close).hasMessageContaining("revoke callback failed");
                other.poll(1, 1, NO_WAIT);
                assertThat(other.assignment()).as("the clumsy member left anyway").hasSize(2);
            }
        }
    }
}
