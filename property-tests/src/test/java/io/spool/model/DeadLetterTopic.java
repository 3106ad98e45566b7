package io.spool.model;

import io.spool.Spool;
import io.spool.api.stream.ConsumerRecord;
import io.spool.api.stream.TopicPartition;
import io.spool.queue.DeathHistory;
import io.spool.stream.ConsumerConfig;
import io.spool.stream.StreamConsumer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dead-letter topic of the property's subscription, read as the engine fills it: every letter read so far, and
 * after each restart the reading goes on where it stopped. Not thread-safe.
 */
final class DeadLetterTopic
{
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final String topic;
    private final List<QueueModel.DeadLetter> read = new ArrayList<>();
    private StreamConsumer reader;

    DeadLetterTopic(final String topic)
    {
        this.topic = topic;
    }

    void open(final Spool spool)
    {
        reader = spool.newConsumer(ConsumerConfig.standalone());
        final TopicPartition partition = new TopicPartition(topic, 0);
        reader.assign(List.of(partition));
        reader.seek(partition, read.size());
    }

    void close()
    {
        reader.close();
    }

    /**
     * Dead letters are published as messages die, so they may arrive a little after the step that killed them:
     * reads until there are {@code count}.
     *
     * @return every letter read so far, in the order they arrived.
     */
    List<QueueModel.DeadLetter> readAtLeast(final int count)
    {
        while (read.size() < count)
        {
            assertThat(readMore()).as("dead letters %d of %d arrive", read.size() + 1, count).isTrue();
        }
        return List.copyOf(read);
    }

    /**
     * Which of several equally old messages the engine's drop-head dropped: the one its maxlen letter names. Each
     * message dies at most once, so a letter for one of them can only be this drop. If none arrives, the first is
     * taken, and the comparison of all dead letters says what went wrong.
     */
    QueueMessage dropped(final List<QueueMessage> equallyOld)
    {
        do
        {
            for (final QueueModel.DeadLetter letter : read)
            {
                for (final QueueMessage candidate : equallyOld)
                {
                    if (letter.reason().equals("maxlen") && letter.partition() == candidate.partition() &&
                        letter.offset() == candidate.offset())
                    {
                        return candidate;
                    }
                }
            }
        }
        while (readMore());
        return equallyOld.get(0);
    }

    /** @return false if nothing arrived within the wait. */
    private boolean readMore()
    {
        final List<ConsumerRecord> records = reader.poll(100, 1 << 20, WAIT);
        for (final ConsumerRecord record : records)
        {
            read.add(new QueueModel.DeadLetter(
                Integer.parseInt(header(record, DeathHistory.PARTITION)),
                Long.parseLong(header(record, DeathHistory.OFFSET)),
                header(record, DeathHistory.REASON),
                Integer.parseInt(header(record, DeathHistory.DELIVERIES)),
                new String(record.value(), StandardCharsets.UTF_8)));
        }
        return !records.isEmpty();
    }

    private static String header(final ConsumerRecord record, final String name)
    {
        return new String(record.headers().get(name), StandardCharsets.UTF_8);
    }
}
