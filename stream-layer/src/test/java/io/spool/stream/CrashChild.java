package io.spool.stream;

import io.spool.api.stream.ConsumerRecord;
import io.spool.api.stream.PublishResult;
import io.spool.api.stream.TopicPartition;
import io.spool.log.LogStoreConfig;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Run in a child JVM by {@link StreamCrashTest}: publishes and consumes in a group forever, committing after every
 * poll, and prints each confirmed offset and each returned commit, until the parent kills it with SIGKILL.
 */
final class CrashChild
{
    private CrashChild()
    {
    }

    public static void main(final String[] args)
    {
        final StreamEngine engine = StreamEngine.open(Path.of(args[0]), new StreamEngineConfig(
            LogStoreConfig.builder().backgroundMaintenance(false).build(), false));
        if (engine.topics().topicOrNull("crash") == null)
        {
            engine.createTopic("crash", EngineFixture.topic(1));
        }
        final StreamProducer producer = engine.newProducer();
        final StreamConsumer consumer = engine.newConsumer(ConsumerConfig.group("survivors").withAutoCommit(false, 0));
        consumer.subscribe("crash", "survivors");
        final TopicPartition partition = new TopicPartition("crash", 0);
        for (long i = 0; ; i++)
        {
            final PublishResult published = producer.send("crash", null, EngineFixture.bytes("record-" + i)).join();
            System.out.println("published " + published.offset());
            final List<ConsumerRecord> records = consumer.poll(10, 1 << 20, Duration.ZERO);
            if (!records.isEmpty())
            {
                consumer.commitSync();
                System.out.println("committed " + consumer.position(partition));
            }
            System.out.flush();
        }
    }
}
