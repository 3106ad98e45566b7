package io.spool.stream;

import io.spool.api.log.Durability;
import io.spool.api.log.LogConfig;
import io.spool.api.stream.InvalidTopicException;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicDescription;
import io.spool.api.stream.TopicExistsException;
import io.spool.api.stream.TopicPartition;
import io.spool.api.stream.UnknownPartitionException;
import io.spool.api.stream.UnknownTopicException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.spool.stream.EngineFixture.bytes;
import static io.spool.stream.EngineFixture.topic;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TopicsTest
{
    @TempDir
    Path dir;

    @Test
    void createdTopicsAreListedAndDescribed()
    {
        final EngineFixture fixture = new EngineFixture(dir);
        try (StreamEngine engine = fixture.open())
        {
            engine.createTopic("orders", topic(3));
            engine.createTopic("audit", topic(1));
            engine.newProducer().send("orders", bytes("k"), bytes("v")).join();

            assertThat(engine.listTopics()).containsExactly("audit", "orders");
            final TopicDescription description = engine.describeTopic("orders");
            assertThat(description.partitions()).hasSize(3);
            assertThat(description.partitions().stream().mapToLong(p -> p.endOffset()).sum()).isEqualTo(1);
            assertThat(description.config().log().segmentBytes()).isEqualTo(64 * 1024);
        }
    }

    @Test
    void reopenedEngineHasEveryTopicWithItsSettingsAndData()
    {
        final EngineFixture fixture = new EngineFixture(dir);
        final LogConfig custom = EngineFixture.SMALL_SEGMENTS.toBuilder()
            .retentionMillis(60_000)
            .retentionBytes(1 << 20)
            .durability(Durability.interval(25))
            .dedupWindowMillis(90_000)
            .build();
        try (StreamEngine engine = fixture.open())
        {
            engine.createTopic("orders", TopicConfig.of(4).withLog(custom));
            engine.createTopic("durable", TopicConfig.of(1).withLog(
                EngineFixture.SMALL_SEGMENTS.toBuilder().durability(Durability.EVERY_BATCH).build()));
            engine.newProducer().send(ProducerRecord.toPartition("orders", 2, null, bytes("kept"))).join();
        }
        try (StreamEngine engine = fixture.open())
        {
            assertThat(engine.listTopics()).containsExactly("durable", "orders");
            final TopicConfig config = engine.describeTopic("orders").config();
            assertThat(config.partitions()).isEqualTo(4);
            assertThat(config.log().retentionMillis()).isEqualTo(60_000);
            assertThat(config.log().retentionBytes()).isEqualTo(1 << 20);
            assertThat(config.log().durability()).isEqualTo(Durability.interval(25));
            assertThat(config.log().dedupWindowMillis()).isEqualTo(90_000);
            assertThat(config.log().segmentBytes()).isEqualTo(custom.segmentBytes());
            assertThat(config.log().maxRecordBytes()).isEqualTo(custom.maxRecordBytes());
            assertThat(config.log().indexIntervalBytes()).isEqualTo(custom.indexIntervalBytes());
            assertThat(engine.describeTopic("durable").config().log().durability()).isEqualTo(Durability.EVERY_BATCH);
            assertThat(engine.describeTopic("orders").partitions().get(2).endOffset()).isEqualTo(1);
        }
    }

    @Test
    void badNamesDuplicatesAndUnknownTopicsGetSpecificErrors()
    {
        final EngineFixture fixture = new EngineFixture(dir);
        try (StreamEngine engine = fixture.open())
        {
            engine.createTopic("orders", topic(2));

            assertThatThrownBy(() -> engine.createTopic("bad name", topic(1)))
                .isInstanceOf(InvalidTopicException.class).hasMessageContaining("' ' at index 3");
            assertThatThrownBy(() -> engine.createTopic("..", topic(1)))
                .isInstanceOf(InvalidTopicException.class).hasMessageContaining("reserved");
            assertThatThrownBy(() -> engine.createTopic("orders", topic(5)))
                .isInstanceOf(TopicExistsException.class).hasMessageContaining("already exists with 2 partitions");
            assertThatThrownBy(() -> engine.describeTopic("nope"))
                .isInstanceOf(UnknownTopicException.class).hasMessageContaining("\"nope\" does not exist");
            assertThatThrownBy(() -> engine.deleteTopic("nope")).isInstanceOf(UnknownTopicException.class);
            assertThatThrownBy(() -> engine.newProducer().send("nope", null, bytes("x")))
                .isInstanceOf(UnknownTopicException.class);
            assertThatThrownBy(() -> engine.topics().topic("orders").partition(2))
                .isInstanceOf(UnknownPartitionException.class).hasMessageContaining("there is no partition 2");
            assertThatThrownBy(() -> TopicConfig.of(0))
                .isInstanceOf(InvalidTopicException.class).hasMessageContaining("was 0");
            assertThatThrownBy(() -> TopicConfig.of(TopicConfig.MAX_PARTITIONS + 1))
                .isInstanceOf(InvalidTopicException.class).hasMessageContaining("between 1 and");
            assertThatThrownBy(() -> new TopicConfig(1, null))
                .isInstanceOf(InvalidTopicException.class).hasMessageContaining("log settings");
            assertThatThrownBy(() -> new TopicPartition(null, 0)).isInstanceOf(InvalidTopicException.class);
            assertThatThrownBy(() -> engine.createTopic("nosettings", null))
                .isInstanceOf(InvalidTopicException.class).hasMessageContaining("needs settings");
            assertThat(engine.listTopics()).containsExactly("orders");
        }
    }

    @Test
    void deleteRemovesDataAndOffsetsAndSurvivesReopen()
    {
        final EngineFixture fixture = new EngineFixture(dir);
        try (StreamEngine engine = fixture.open())
        {
            engine.createTopic("orders", topic(2));
            engine.createTopic("kept", topic(1));
            engine.newProducer().send(ProducerRecord.toPartition("orders", 0, null, bytes("x"))).join();
            engine.groups().commitStandalone("g", Map.of(new TopicPartition("orders", 0), 1L,
                new TopicPartition("kept", 0), 0L));

            engine.deleteTopic("orders");

            assertThat(engine.listTopics()).containsExactly("kept");
            assertThat(dir.resolve("topics").resolve("orders")).doesNotExist();
            assertThat(engine.groups().committedOffsets("g")).containsOnlyKeys(new TopicPartition("kept", 0));
        }
        try (StreamEngine engine = fixture.open())
        {
            assertThat(engine.listTopics()).containsExactly("kept");
            engine.createTopic("orders", topic(1));
            assertThat(engine.describeTopic("orders").partitions().get(0).endOffset()).isZero();
        }
    }

    @Test
    void directoriesNoTopicClaimsAreRemovedOnOpen() throws IOException
    {
        final EngineFixture fixture = new EngineFixture(dir);
        try (StreamEngine engine = fixture.open())
        {
            engine.createTopic("orders", topic(1));
        }
        Files.createDirectories(dir.resolve("topics").resolve("ghost").resolve("0"));
        Files.createDirectories(dir.resolve("topics").resolve("orders").resolve("7"));

        try (StreamEngine engine = fixture.open())
        {
            assertThat(dir.resolve("topics").resolve("ghost")).doesNotExist();
            assertThat(dir.resolve("topics").resolve("orders").resolve("7")).doesNotExist();
            assertThat(dir.resolve("topics").resolve("orders").resolve("0")).exists();
            assertThat(engine.listTopics()).isEqualTo(List.of("orders"));
        }
    }
}
