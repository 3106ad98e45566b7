package io.spool.stream;

import io.spool.api.EngineClosedException;
import io.spool.api.log.OffsetOutOfRangeException;
import io.spool.api.stream.ConsumerRecord;
import io.spool.api.stream.IllegalClientStateException;
import io.spool.api.stream.InvalidGroupException;
import io.spool.api.InvalidRequestException;
import io.spool.api.stream.NoOffsetForPartitionException;
import io.spool.api.stream.PartitionNotAssignedException;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicPartition;
import io.spool.api.stream.UnknownPartitionException;
import io.spool.api.stream.UnknownTopicException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static io.spool.stream.EngineFixture.LONG_WAIT;
import static io.spool.stream.EngineFixture.NO_WAIT;
import static io.spool.stream.EngineFixture.SHORT_WAIT;
import static io.spool.stream.EngineFixture.bytes;
import static io.spool.stream.EngineFixture.text;
import static io.spool.stream.EngineFixture.topic;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StreamConsumerTest
{
    private static final TopicPartition P0 = new TopicPartition("events", 0);
    private static final TopicPartition P1 = new TopicPartition("events", 1);

    @TempDir
    Path dir;

    private EngineFixture fixture;
    private StreamEngine engine;
    private StreamProducer producer;

    @BeforeEach
    void open()
    {
        fixture = new EngineFixture(dir);
        engine = fixture.open();
        engine.createTopic("events", topic(2));
        producer = engine.newProducer();
    }

    @AfterEach
    void close()
    {
        engine.close();
    }

    private void publish(final int partition, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            producer.send(ProducerRecord.toPartition("events", partition, bytes("k" + i), bytes("v" + i))).join();
        }
    }

    private StreamConsumer consumer(final ConsumerConfig config, final TopicPartition... partitions)
    {
        final StreamConsumer consumer = engine.newConsumer(config);
        consumer.assign(List.of(partitions));
        return consumer;
    }

    @Test
    void pollReturnsCopiesWithEveryField()
    {
        fixture.clock.update(1_700_000_000_123L);
        publish(0, 3);
        try (StreamConsumer consumer = consumer(ConsumerConfig.standalone(), P0))
        {
            final List<ConsumerRecord> records = consumer.poll(10, 1 << 20, NO_WAIT);

            assertThat(records).extracting(ConsumerRecord::offset).containsExactly(0L, 1L, 2L);
            final ConsumerRecord second = records.get(1);
            assertThat(second.topic()).isEqualTo("events");
            assertThat(second.partition()).isZero();
            assertThat(second.timestamp()).isEqualTo(1_700_000_000_123L);
            assertThat(text(second.key())).isEqualTo("k1");
            assertThat(text(second.value())).isEqualTo("v1");
            assertThat(consumer.position(P0)).isEqualTo(3);
        }
    }

    @Test
    void maxRecordsAndMaxBytesBoundAPoll()
    {
        publish(0, 10);
        try (StreamConsumer consumer = consumer(ConsumerConfig.standalone(), P0))
        {
            assertThat(consumer.poll(4, 1 << 20, NO_WAIT)).hasSize(4);
            assertThat(consumer.poll(100, 1, NO_WAIT)).as("at least one record however small maxBytes is").hasSize(1);
            assertThat(consumer.poll(100, 1 << 20, NO_WAIT)).extracting(ConsumerRecord::offset)
                .containsExactly(5L, 6L, 7L, 8L, 9L);
        }
    }

    @Test
    void maxBytesIsOneBudgetSharedByThePartitionsOfAPoll()
    {
        final int frameBytes = 48; // a 40-byte header, a 2-byte key and a 2-byte value, aligned to 8
        publish(0, 5);
        publish(1, 5);
        try (StreamConsumer consumer = consumer(ConsumerConfig.standalone(), P0, P1))
        {
            final List<ConsumerRecord> polled = consumer.poll(100, 7 * frameBytes, NO_WAIT);

            assertThat(polled).as("five from one partition, then two from the other within the rest").hasSize(7);
            assertThat(polled).extracting(ConsumerRecord::partition).containsOnly(0, 1);
        }
    }

    @Test
    void pollReadsEveryAssignedPartition()
    {
        publish(0, 3);
        publish(1, 2);
        try (StreamConsumer consumer = consumer(ConsumerConfig.standalone(), P0, P1))
        {
            final List<ConsumerRecord> all = new ArrayList<>();
            for (int i = 0; i < 3 && all.size() < 5; i++)
            {
                all.addAll(consumer.poll(100, 1 << 20, NO_WAIT));
            }
            assertThat(all).hasSize(5);
            assertThat(all.stream().filter(r -> r.partition() == 1)).hasSize(2);
        }
    }

    @Test
    void seekMovesThePositionAnywhereInRange()
    {
        publish(0, 10);
        try (StreamConsumer consumer = consumer(ConsumerConfig.standalone(), P0))
        {
            consumer.seek(P0, 7);
            assertThat(consumer.poll(1, 1 << 20, NO_WAIT).get(0).offset()).isEqualTo(7);
            consumer.seekToBeginning(List.of(P0));
            assertThat(consumer.poll(1, 1 << 20, NO_WAIT).get(0).offset()).isZero();
            consumer.seekToEnd(List.of(P0));
            assertThat(consumer.position(P0)).isEqualTo(10);
            assertThat(consumer.poll(10, 1 << 20, SHORT_WAIT)).isEmpty();
        }
    }

    @Test
    void seekToTimestampFindsTheFirstRecordAtOrAfterIt()
    {
        for (int i = 0; i < 5; i++)
        {
            fixture.clock.update(1_000_000 + i * 1_000L);
            publish(0, 2);
        }
        try (StreamConsumer consumer = consumer(ConsumerConfig.standalone(), P0))
        {
            consumer.seekToTimestamp(P0, 1_002_500);
            assertThat(consumer.position(P0)).isEqualTo(6);
            consumer.seekToTimestamp(P0, 1_002_000);
            assertThat(consumer.position(P0)).isEqualTo(4);
            consumer.seekToTimestamp(P0, 9_000_000);
            assertThat(consumer.position(P0)).isEqualTo(10);
        }
    }

    @Test
    void longPollWakesWhenARecordArrives() throws InterruptedException
    {
        try (StreamConsumer consumer = consumer(ConsumerConfig.standalone(), P0, P1))
        {
            final AtomicReference<List<ConsumerRecord>> received = new AtomicReference<>();
            final Thread poller = new Thread(() -> received.set(consumer.poll(10, 1 << 20, LONG_WAIT)));
            final long started = System.nanoTime();
            poller.start();
            publish(1, 1);
            poller.join();

            assertThat(received.get()).extracting(ConsumerRecord::partition).containsExactly(1);
            assertThat(System.nanoTime() - started).isLessThan(LONG_WAIT.toNanos());
        }
    }

    @Test
    void pollWithNothingToReadReturnsEmptyAfterItsTimeout()
    {
        try (StreamConsumer consumer = consumer(ConsumerConfig.standalone(), P0))
        {
            assertThat(consumer.poll(10, 1 << 20, SHORT_WAIT)).isEmpty();
        }
    }

    @Test
    void resetPolicyDecidesWhereAnUnsetPositionStarts()
    {
        publish(0, 4);
        try (StreamConsumer earliest = consumer(ConsumerConfig.standalone(), P0);
            StreamConsumer latest = consumer(ConsumerConfig.standalone().withResetPolicy(OffsetResetPolicy.LATEST), P0);
            StreamConsumer strict = consumer(ConsumerConfig.standalone().withResetPolicy(OffsetResetPolicy.ERROR), P0))
        {
            assertThat(earliest.position(P0)).isZero();
            assertThat(latest.position(P0)).isEqualTo(4);
            assertThatThrownBy(() -> strict.poll(10, 1 << 20, NO_WAIT))
                .isInstanceOf(NoOffsetForPartitionException.class).hasMessageContaining("events-0");
            strict.seek(P0, 2);
            assertThat(strict.poll(10, 1 << 20, NO_WAIT)).hasSize(2);
        }
    }

    @Test
    void committedOffsetWinsOverTheResetPolicy()
    {
        publish(0, 5);
        engine.groups().commitStandalone("readers", Map.of(P0, 3L));
        try (StreamConsumer consumer = consumer(ConsumerConfig.group("readers").withAutoCommit(false, 0), P0))
        {
            assertThat(consumer.poll(10, 1 << 20, NO_WAIT)).extracting(ConsumerRecord::offset).containsExactly(3L, 4L);
            consumer.commitSync();
            assertThat(consumer.committed(P0)).isEqualTo(5);
        }
    }

    @Test
    void readerBelowLogStartGetsOffsetOutOfRangeWithTheEarliestOffset()
    {
        engine.createTopic("short", TopicConfig.of(1).withLog(EngineFixture.SMALL_SEGMENTS.toBuilder()
            .retentionBytes(64 * 1024).build()));
        final TopicPartition partition = new TopicPartition("short", 0);
        try (StreamConsumer consumer = engine.newConsumer(ConsumerConfig.standalone()))
        {
            consumer.assign(List.of(partition));
            consumer.seek(partition, 0);
            final byte[] value = new byte[4000];
            for (int i = 0; i < 100; i++)
            {
                producer.send("short", null, value).join();
            }
            assertThat(engine.runMaintenance()).isPositive();
            final long earliest = engine.describeTopic("short").partitions().get(0).startOffset();
            assertThat(earliest).isPositive();

            assertThatThrownBy(() -> consumer.poll(10, 1 << 20, NO_WAIT))
                .isInstanceOfSatisfying(OffsetOutOfRangeException.class, ex ->
                {
                    assertThat(ex.requestedOffset()).isZero();
                    assertThat(ex.earliestOffset()).isEqualTo(earliest);
                });
            assertThatThrownBy(() -> consumer.seek(partition, earliest - 1))
                .isInstanceOf(OffsetOutOfRangeException.class);
            consumer.seek(partition, earliest);
            assertThat(consumer.poll(1, 1 << 20, NO_WAIT).get(0).offset()).isEqualTo(earliest);
        }
    }

    @Test
    void misuseGetsSpecificErrors()
    {
        publish(0, 1);
        final StreamConsumer consumer = consumer(ConsumerConfig.standalone(), P0);
        assertThatThrownBy(() -> consumer.seek(P1, 0))
            .isInstanceOf(PartitionNotAssignedException.class).hasMessageContaining("events-1 is not assigned");
        assertThatThrownBy(() -> consumer.seek(P0, 2)).isInstanceOf(OffsetOutOfRangeException.class);
        assertThatThrownBy(() -> consumer.commitSync())
            .isInstanceOf(InvalidGroupException.class).hasMessageContaining("no group id");
        assertThatThrownBy(() -> consumer.subscribe("events", "g"))
            .isInstanceOf(IllegalClientStateException.class).hasMessageContaining("assigned partitions");
        assertThatThrownBy(() -> consumer.assign(List.of(new TopicPartition("missing", 0))))
            .isInstanceOf(UnknownTopicException.class);
        assertThatThrownBy(() -> consumer.assign(List.of(new TopicPartition("events", 9))))
            .isInstanceOf(UnknownPartitionException.class);
        consumer.close();
        assertThatThrownBy(() -> consumer.poll(1, 1, NO_WAIT)).isInstanceOf(EngineClosedException.class);
    }

    @Test
    void reassignKeepsPositionsOfPartitionsThatStay()
    {
        publish(0, 5);
        publish(1, 5);
        try (StreamConsumer consumer = consumer(ConsumerConfig.standalone(), P0))
        {
            consumer.seek(P0, 3);
            consumer.assign(List.of(P0, P1));
            assertThat(consumer.position(P0)).isEqualTo(3);
            assertThat(consumer.assignment()).containsExactlyInAnyOrder(P0, P1);
            consumer.assign(List.of(P1));
            assertThat(consumer.assignment()).containsExactly(P1);
        }
    }

    @Test
    void groupMisuseAndBadPollLimitsGetSpecificErrors()
    {
        try (StreamConsumer subscribed = engine.newConsumer(ConsumerConfig.group("g"));
            StreamConsumer standalone = engine.newConsumer(ConsumerConfig.standalone()))
        {
            subscribed.subscribe("events", "g");
            assertThatThrownBy(() -> subscribed.assign(List.of(P0)))
                .isInstanceOf(IllegalClientStateException.class).hasMessageContaining("subscribed to group \"g\"");
            assertThatThrownBy(() -> subscribed.subscribe("events", "g"))
                .isInstanceOf(IllegalClientStateException.class);
            assertThatThrownBy(() -> engine.newConsumer(ConsumerConfig.group("g")).subscribe("events", "other"))
                .isInstanceOf(InvalidGroupException.class).hasMessageContaining("configured for group \"g\"");
            assertThatThrownBy(() -> standalone.committed(P0))
                .isInstanceOf(InvalidGroupException.class).hasMessageContaining("no group id");
            assertThatThrownBy(() -> standalone.poll(0, 100, NO_WAIT))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("must be positive");
        }
    }

    @Test
    void badConsumerSettingsAreRejected()
    {
        assertThatThrownBy(() -> ConsumerConfig.standalone().withAutoCommit(true, 100))
            .isInstanceOf(InvalidGroupException.class).hasMessageContaining("auto-commit needs a group id");
        assertThatThrownBy(() -> ConsumerConfig.group("g").withAutoCommit(true, -1))
            .isInstanceOf(InvalidGroupException.class).hasMessageContaining("must be >= 0");
        assertThatThrownBy(() -> ConsumerConfig.group("g").withResetPolicy(null))
            .isInstanceOf(InvalidGroupException.class).hasMessageContaining("reset policy");
        assertThatThrownBy(() -> ConsumerConfig.group("g").withSessionTimeout(0))
            .isInstanceOf(InvalidGroupException.class).hasMessageContaining("session timeout must be positive");
        assertThatThrownBy(() -> new StreamEngineConfig(null, true))
            .isInstanceOf(InvalidRequestException.class).hasMessageContaining("log store settings");
        assertThatThrownBy(() -> ConsumerConfig.group("g").withAssignor("best"))
            .isInstanceOf(InvalidGroupException.class).hasMessageContaining("unknown assignor");
    }

    @Test
    void readingATopicDeletedUnderneathSaysSo()
    {
        publish(0, 2);
        try (StreamConsumer consumer = consumer(ConsumerConfig.standalone(), P0))
        {
            consumer.poll(1, 1 << 20, NO_WAIT);
            engine.deleteTopic("events");
            assertThatThrownBy(() -> consumer.poll(1, 1 << 20, NO_WAIT))
                .isInstanceOf(UnknownTopicException.class).hasMessageContaining("was deleted");
        }
    }

    @Test
    void aHandlerThatThrowsGetsTheFailedRecordAgainOnTheNextPoll()
    {
        publish(0, 5);
        try (StreamConsumer consumer = consumer(ConsumerConfig.standalone(), P0))
        {
            assertThatThrownBy(() -> consumer.poll((topic, partition, view) ->
            {
                if (view.offset() == 2)
                {
                    throw new IllegalStateException("handler failed on offset 2");
                }
            }, 10, 1 << 20, NO_WAIT)).hasMessageContaining("offset 2");

            assertThat(consumer.position(P0)).isEqualTo(2);
            assertThat(consumer.poll(10, 1 << 20, NO_WAIT)).extracting(ConsumerRecord::offset)
                .containsExactly(2L, 3L, 4L);
        }
    }

    @Test
    void consumerOfAClosedEngineSaysSoAndStillCloses()
    {
        final StreamConsumer consumer = consumer(ConsumerConfig.group("g"), P0);
        consumer.poll(1, 1, NO_WAIT);
        engine.close();
        assertThatThrownBy(() -> consumer.poll(1, 1, NO_WAIT))
            .isInstanceOf(EngineClosedException.class).hasMessageContaining("stream engine of this consumer is closed");
        consumer.close();
    }
}
