package io.spool.queue;

import io.spool.log.PartitionLog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Retention by consumption: the segments every work-queue subscription acked past leave the log, and their files
 * leave the disk (and the process's mappings) as soon as no reader is inside them.
 */
class WorkQueueRetentionTest
{
    /** About 60 records of this size fill one of the fixture's 64 KiB segments. */
    private static final String PAYLOAD = "x".repeat(1_000);
    private static final int RECORDS = 400;

    @TempDir
    Path dir;
    QueueFixture fx;

    @BeforeEach
    void open()
    {
        fx = new QueueFixture(dir);
        fx.topic("jobs", 1);
    }

    @AfterEach
    void close()
    {
        fx.close();
    }

    @Test
    void segmentsAckedPastLeaveTheDiskAndTheMappingsEvenWhenTheirRecordsCarryNoHeaders()
    {
        final Subscription work = fx.spool.createSubscription("work", "jobs", SubscriptionSettings.DEFAULT);
        publishHeaderFree(RECORDS);
        final List<Path> written = segmentFiles();
        assertThat(written).as("the records span several segments").hasSizeGreaterThan(3);

        drain(work);
        assertThat(fx.spool.runMaintenance()).as("segments deleted").isPositive();

        final PartitionLog log = log();
        assertThat(log.startOffset()).isPositive();
        assertThat(segmentFiles()).as("only the segments still in the log are on disk").hasSize(log.segmentCount());
        assertThat(written.get(0)).as("the segment the subscription started in").doesNotExist();
        assertThat(mappedFiles()).as("no deleted segment stays mapped").noneMatch(written.subList(0,
            written.size() - log.segmentCount())::contains);
    }

    @Test
    void aSubscriptionThatHoldsNothingBackDoesNotKeepSegmentsTheWorkQueueFinished()
    {
        final Subscription work = fx.spool.createSubscription("work", "jobs", SubscriptionSettings.DEFAULT);
        fx.spool.createSubscription("browse", "jobs", SubscriptionSettings.builder()
            .retentionMode(RetentionMode.NONE).build());
        publishHeaderFree(RECORDS);

        drain(work);
        fx.spool.runMaintenance();

        assertThat(log().startOffset()).as("the unconsumed browsing subscription held nothing back").isPositive();
        assertThat(segmentFiles()).hasSize(log().segmentCount());
    }

    @Test
    void aWorkQueueSubscriptionThatHasNotAckedHoldsTheSegmentsBack()
    {
        final Subscription work = fx.spool.createSubscription("work", "jobs", SubscriptionSettings.DEFAULT);
        fx.spool.createSubscription("late", "jobs", SubscriptionSettings.DEFAULT);
        publishHeaderFree(RECORDS);
        final int segments = segmentFiles().size();

        drain(work);
        fx.spool.runMaintenance();

        assertThat(log().startOffset()).isZero();
        assertThat(segmentFiles()).hasSize(segments);
    }

    private void publishHeaderFree(final int count)
    {
        for (int i = 0; i < count; i++)
        {
            fx.publish("jobs", i + ":" + PAYLOAD);
        }
    }

    private static void drain(final Subscription subscription)
    {
        List<Delivery> batch;
        while (!(batch = subscription.receive(100, 0)).isEmpty())
        {
            subscription.ack(batch.stream().map(Delivery::receipt).collect(Collectors.toList()));
        }
        subscription.sync();
    }

    private PartitionLog log()
    {
        return fx.spool.streams().topics().topicOrNull("jobs").partition(0);
    }

    /** The segment files of every log in the data directory, in name (base offset) order. */
    private List<Path> segmentFiles()
    {
        try (Stream<Path> files = Files.walk(dir))
        {
            return files.filter(p -> p.getFileName().toString().matches("\\d{20}\\.log")).sorted()
                .collect(Collectors.toList());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** The files this process maps, where the system lists them; empty elsewhere. */
    private static List<Path> mappedFiles()
    {
        final Path maps = Path.of("/proc/self/maps");
        if (!Files.isReadable(maps))
        {
            return List.of();
        }
        try (Stream<String> lines = Files.lines(maps))
        {
            return lines.map(line -> line.split("\\s+", 6)).filter(fields -> fields.length == 6)
                .map(fields -> fields[5].replace(" (deleted)", "")).filter(name -> name.startsWith("/"))
                .map(Path::of).collect(Collectors.toList());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
