package io.spool.stream;

import io.spool.api.log.Durability;
import io.spool.api.stream.InvalidTopicException;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicDescription;
import io.spool.api.stream.UnknownTopicException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static io.spool.stream.EngineFixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TopicRetentionChangeTest
{
    private static final long HOUR = 3_600_000L;

    @TempDir
    Path dir;

    private static void fillSegments(final StreamEngine engine, final int segments)
    {
        final StreamProducer producer = engine.newProducer();
        final byte[] value = new byte[8 * 1024];
        while (engine.describeTopic("events").partitions().get(0).segmentCount() < segments)
        {
            producer.send("events", bytes("k"), value).join();
        }
    }

    @Test
    void aLoweredAgeLimitDeletesTheSegmentsItNowExcludesAtTheNextPass()
    {
        final EngineFixture fixture = new EngineFixture(dir);
        try (StreamEngine engine = fixture.open())
        {
            engine.createTopic("events", EngineFixture.topic(1));
            fillSegments(engine, 4);
            fixture.clock.advance(2 * HOUR);
            assertThat(engine.runMaintenance()).as("kept forever before the change").isZero();

            final TopicConfig changed = engine.describeTopic("events").config().withRetention(HOUR, -1);
            engine.alterTopic("events", changed);

            assertThat(engine.describeTopic("events").config().log().retentionMillis()).isEqualTo(HOUR);
            assertThat(engine.runMaintenance()).isEqualTo(3);
            final TopicDescription.PartitionDescription partition = engine.describeTopic("events").partitions().get(0);
            assertThat(partition.segmentCount()).isEqualTo(1);
            assertThat(partition.startOffset()).isPositive();
        }
    }

    @Test
    void aLoweredSizeLimitDeletesTheOldestSegmentsAtTheNextPass()
    {
        final EngineFixture fixture = new EngineFixture(dir);
        try (StreamEngine engine = fixture.open())
        {
            engine.createTopic("events", EngineFixture.topic(1));
            fillSegments(engine, 5);
            assertThat(engine.runMaintenance()).isZero();

            engine.alterTopic("events", engine.describeTopic("events").config().withRetention(-1, 1));

            assertThat(engine.runMaintenance()).as("every closed segment keeps the log above one byte").isEqualTo(4);
            assertThat(engine.describeTopic("events").partitions().get(0).segmentCount()).isEqualTo(1);
        }
    }

    @Test
    void theChangedLimitsSurviveARestartWithTheOtherSettings()
    {
        final EngineFixture fixture = new EngineFixture(dir);
        final TopicConfig created = EngineFixture.topic(3)
            .withLog(EngineFixture.SMALL_SEGMENTS.toBuilder().durability(Durability.EVERY_BATCH).build())
            .withDedupByContent(true);
        try (StreamEngine engine = fixture.open())
        {
            engine.createTopic("events", created);
            engine.alterTopic("events", created.withRetention(7 * HOUR, 5_000_000));
        }
        try (StreamEngine engine = fixture.open())
        {
            final TopicConfig reopened = engine.describeTopic("events").config();
            assertThat(reopened.log().retentionMillis()).isEqualTo(7 * HOUR);
            assertThat(reopened.log().retentionBytes()).isEqualTo(5_000_000);
            assertThat(reopened).usingRecursiveComparison().isEqualTo(created.withRetention(7 * HOUR, 5_000_000));
            assertThat(engine.topics().topic("events").partition(2).config().retentionMillis()).isEqualTo(7 * HOUR);
        }
    }

    @Test
    void aFixedSettingIsRefusedByNameAndNothingChanges()
    {
        final EngineFixture fixture = new EngineFixture(dir);
        try (StreamEngine engine = fixture.open())
        {
            final TopicConfig created = EngineFixture.topic(2);
            engine.createTopic("events", created);
            final TopicConfig biggerSegments = created.withLog(created.log().toBuilder()
                .segmentBytes(created.log().segmentBytes() * 2).retentionMillis(HOUR).build());

            assertThatThrownBy(() -> engine.alterTopic("events", biggerSegments))
                .isInstanceOf(InvalidTopicException.class)
                .hasMessageStartingWith("segment.bytes cannot be changed on a live topic; topic \"events\" keeps 65536")
                .hasMessageContaining("[retention.bytes, retention.ms]");
            assertThatThrownBy(() -> engine.alterTopic("events", TopicConfig.of(3).withLog(created.log())))
                .isInstanceOf(InvalidTopicException.class)
                .hasMessageStartingWith("partitions cannot be changed on a live topic");
            assertThatThrownBy(() -> engine.alterTopic("events",
                created.withLog(created.log().toBuilder().durability(Durability.EVERY_BATCH).build())))
                .hasMessageStartingWith("durability cannot be changed on a live topic");
            assertThat(engine.describeTopic("events").config()).usingRecursiveComparison().isEqualTo(created);
        }
    }

    @Test
    void anUnknownTopicOrAnOutOfRangeLimitIsRefused()
    {
        final EngineFixture fixture = new EngineFixture(dir);
        try (StreamEngine engine = fixture.open())
        {
            engine.createTopic("events", EngineFixture.topic(1));
            assertThatThrownBy(() -> engine.alterTopic("missing", EngineFixture.topic(1).withRetention(HOUR, -1)))
                .isInstanceOf(UnknownTopicException.class)
                .hasMessageContaining("\"missing\"");
            assertThatThrownBy(() -> EngineFixture.topic(1).withRetention(0, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("retentionMillis must be positive or -1");
            assertThatThrownBy(() -> engine.alterTopic("events", null))
                .isInstanceOf(InvalidTopicException.class)
                .hasMessageContaining("needs settings to change to");
        }
    }
}
