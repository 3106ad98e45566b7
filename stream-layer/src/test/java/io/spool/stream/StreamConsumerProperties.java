package io.spool.stream;

import io.spool.api.stream.ConsumerRecord;
import io.spool.api.stream.KeyPartitioner;
import io.spool.api.stream.PublishResult;
import io.spool.api.stream.TopicPartition;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Publishes, seeks, polls and reopens in random order against a list per partition: every poll returns exactly
 * the model's next records from the position, with their keys and values, and never more than asked.
 */
class StreamConsumerProperties
{
    private static final int PARTITIONS = 3;

    /** 0-3 publish by key, 4 publish without key, 5-6 poll, 7 seek, 8 seek to end, 9 reopen. */
    record Step(int kind, int partition, int number, int limit)
    {
    }

    @Provide
    Arbitrary<Step> steps()
    {
        return Combinators.combine(
            Arbitraries.integers().between(0, 9),
            Arbitraries.integers().between(0, PARTITIONS - 1),
            Arbitraries.integers().between(0, 40),
            Arbitraries.integers().between(1, 6)).as(Step::new);
    }

    @Property(tries = 25)
    void pollsFollowTheModel(@ForAll @Size(max = 40) final List<@From("steps") Step> steps) throws IOException
    {
        final Path dir = Files.createTempDirectory("consumer-property");
        final List<List<byte[]>> model = new ArrayList<>();
        final long[] positions = new long[PARTITIONS];
        for (int p = 0; p < PARTITIONS; p++)
        {
            model.add(new ArrayList<>());
        }
        final EngineFixture fixture = new EngineFixture(dir);
        StreamEngine engine = fixture.open();
        engine.createTopic("model", EngineFixture.topic(PARTITIONS));
        StreamConsumer consumer = assignAll(engine, positions);
        StreamProducer producer = engine.newProducer();
        try
        {
            int published = 0;
            for (final Step step : steps)
            {
                switch (step.kind())
                {
                    case 0, 1, 2, 3, 4 ->
                    {
                        final byte[] key = step.kind() == 4 ? null : EngineFixture.bytes("key-" + step.number());
                        final byte[] value = EngineFixture.bytes("value-" + published++);
                        final PublishResult result = producer.send("model", key, value).join();
                        final List<byte[]> partition = model.get(result.partition());
                        assertThat(result.offset()).isEqualTo(partition.size());
                        if (key != null)
                        {
                            assertThat(result.partition()).isEqualTo(KeyPartitioner.partitionForKey(key, PARTITIONS));
                        }
                        partition.add(value);
                    }
                    case 5, 6 -> pollAndCompare(consumer, model, positions, step.limit());
                    case 7 ->
                    {
                        final long offset = Math.min(step.number(), model.get(step.partition()).size());
                        consumer.seek(new TopicPartition("model", step.partition()), offset);
                        positions[step.partition()] = offset;
                    }
                    case 8 ->
                    {
                        consumer.seekToEnd(List.of(new TopicPartition("model", step.partition())));
                        positions[step.partition()] = model.get(step.partition()).size();
                    }
                    default ->
                    {
                        consumer.close();
                        engine.close();
                        engine = fixture.open();
                        consumer = assignAll(engine, positions);
                        producer = engine.newProducer();
                    }
                }
            }
            int drained;
            do
            {
                drained = pollAndCompare(consumer, model, positions, 100);
            }
            while (drained > 0);
            for (int p = 0; p < PARTITIONS; p++)
            {
                assertThat(positions[p]).isEqualTo(model.get(p).size());
            }
        }
        finally
        {
            consumer.close();
            engine.close();
            deleteTree(dir);
        }
    }

    private static StreamConsumer assignAll(final StreamEngine engine, final long[] positions)
    {
        final StreamConsumer consumer = engine.newConsumer(ConsumerConfig.standalone());
        final List<TopicPartition> partitions = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++)
        {
            partitions.add(new TopicPartition("model", p));
        }
        consumer.assign(partitions);
        for (int p = 0; p < PARTITIONS; p++)
        {
            consumer.seek(partitions.get(p), positions[p]);
        }
        return consumer;
    }

    private static int pollAndCompare(final StreamConsumer consumer, final List<List<byte[]>> model,
        final long[] positions, final int limit)
    {
        final List<ConsumerRecord> records = consumer.poll(limit, 1 << 20, EngineFixture.NO_WAIT);
        assertThat(records.size()).isLessThanOrEqualTo(limit);
        for (final ConsumerRecord record : records)
        {
            final int partition = record.partition();
            assertThat(record.offset()).isEqualTo(positions[partition]);
            assertThat(Arrays.equals(record.value(), model.get(partition).get((int)record.offset()))).isTrue();
            positions[partition]++;
        }
        return records.size();
    }

    private static void deleteTree(final Path dir)
    {
        try (Stream<Path> paths = Files.walk(dir))
        {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList())
            {
                Files.delete(path);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
