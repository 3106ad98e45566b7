package io.spool.queue;

import io.spool.api.log.LogConfig;
import io.spool.api.queue.QueueHeaders;
import io.spool.api.queue.RetentionMode;
import io.spool.api.queue.SubscriptionMetrics;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.log.PartitionLog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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
        final int segmentsInTheLog = log().segmentCount();
        // A deleted segment's files wait for the last reader inside it (the browsing subscription's may still be);
        // closing lets every reader go, so what is left on disk is what the log kept.
        fx.close();
        assertThat(segmentFiles()).hasSize(segmentsInTheLog);
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

    @Test
    void aBrowsingSubscriptionRetentionPassedGoesOnFromTheLogStart()
    {
        final Subscription browse = passedBrowsingSubscription();

        final List<Delivery> first = browse.receive(10, 0);

        assertThat(first).as("a full receive, from the log's new start").hasSize(10);
        assertThat(first.get(0).offset()).isEqualTo(log().startOffset());
        assertThat(first.get(0).valueAsString()).isEqualTo(log().startOffset() + ":" + PAYLOAD);
        browse.ack(first.stream().map(Delivery::receipt).collect(Collectors.toList()));
        assertThat(drainCount(browse)).as("the rest of the log").isEqualTo(RECORDS - log().startOffset() - 10);
    }

    @Test
    void aBrowsingSubscriptionRetentionPassedGoesOnFromTheLogStartAfterARestart()
    {
        final Subscription browse = passedBrowsingSubscription();
        final long start = log().startOffset();
        final List<Delivery> first = browse.receive(10, 0);
        browse.ack(first.stream().map(Delivery::receipt).collect(Collectors.toList()));
        browse.sync();

        fx.reopen();
        final Subscription reopened = fx.spool.subscription("browse");
        final List<Delivery> next = reopened.receive(10, 0);

        assertThat(next).as("goes on after the settled ones, none of them again").hasSize(10);
        assertThat(next.get(0).offset()).isEqualTo(start + 10);
        assertThat(next).allMatch(delivery -> delivery.deliveryNumber() == 1);
    }

    @Test
    void aWorkQueueSubscriptionSizeRetentionPassedGoesOnFromTheLogStart()
    {
        sizeRetainedTopic();
        final Subscription work = fx.spool.createSubscription("work", "sized", SubscriptionSettings.DEFAULT);
        publishHeaderFree("sized", RECORDS);
        fx.spool.runMaintenance();
        final long start = sizedLog().startOffset();
        assertThat(start).as("size retention removed segments nobody received").isPositive();

        final List<Delivery> first = work.receive(10, 0);

        assertThat(first).hasSize(10);
        assertThat(first.get(0).offset()).isEqualTo(start);
    }

    @Test
    void messagesFoundDelayedAheadThatRetentionRemovedCountAsDelayedNoMore()
    {
        sizeRetainedTopic();
        final Subscription browse = fx.spool.createSubscription("browse", "sized", SubscriptionSettings.builder()
            .retentionMode(RetentionMode.NONE).build());
        for (int i = 0; i < 5; i++)
        {
            fx.spool.newProducer().send(new ProducerRecord("sized", 0, null,
                Map.of(QueueHeaders.DELAY, QueueHeaders.millis(60_000)), PAYLOAD.getBytes(StandardCharsets.UTF_8)))
                .join();
        }
        publishHeaderFree("sized", RECORDS);
        assertThat(browse.metrics().delayed()).as("found by the read-ahead").isEqualTo(5);

        fx.spool.runMaintenance();

        final SubscriptionMetrics metrics = browse.metrics();
        assertThat(metrics.delayed()).as("removed with their segment").isZero();
        assertThat(metrics.ready()).isEqualTo(sizedLog().endOffset() - sizedLog().startOffset());
    }

    private void sizeRetainedTopic()
    {
        fx.spool.createTopic("sized", new TopicConfig(1, LogConfig.builder().segmentBytes(64 * 1024)
            .maxRecordBytes(16 * 1024).retentionBytes(128 * 1024).build()));
    }

    private PartitionLog sizedLog()
    {
        return fx.spool.streams().topics().topicOrNull("sized").partition(0);
    }

    /** A browsing subscription that received nothing, after the work queue finished and retention removed segments. */
    private Subscription passedBrowsingSubscription()
    {
        final Subscription work = fx.spool.createSubscription("work", "jobs", SubscriptionSettings.DEFAULT);
        final Subscription browse = fx.spool.createSubscription("browse", "jobs", SubscriptionSettings.builder()
            .retentionMode(RetentionMode.NONE).build());
        publishHeaderFree(RECORDS);
        drain(work);
        fx.spool.runMaintenance();
        assertThat(log().startOffset()).as("retention passed the browsing subscription's cursor").isGreaterThan(10);
        return browse;
    }

    private static long drainCount(final Subscription subscription)
    {
        long count = 0;
        List<Delivery> batch;
        while (!(batch = subscription.receive(100, 0)).isEmpty())
        {
            count += batch.size();
            subscription.ack(batch.stream().map(Delivery::receipt).collect(Collectors.toList()));
        }
        return count;
    }

    private void publishHeaderFree(final int count)
    {
        publishHeaderFree("jobs", count);
    }

    private void publishHeaderFree(final String topic, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            fx.publish(topic, i + ":" + PAYLOAD);
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
