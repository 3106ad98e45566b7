package io.spool.stream;

import io.spool.api.log.OffsetOutOfRangeException;
import io.spool.api.stream.ConsumerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static io.spool.stream.EngineFixture.LONG_WAIT;
import static io.spool.stream.EngineFixture.NO_WAIT;
import static io.spool.stream.EngineFixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;

class ReplayAndRetentionTest
{
    private static final TopicPartition P0 = new TopicPartition("replay", 0);

    @TempDir
    Path dir;

    /** Reads offsets [from, to) as the stored frames, byte for byte, through the zero-copy path. */
    private static byte[] framesOf(final StreamConsumer consumer, final long from, final long to)
    {
        final ByteArrayOutputStream frames = new ByteArrayOutputStream();
        consumer.seek(P0, from);
        final long[] read = {from};
        while (read[0] < to)
        {
            consumer.poll((topic, partition, view) ->
            {
                if (view.offset() < to)
                {
                    final byte[] frame = new byte[view.frameLength()];
                    view.buffer().getBytes(view.frameOffset(), frame);
                    frames.writeBytes(frame);
                    read[0] = view.offset() + 1;
                }
            }, (int)(to - read[0]), 1 << 20, LONG_WAIT);
        }
        return frames.toByteArray();
    }

    @Test
    void replayingARangeGivesIdenticalBytesWhileTheWriterAndOtherReadersCarryOn() throws InterruptedException
    {
        final EngineFixture fixture = new EngineFixture(dir);
        try (StreamEngine engine = fixture.open())
        {
            engine.createTopic("replay", EngineFixture.topic(1));
            final StreamProducer producer = engine.newProducer();
            for (int i = 0; i < 500; i++)
            {
                producer.send("replay", bytes("key" + i), bytes("value-" + i + "-".repeat(i % 50))).join();
            }
            final AtomicBoolean stop = new AtomicBoolean();
            final Thread writer = new Thread(() ->
            {
                final StreamProducer background = engine.newProducer();
                int i = 0;
                while (!stop.get())
                {
                    background.send("replay", null, bytes("more-" + i++)).join();
                }
            });
            final Thread otherReader = new Thread(() ->
            {
                try (StreamConsumer other = engine.newConsumer(ConsumerConfig.standalone()))
                {
                    other.assign(List.of(P0));
                    while (!stop.get())
                    {
                        other.poll(7, 1 << 20, EngineFixture.SHORT_WAIT);
                        if (other.position(P0) > 400)
                        {
                            other.seek(P0, 13);
                        }
                    }
                }
            });
            writer.start();
            otherReader.start();
            try (StreamConsumer first = engine.newConsumer(ConsumerConfig.standalone());
                StreamConsumer second = engine.newConsumer(ConsumerConfig.standalone()))
            {
                first.assign(List.of(P0));
                second.assign(List.of(P0));
                final byte[] once = framesOf(first, 100, 450);
                final byte[] again = framesOf(first, 100, 450);
                final byte[] byAnother = framesOf(second, 100, 450);

                assertThat(once).isNotEmpty().isEqualTo(again).isEqualTo(byAnother);
                first.seek(P0, 100);
                final List<ConsumerRecord> copies = first.poll(350, 1 << 20, NO_WAIT);
                first.seek(P0, 100);
                assertThat(first.poll(350, 1 << 20, NO_WAIT)).isEqualTo(copies);
            }
            finally
            {
                stop.set(true);
                writer.join();
                otherReader.join();
            }
        }
    }

    @Test
    void retentionRacingASlowReaderOnlyEverMovesItForward() throws InterruptedException
    {
        final EngineFixture fixture = new EngineFixture(dir);
        try (StreamEngine engine = fixture.open())
        {
            engine.createTopic("replay", TopicConfig.of(1).withLog(EngineFixture.SMALL_SEGMENTS.toBuilder()
                .retentionBytes(128 * 1024).build()));
            final int total = 3_000;
            final AtomicReference<Throwable> writerFailure = new AtomicReference<>();
            final Thread writer = new Thread(() ->
            {
                try
                {
                    final StreamProducer producer = engine.newProducer();
                    final byte[] value = new byte[1000];
                    for (int i = 0; i < total; i++)
                    {
                        producer.send("replay", null, value).join();
                        if (i % 50 == 0)
                        {
                            engine.runMaintenance();
                        }
                    }
                }
                catch (final Throwable ex)
                {
                    writerFailure.set(ex);
                }
            });
            writer.start();

            final List<Long> offsets = new ArrayList<>();
            int outOfRange = 0;
            boolean fellBehind = false;
            try (StreamConsumer slow = engine.newConsumer(ConsumerConfig.standalone()))
            {
                slow.assign(List.of(P0));
                while (offsets.isEmpty() || offsets.get(offsets.size() - 1) < total - 1)
                {
                    if (offsets.size() >= 10 && !fellBehind)
                    {
                        fellBehind = true;
                        // fall far behind once, so retention certainly passes the reader
                        EngineFixture.awaitCondition("the writer is 1500 records ahead", () ->
                            engine.describeTopic("replay").partitions().get(0).endOffset() > 1_500);
                    }
                    try
                    {
                        slow.poll((topic, partition, view) -> offsets.add(view.offset()), 3, 1 << 20, LONG_WAIT);
                    }
                    catch (final OffsetOutOfRangeException ex)
                    {
                        outOfRange++;
                        assertThat(ex.earliestOffset()).isGreaterThan(ex.requestedOffset());
                        slow.seekToBeginning(List.of(P0));
                    }
                }
            }
            writer.join();

            assertThat(writerFailure.get()).isNull();
            for (int i = 1; i < offsets.size(); i++)
            {
                assertThat(offsets.get(i)).isGreaterThan(offsets.get(i - 1));
            }
            final long skips = countGaps(offsets);
            assertThat(outOfRange).isPositive();
            assertThat(skips).isPositive().isLessThanOrEqualTo(outOfRange);
            assertThat(engine.describeTopic("replay").partitions().get(0).startOffset()).isPositive();
        }
    }

    private static long countGaps(final List<Long> offsets)
    {
        long gaps = 0;
        for (int i = 1; i < offsets.size(); i++)
        {
            if (offsets.get(i) != offsets.get(i - 1) + 1)
            {
                gaps++;
            }
        }
        return gaps;
    }
}
