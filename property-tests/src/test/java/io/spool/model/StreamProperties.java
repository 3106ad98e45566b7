package io.spool.model;

import io.spool.log.LogStoreConfig;
import io.spool.log.OffsetOutOfRangeException;
import io.spool.model.StreamModel.Partition;
import io.spool.stream.CommittedOffsetStore;
import io.spool.stream.ConsumerConfig;
import io.spool.stream.ConsumerRecord;
import io.spool.stream.GroupCoordinator;
import io.spool.stream.OffsetResetPolicy;
import io.spool.stream.ProducerRecord;
import io.spool.stream.PublishResult;
import io.spool.stream.RangeAssignor;
import io.spool.stream.RoundRobinAssignor;
import io.spool.stream.StickyAssignor;
import io.spool.stream.StreamConsumer;
import io.spool.stream.StreamEngine;
import io.spool.stream.StreamEngineConfig;
import io.spool.stream.StreamProducer;
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
import org.agrona.concurrent.CachedEpochClock;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Random sequences of publishes (by key, without a key, to a chosen partition), polls, seeks, commits, consumer
 * group joins and leaves, clock steps, expired sessions, and engine restarts and crashes, run against a
 * {@link StreamEngine} and against {@link StreamModel}; after every step end offsets, positions and committed offsets
 * of both agree.
 * <p>
 * Two kinds of reader: a consumer that assigned every partition by hand and keeps its offsets under group
 * {@value #REPLAY_GROUP}, and the members of group {@value #WORKERS_GROUP} sharing topic {@value #ORDERS}. After a
 * member joins or leaves, or every session expired, the members poll until the assignment stops moving, and it must
 * then hold every partition exactly once; a partition that changes hands continues at the group's committed offset.
 * A poll serves partitions in an order the engine picks, so the property checks what it may: every partition's
 * records continue exactly at the reader's position, and a poll that returned fewer than it could have left nothing
 * unread.
 */
class StreamProperties
{
    private static final String ORDERS = "orders";
    private static final String AUDIT = "audit";
    private static final String REPLAY_GROUP = "replay";
    private static final String WORKERS_GROUP = "workers";
    private static final String READER = "reader";
    private static final long SESSION_TIMEOUT_MILLIS = 3_600_000;
    private static final long START_TIME = 1_000_000;
    private static final int MAX_MEMBERS = 4;
    private static final int SETTLE_ROUNDS = 6;
    private static final List<String> ACTIONS = List.of("publish by key", "publish without key",
        "publish to partition", "poll", "seek", "seek out of range", "seek to timestamp", "commit", "join", "leave",
        "member poll", "member commit", "advance clock", "sessions expire", "restart", "crash");

    /** The assignor of the sequence being run; a field so that shrinking a sequence keeps it. */
    private String assignor;

    /** The engine and model of the sequence being run. */
    private StreamSystem running;

    @Property
    void theStreamAgreesWithItsModel(@ForAll("assignors") final String assignor,
        @ForAll("chains") final ActionChain<StreamSystem> chain)
    {
        this.assignor = assignor;
        running = null;
        try
        {
            chain.withInvariant("end offsets, positions and committed offsets agree", StreamSystem::checkOffsets).run();
        }
        finally
        {
            if (running != null)
            {
                running.destroy();
            }
        }
        CoverageChecks.require(running != null && running.restarts > 0, ACTIONS);
    }

    @Provide
    Arbitrary<String> assignors()
    {
        return Arbitraries.of(RangeAssignor.NAME, RoundRobinAssignor.NAME, StickyAssignor.NAME);
    }

    /** Opens the engine of a sequence and keeps it, so that it is closed even if the sequence fails at once. */
    private StreamSystem start()
    {
        running = new StreamSystem(assignor);
        return running;
    }

    @Provide
    Arbitrary<ActionChain<StreamSystem>> chains()
    {
        return ActionChain.startWith(this::start)
            .withAction(3, new PublishByKey())
            .withAction(1, new PublishWithoutKey())
            .withAction(1, new PublishToPartition())
            .withAction(3, new Poll())
            .withAction(1, new Seek())
            .withAction(1, new SeekToTimestamp())
            .withAction(1, Action.just("commit", Transformer.mutate("commit", StreamSystem::commit)))
            .withAction(2, Action.just("join", Transformer.mutate("join", StreamSystem::join)))
            .withAction(1, new Leave())
            .withAction(3, new MemberPoll())
            .withAction(1, new MemberCommit())
            .withAction(1, new AdvanceClock())
            .withAction(1, Action.just("sessions expire", Transformer.mutate("advance clock past the session timeout",
                StreamSystem::expireSessions)))
            .withAction(1, Action.just("restart", Transformer.mutate("restart", StreamSystem::restart)))
            .withAction(1, Action.just("crash", Transformer.mutate("crash", StreamSystem::crash)))
            .withMaxTransformations(60);
    }

    static final class PublishByKey implements Action.Independent<StreamSystem>
    {
        @Override
        public Arbitrary<Transformer<StreamSystem>> transformer()
        {
            return Combinators.combine(Arbitraries.of(ORDERS, AUDIT), Arbitraries.integers().between(0, 20))
                .as((topic, key) -> Transformer.mutate("publish to " + topic + " with key k" + key,
                    s -> s.publishByKey(topic, "k" + key)));
        }
    }

    static final class PublishWithoutKey implements Action.Independent<StreamSystem>
    {
        @Override
        public Arbitrary<Transformer<StreamSystem>> transformer()
        {
            return Combinators.combine(Arbitraries.of(ORDERS, AUDIT), Arbitraries.integers().between(1, 4))
                .as((topic, n) -> Transformer.mutate("publish " + n + " to " + topic + " without key",
                    s -> s.publishWithoutKey(topic, n)));
        }
    }

    /** Every partition of both topics, in a fixed order, so that actions can name one without the state. */
    private static final List<Partition> PARTITIONS = List.of(new Partition(AUDIT, 0), new Partition(AUDIT, 1),
        new Partition(ORDERS, 0), new Partition(ORDERS, 1), new Partition(ORDERS, 2));

    static final class PublishToPartition implements Action.Independent<StreamSystem>
    {
        @Override
        public Arbitrary<Transformer<StreamSystem>> transformer()
        {
            return Arbitraries.of(PARTITIONS)
                .map(p -> Transformer.mutate("publish to " + p, sys -> sys.publishToPartition(p)));
        }
    }

    static final class Poll implements Action.Independent<StreamSystem>
    {
        @Override
        public Arbitrary<Transformer<StreamSystem>> transformer()
        {
            return Arbitraries.integers().between(1, 6)
                .map(max -> Transformer.mutate("poll " + max, s -> s.poll(max)));
        }
    }

    /** Seeks to an offset that may lie past the partition's end, which must be refused. */
    static final class Seek implements Action.Independent<StreamSystem>
    {
        @Override
        public Arbitrary<Transformer<StreamSystem>> transformer()
        {
            return Combinators.combine(Arbitraries.of(PARTITIONS), Arbitraries.longs().between(0, 8))
                .as((p, offset) -> Transformer.mutate("seek " + p + " to " + offset, sys -> sys.seek(p, offset)));
        }
    }

    static final class SeekToTimestamp implements Action.Independent<StreamSystem>
    {
        @Override
        public Arbitrary<Transformer<StreamSystem>> transformer()
        {
            return Combinators.combine(Arbitraries.of(PARTITIONS), Arbitraries.longs().between(-10, 3_000))
                .as((p, t) -> Transformer.mutate("seek " + p + " to start time + " + t + " ms",
                    sys -> sys.seekToTimestamp(p, START_TIME + t)));
        }
    }

    /**
     * Actions on a group member name it by its place among the live members in joining order, counting round, so
     * that they do not depend on the state; with no member they do nothing.
     */
    static final class Leave implements Action.Independent<StreamSystem>
    {
        @Override
        public Arbitrary<Transformer<StreamSystem>> transformer()
        {
            return Arbitraries.integers().between(0, 3)
                .map(m -> Transformer.mutate("member #" + m + " leaves", sys -> sys.leave(m)));
        }
    }

    static final class MemberPoll implements Action.Independent<StreamSystem>
    {
        @Override
        public Arbitrary<Transformer<StreamSystem>> transformer()
        {
            return Combinators.combine(Arbitraries.integers().between(0, 3), Arbitraries.integers().between(1, 6))
                .as((m, max) -> Transformer.mutate("member #" + m + " polls " + max, sys -> sys.memberPoll(m, max)));
        }
    }

    static final class MemberCommit implements Action.Independent<StreamSystem>
    {
        @Override
        public Arbitrary<Transformer<StreamSystem>> transformer()
        {
            return Arbitraries.integers().between(0, 3)
                .map(m -> Transformer.mutate("member #" + m + " commits", sys -> sys.memberCommit(m)));
        }
    }

    static final class AdvanceClock implements Action.Independent<StreamSystem>
    {
        @Override
        public Arbitrary<Transformer<StreamSystem>> transformer()
        {
            return Arbitraries.longs().between(1, 1_000)
                .map(ms -> Transformer.mutate("advance clock " + ms + " ms", s -> s.advanceClock(ms)));
        }
    }

    /**
     * The engine and the model side by side: topic {@value #ORDERS} of three partitions, topic {@value #AUDIT} of
     * two, one reader of every partition, and the members of a group over {@value #ORDERS}.
     */
    static final class StreamSystem
    {
        final String assignor;
        Path dir;
        final CachedEpochClock clock = new CachedEpochClock();
        final StreamModel model = new StreamModel();
        /** Members of the group by the names the model knows them under, in joining order. */
        final Map<String, StreamConsumer> members = new LinkedHashMap<>();
        StreamEngine engine;
        StreamProducer producer;
        StreamConsumer reader;
        int restarts;
        private int joined;
        private int counter;

        StreamSystem(final String assignor)
        {
            this.assignor = assignor;
            this.dir = Engines.temporaryDirectory("spool-stream-property");
            clock.update(START_TIME);
            open();
            engine.createTopic(ORDERS, Engines.topicOfTinySegments(3));
            engine.createTopic(AUDIT, Engines.topicOfTinySegments(2));
            model.createTopic(ORDERS, 3);
            model.createTopic(AUDIT, 2);
            openReader();
        }

        private void open()
        {
            engine = StreamEngine.open(dir, new StreamEngineConfig(
                LogStoreConfig.builder().clock(clock).backgroundMaintenance(false).build(), false));
            producer = engine.newProducer();
            model.newProducer();
        }

        private void openReader()
        {
            reader = engine.newConsumer(new ConsumerConfig(REPLAY_GROUP, OffsetResetPolicy.EARLIEST, false,
                ConsumerConfig.DEFAULT_AUTO_COMMIT_INTERVAL_MILLIS, GroupCoordinator.DEFAULT_SESSION_TIMEOUT_MILLIS,
                RangeAssignor.NAME));
            final List<TopicPartition> all = new ArrayList<>();
            for (final Partition partition : model.partitions())
            {
                all.add(engineView(partition));
                model.startReading(READER, REPLAY_GROUP, partition);
            }
            reader.assign(all);
        }

        private static TopicPartition engineView(final Partition partition)
        {
            return new TopicPartition(partition.topic(), partition.partition());
        }

        private static Partition modelView(final TopicPartition partition)
        {
            return new Partition(partition.topic(), partition.partition());
        }

        private String nextValue()
        {
            return "v" + counter++;
        }

        void publishByKey(final String topic, final String key)
        {
            CoverageChecks.ran("publish by key");
            final String value = nextValue();
            final PublishResult placed = producer.send(ProducerRecord.of(topic, bytes(key), bytes(value))).join();
            checkPlaced(placed, model.publish(topic, key, value, clock.time()));
        }

        void publishWithoutKey(final String topic, final int count)
        {
            CoverageChecks.ran("publish without key");
            for (int i = 0; i < count; i++)
            {
                final String value = nextValue();
                final PublishResult placed = producer.send(ProducerRecord.of(topic, null, bytes(value))).join();
                checkPlaced(placed, model.publish(topic, null, value, clock.time()));
            }
        }

        void publishToPartition(final Partition partition)
        {
            CoverageChecks.ran("publish to partition");
            final String value = nextValue();
            final PublishResult placed = producer.send(ProducerRecord.toPartition(partition.topic(),
                partition.partition(), null, bytes(value))).join();
            checkPlaced(placed, model.publishToPartition(partition, null, value, clock.time()));
        }

        private static void checkPlaced(final PublishResult placed, final StreamModel.Record expected)
        {
            assertThat(new Partition(placed.topic(), placed.partition())).as("partition of " + expected.value())
                .isEqualTo(expected.partition());
            assertThat(placed.offset()).as("offset of " + expected.value()).isEqualTo(expected.offset());
        }

        void poll(final int max)
        {
            CoverageChecks.ran("poll");
            pollAndCheck(READER, reader, max);
        }

        /**
         * Polls once and checks the records against the model: each partition's run starts at the consumer's
         * position and is the model's next records; no more than {@code max}; fewer only if nothing else was left
         * in the partitions the consumer reads. Partitions a group member gained or lost in the poll are handed
         * over in the model first.
         */
        private void pollAndCheck(final String name, final StreamConsumer consumer, final int max)
        {
            final Set<Partition> before = modelViews(consumer.assignment());
            final String memberIdBefore = consumer.memberId();
            final List<ConsumerRecord> records = consumer.poll(max, 1 << 20, Duration.ZERO);
            final Set<Partition> after = modelViews(consumer.assignment());
            if (!Objects.equals(memberIdBefore, consumer.memberId()))
            {
                // The session had expired: the member lost everything and joined again under a new id, so even a
                // partition it got back starts again from the committed offset.
                handOver(name, before, Set.of());
                handOver(name, Set.of(), after);
            }
            else if (!before.equals(after))
            {
                handOver(name, before, after);
            }
            assertThat(records.size()).as("%s polled %d", name, max).isLessThanOrEqualTo(max);
            final Map<Partition, List<StreamModel.Record>> byPartition = new LinkedHashMap<>();
            for (final ConsumerRecord record : records)
            {
                byPartition.computeIfAbsent(new Partition(record.topic(), record.partition()), p -> new ArrayList<>())
                    .add(new StreamModel.Record(new Partition(record.topic(), record.partition()), record.offset(),
                        record.timestamp(), text(record.key()), text(record.value())));
            }
            assertThat(after).as("%s read only partitions it holds", name).containsAll(byPartition.keySet());
            byPartition.forEach((partition, read) ->
            {
                final long position = model.positions(name).get(partition);
                assertThat(read).as("%s read %s from %d", name, partition, position)
                    .isEqualTo(model.read(partition, position, read.size()));
                model.advance(name, partition, read.size());
            });
            if (records.size() < max)
            {
                for (final Partition partition : after)
                {
                    assertThat(model.positions(name).get(partition)).as("%s left %s unread in a short poll", name,
                        partition).isEqualTo(model.endOffset(partition));
                }
            }
        }

        private void handOver(final String name, final Set<Partition> before, final Set<Partition> after)
        {
            final Set<Partition> lost = new HashSet<>(before);
            lost.removeAll(after);
            model.stopReading(name, lost);
            final Set<Partition> gained = new TreeSet<>(after);
            gained.removeAll(before);
            gained.forEach(p -> model.startReading(name, WORKERS_GROUP, p));
        }

        void seek(final Partition partition, final long offset)
        {
            final TopicPartition target = engineView(partition);
            if (offset > model.endOffset(partition))
            {
                CoverageChecks.ran("seek out of range");
                assertThatThrownBy(() -> reader.seek(target, offset)).isInstanceOf(OffsetOutOfRangeException.class);
                return;
            }
            CoverageChecks.ran("seek");
            reader.seek(target, offset);
            model.seek(READER, partition, offset);
        }

        void seekToTimestamp(final Partition partition, final long timestamp)
        {
            CoverageChecks.ran("seek to timestamp");
            reader.seekToTimestamp(engineView(partition), timestamp);
            model.seek(READER, partition, model.offsetForTimestamp(partition, timestamp));
        }

        void commit()
        {
            CoverageChecks.ran("commit");
            reader.commitSync();
            model.commit(REPLAY_GROUP, READER);
        }

        /** A new member joins, unless the group is full. */
        void join()
        {
            if (members.size() == MAX_MEMBERS)
            {
                return;
            }
            CoverageChecks.ran("join");
            addMember();
            settleGroup();
        }

        private void addMember()
        {
            final String name = "member-" + joined++;
            final StreamConsumer member = engine.newConsumer(new ConsumerConfig(WORKERS_GROUP,
                OffsetResetPolicy.EARLIEST, false, ConsumerConfig.DEFAULT_AUTO_COMMIT_INTERVAL_MILLIS,
                SESSION_TIMEOUT_MILLIS, assignor));
            member.subscribe(ORDERS, WORKERS_GROUP);
            members.put(name, member);
            handOver(name, Set.of(), modelViews(member.assignment()));
        }

        void leave(final int slot)
        {
            final String name = memberAt(slot);
            if (name == null)
            {
                return;
            }
            CoverageChecks.ran("leave");
            members.remove(name).close();
            model.forgetConsumer(name);
            settleGroup();
        }

        /**
         * Polls every member until a whole round changes no assignment, then checks that the group holds every
         * partition of the topic exactly once.
         */
        private void settleGroup()
        {
            for (int round = 0; round < SETTLE_ROUNDS; round++)
            {
                final Map<String, Set<TopicPartition>> before = assignments();
                members.forEach((name, member) -> pollAndCheck(name, member, 1));
                if (before.equals(assignments()))
                {
                    break;
                }
            }
            if (!members.isEmpty())
            {
                final List<Set<Partition>> held = members.values().stream()
                    .map(m -> modelViews(m.assignment())).toList();
                assertThat(StreamModel.coversExactlyOnce(held, model.partitionsOf(ORDERS)))
                    .as("assignment %s holds every partition of %s exactly once", assignments(), ORDERS).isTrue();
            }
        }

        private Map<String, Set<TopicPartition>> assignments()
        {
            final Map<String, Set<TopicPartition>> assignments = new LinkedHashMap<>();
            members.forEach((name, member) -> assignments.put(name, new TreeSet<>(member.assignment())));
            return assignments;
        }

        /** The name of the member at {@code slot} among the live ones in joining order (counting round), or null. */
        private String memberAt(final int slot)
        {
            return members.isEmpty() ? null : new ArrayList<>(members.keySet()).get(slot % members.size());
        }

        void memberPoll(final int slot, final int max)
        {
            final String name = memberAt(slot);
            if (name == null)
            {
                return;
            }
            CoverageChecks.ran("member poll");
            pollAndCheck(name, members.get(name), max);
        }

        void memberCommit(final int slot)
        {
            final String name = memberAt(slot);
            if (name == null)
            {
                return;
            }
            CoverageChecks.ran("member commit");
            members.get(name).commitSync();
            model.commit(WORKERS_GROUP, name);
        }

        void advanceClock(final long millis)
        {
            CoverageChecks.ran("advance clock");
            clock.advance(millis);
        }

        /**
         * Moves the clock past the members' session timeout: the group drops them all at the next look, and each
         * joins again at its next poll.
         */
        void expireSessions()
        {
            if (members.isEmpty())
            {
                return;
            }
            CoverageChecks.ran("sessions expire");
            clock.advance(SESSION_TIMEOUT_MILLIS + 1);
            settleGroup();
        }

        /** Closes every consumer (members leave the group) and the engine, opens it again and rejoins as many. */
        void restart()
        {
            CoverageChecks.ran("restart");
            restarts++;
            final int memberCount = members.size();
            closeConsumers();
            engine.close();
            reopen(memberCount);
        }

        /**
         * Opens what a process killed now would leave, with as many members as before; the group starts empty, as
         * no member survives a crash, and committed offsets stay.
         */
        void crash()
        {
            CoverageChecks.ran("crash");
            restarts++;
            final int memberCount = members.size();
            final Path image = Engines.crashImage(dir);
            closeConsumers();
            engine.close();
            Engines.deleteDirectory(dir);
            dir = image;
            reopen(memberCount);
        }

        private void reopen(final int memberCount)
        {
            open();
            openReader();
            for (int i = 0; i < memberCount; i++)
            {
                addMember();
            }
            settleGroup();
        }

        private void closeConsumers()
        {
            reader.close();
            model.forgetConsumer(READER);
            members.forEach((name, member) ->
            {
                member.close();
                model.forgetConsumer(name);
            });
            members.clear();
        }

        void checkOffsets()
        {
            for (final Partition partition : model.partitions())
            {
                final TopicPartition target = engineView(partition);
                assertThat(engine.topics().topic(partition.topic()).partition(partition.partition()).endOffset())
                    .as("end offset of %s", partition).isEqualTo(model.endOffset(partition));
                assertThat(reader.position(target)).as("reader position in %s", partition)
                    .isEqualTo(model.positions(READER).get(partition));
                for (final String group : List.of(REPLAY_GROUP, WORKERS_GROUP))
                {
                    assertThat(engine.groups().committed(group, target)).as("%s committed %s", group, partition)
                        .isEqualTo(model.committed(group, partition).orElse(CommittedOffsetStore.NO_OFFSET));
                }
            }
            members.forEach((name, member) ->
            {
                for (final TopicPartition partition : member.assignment())
                {
                    assertThat(member.position(partition)).as("%s position in %s", name, partition)
                        .isEqualTo(model.positions(name).get(modelView(partition)));
                }
            });
        }

        private static Set<Partition> modelViews(final Set<TopicPartition> partitions)
        {
            final Set<Partition> views = new TreeSet<>();
            partitions.forEach(p -> views.add(modelView(p)));
            return views;
        }

        private static byte[] bytes(final String text)
        {
            return text.getBytes(StandardCharsets.UTF_8);
        }

        private static String text(final byte[] bytes)
        {
            return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
        }

        void destroy()
        {
            closeConsumers();
            engine.close();
            Engines.deleteDirectory(dir);
        }

        @Override
        public String toString()
        {
            return "StreamSystem{" + assignor + ", members=" + members.keySet() + ", " + model + '}';
        }
    }
}
