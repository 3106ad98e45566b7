package io.spool.model;

import io.spool.api.log.OffsetOutOfRangeException;
import io.spool.api.stream.ConsumerRecord;
import io.spool.api.stream.GroupReport;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.PublishResult;
import io.spool.api.stream.TopicPartition;
import io.spool.log.LogStoreConfig;
import io.spool.model.StreamModel.Partition;
import io.spool.stream.ConsumerConfig;
import io.spool.stream.GroupCoordinator;
import io.spool.stream.OffsetResetPolicy;
import io.spool.stream.RangeAssignor;
import io.spool.stream.StreamConsumer;
import io.spool.stream.StreamEngine;
import io.spool.stream.StreamEngineConfig;
import io.spool.stream.StreamProducer;
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
 * The engine and the model side by side: topic {@value #ORDERS} of three partitions, topic {@value #AUDIT} of
 * two, one reader of every partition, and the members of a group over {@value #ORDERS}.
 */
final class StreamSystem
{
    static final String ORDERS = "orders";
    static final String AUDIT = "audit";
    static final String REPLAY_GROUP = "replay";
    static final String WORKERS_GROUP = "workers";
    static final String READER = "reader";
    static final long SESSION_TIMEOUT_MILLIS = 3_600_000;
    static final long START_TIME = 1_000_000;
    static final int MAX_MEMBERS = 4;
    static final int SETTLE_ROUNDS = 6;

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
            LogStoreConfig.builder().clock(clock).backgroundMaintenance(false).fileSync(Engines.FILE_SYNC).build(),
            false));
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
                    .isEqualTo(model.committed(group, partition).orElse(GroupReport.PartitionPosition.NO_OFFSET));
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
