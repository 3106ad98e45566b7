package io.spool.stream;

import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static io.spool.stream.EngineFixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;

class LogAppendTimeTest
{
    @TempDir
    Path dir;

    @Test
    void aTopicThatKeepsAppendTimesStampsEveryRecordWithTheAppendTimeAndSaysSoAfterAReopen()
    {
        final EngineFixture fixture = new EngineFixture(dir);
        final long appendTime = fixture.clock.time();
        try (StreamEngine engine = fixture.open())
        {
            engine.createTopic("appended", EngineFixture.topic(1).withLog(
                EngineFixture.SMALL_SEGMENTS.toBuilder().logAppendTime(true).build()));
            engine.createTopic("created", EngineFixture.topic(1));
            engine.newProducer().send(ProducerRecord.toPartition("appended", 0, null, bytes("a")).withTimestamp(42))
                .join();
            engine.newProducer().send(ProducerRecord.toPartition("created", 0, null, bytes("c")).withTimestamp(42))
                .join();
        }
        try (StreamEngine engine = fixture.open())
        {
            assertThat(engine.describeTopic("appended").config().log().logAppendTime()).isTrue();
            assertThat(engine.describeTopic("created").config().log().logAppendTime()).isFalse();
            assertThat(firstTimestamp(engine, "appended")).isEqualTo(appendTime);
            assertThat(firstTimestamp(engine, "created")).isEqualTo(42);
        }
    }

    private static long firstTimestamp(final StreamEngine engine, final String topic)
    {
        try (StreamConsumer consumer = engine.newConsumer(ConsumerConfig.standalone()))
        {
            final TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            return consumer.poll(1, 1 << 16, Duration.ofSeconds(10)).get(0).timestamp();
        }
    }
}
