package io.spool.queue;

import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.ConsumerRecord;
import io.spool.queue.internal.store.JournalDescriptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an open does with the dead letters its journal still owes ({@link DeadLetterReplay}): one the dead-letter
 * topic already stored is not sent again; one a crash caught before it was sent, and one that a death at open
 * makes owed, are in the topic when the open returns. {@code DeadLetterCrashTest} halts real processes.
 */
class DeadLetterReplayTest
{
    @TempDir
    Path dir;
    @TempDir
    Path image;

    @Test
    void aCopyStoredButNotConfirmedBeforeTheCrashIsNotStoredAgain() throws IOException
    {
        try (QueueFixture fixture = fixtureWithDeadLetters(SubscriptionSettings.DEFAULT_DELIVERY_LIMIT))
        {
            final Subscription work = fixture.spool.subscription("work");
            work.reject(work.receive(1, 0).get(0).receipt());
            fixture.awaitRecords("jobs.dead", 1);
            work.sync();
        }
        final Path journal = dir.resolve("queue").resolve("work").resolve("0").resolve(JournalDescriptor.fileName(0));
        cutBeforeFirstEntryOf(journal, JournalDescriptor.DEAD_LETTER_STORED);
        try (QueueFixture reopened = new QueueFixture(dir))
        {
            assertThat(offsetsDied(reopened.readTopic("jobs.dead"))).containsExactly("0");
            reopened.reopen();
            assertThat(offsetsDied(reopened.readTopic("jobs.dead"))).containsExactly("0");
        }
    }

    @Test
    void aMessageThatDiesAsTheEngineOpensIsInTheDeadLetterTopicWhenTheOpenReturns()
    {
        final QueueFixture fixture = fixtureWithDeadLetters(1);
        final Subscription work = fixture.spool.subscription("work");
        work.nack(work.receive(1, 0).get(0).receipt());
        assertThat(work.receive(1, 0)).singleElement().satisfies(d -> assertThat(d.deliveryNumber()).isEqualTo(2));
        try (QueueFixture crashed = fixture.crashInto(image))
        {
            final List<ConsumerRecord> letters = crashed.readTopic("jobs.dead");
            assertThat(offsetsDied(letters)).containsExactly("0");
            assertThat(QueueFixture.header(letters.get(0), DeathHistory.REASON)).isEqualTo("delivery_limit");
        }
    }

    private QueueFixture fixtureWithDeadLetters(final int deliveryLimit)
    {
        final QueueFixture fixture = new QueueFixture(dir);
        fixture.topic("jobs", 1);
        fixture.topic("jobs.dead", 1);
        fixture.spool.createSubscription("work", "jobs", SubscriptionSettings.builder().deliveryLimit(deliveryLimit)
            .deadLetterTopic("jobs.dead").build());
        fixture.publish("jobs", "job-0");
        return fixture;
    }

    private static List<String> offsetsDied(final List<ConsumerRecord> letters)
    {
        return letters.stream().map(letter -> QueueFixture.header(letter, DeathHistory.OFFSET)).toList();
    }

    /** Cuts the journal where its first entry of {@code type} starts, as a crash just before that commit would. */
    private static void cutBeforeFirstEntryOf(final Path journal, final int type) throws IOException
    {
        try (FileChannel channel = FileChannel.open(journal, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            final ByteBuffer bytes = ByteBuffer.allocate((int)channel.size()).order(ByteOrder.LITTLE_ENDIAN);
            channel.read(bytes, 0);
            int at = JournalDescriptor.FILE_HEADER_LENGTH;
            while (bytes.getInt(at + JournalDescriptor.LENGTH_OFFSET) > 0 &&
                bytes.getInt(at + JournalDescriptor.TYPE_OFFSET) != type)
            {
                at += bytes.getInt(at + JournalDescriptor.LENGTH_OFFSET);
            }
            assertThat(bytes.getInt(at + JournalDescriptor.TYPE_OFFSET)).as("journal has an entry of type %d", type)
                .isEqualTo(type);
            channel.truncate(at);
        }
    }
}
