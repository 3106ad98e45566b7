package io.spool.stream;

import io.spool.api.log.DedupKey;
import io.spool.api.stream.KeyPartitioner;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.PublishResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.spool.stream.EngineFixture.bytes;
import static io.spool.stream.EngineFixture.topic;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Dedup through the stream producer's convenience paths, on the log store's dedup window.
 */
class StreamDedupTest
{
    @TempDir
    Path dir;

    private EngineFixture fixture;
    private StreamEngine engine;

    @BeforeEach
    void open()
    {
        fixture = new EngineFixture(dir);
        engine = fixture.open();
        engine.createTopic("orders", topic(4));
        engine.createTopic("hashed", topic(4).withDedupByContent(true));
    }

    @AfterEach
    void close()
    {
        engine.close();
    }

    private static ProducerRecord withId(final String topic, final String id, final String value)
    {
        return new ProducerRecord(topic, ProducerRecord.ANY_PARTITION, null, Map.of(DedupKey.HEADER, bytes(id)),
            bytes(value));
    }

    @Test
    void aKeylessRepeatOfADedupIdLandsOnTheSamePartitionAndGetsTheFirstOffset()
    {
        final StreamProducer producer = engine.newProducer();
        final PublishResult first = producer.send(withId("orders", "B0", "first")).join();
        producer.send(withId("orders", "B1", "other")).join();
        final PublishResult again = producer.send(withId("orders", "B0", "second")).join();
        final List<PublishResult> batch = producer.sendBatch(List.of(withId("orders", "B0", "third"),
            withId("orders", "B2", "new"))).join();

        assertThat(first.partition()).isEqualTo(KeyPartitioner.partitionForKey(bytes("B0"), 4));
        assertThat(again).isEqualTo(first);
        assertThat(batch.get(0)).isEqualTo(first);
        assertThat(engine.topics().topic("orders").partition(first.partition()).endOffset())
            .isEqualTo(first.partition() == batch.get(1).partition() ? 2 : 1);
    }

    @Test
    void aTopicThatDedupsByContentStoresEachKeyAndValueOnceAcrossARestart()
    {
        StreamProducer producer = engine.newProducer();
        final PublishResult first = producer.send("hashed", bytes("k"), bytes("same")).join();
        assertThat(producer.send("hashed", bytes("k"), bytes("same")).join()).isEqualTo(first);
        assertThat(producer.send("hashed", bytes("k"), bytes("different")).join().offset())
            .isEqualTo(first.offset() + 1);
        engine.close();
        engine = fixture.open();
        producer = engine.newProducer();

        assertThat(engine.topics().topic("hashed").config().dedupByContent()).isTrue();
        assertThat(producer.send("hashed", bytes("k"), bytes("same")).join()).isEqualTo(first);
        fixture.clock.advance(5 * 60_000 + 1);
        assertThat(producer.send("hashed", bytes("k"), bytes("same")).join().offset())
            .isEqualTo(first.offset() + 2);
    }

    @Test
    void keyAndValueSplitDifferentlyAreDifferentContent()
    {
        assertThat(StreamProducer.contentId(bytes("ab"), bytes("c")))
            .isNotEqualTo(StreamProducer.contentId(bytes("a"), bytes("bc")));
        assertThat(StreamProducer.contentId(null, bytes("")))
            .isNotEqualTo(StreamProducer.contentId(bytes(""), null));
    }
}
