package io.spool.perf.bench;

import io.spool.api.log.LogConfig;
import io.spool.log.LogReader;
import io.spool.log.LogStore;
import io.spool.log.LogStoreConfig;
import io.spool.log.PartitionLog;
import io.spool.log.RecordHandler;
import org.HdrHistogram.AtomicHistogram;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BatchPublisherTest
{
    @TempDir
    Path directory;
    private LogStore store;
    private PartitionLog[] logs;
    private final AtomicHistogram latencyNanos = LatencyHistograms.newHistogram();
    private final UnsafeBuffer value = new UnsafeBuffer(new byte[] {'v', 'a', 'l', 'u', 'e'});

    @BeforeEach
    void openLogs()
    {
        store = LogStore.open(directory, LogStoreConfig.builder().backgroundMaintenance(false).build());
        logs = new PartitionLog[] {
            store.openLog("bench/0", LogConfig.DEFAULT), store.openLog("bench/1", LogConfig.DEFAULT)};
    }

    @AfterEach
    void closeStore()
    {
        store.close();
    }

    @Test
    void publishesEveryRecordInBatchesSpreadOverTheLogsInTurn()
    {
        final ProducerConfirms confirms = new ProducerConfirms(10, 4, 2, latencyNanos);
        final BatchPublisher publisher = new BatchPublisher(store.newProducer(), logs, 1, value, confirms, 2);

        publisher.publishAllAndAwaitConfirms();

        assertThat(confirms.completedRecords()).isEqualTo(10);
        assertThat(latencyNanos.getTotalCount()).isEqualTo(3);
        assertThat(logs[1].endOffset()).as("batches 0 and 2, starting at log 1").isEqualTo(6);
        assertThat(logs[0].endOffset()).as("batch 1").isEqualTo(4);
        assertThat(values(logs[1])).containsOnly("value");
        assertThatThrownBy(publisher::publishNextBatch)
            .isInstanceOf(IllegalStateException.class)
            .hasMessage("all 3 batches are already published");
    }

    @Test
    void thePublishingThreadAllocatesNothingPerBatchOnceWarm()
    {
        final ProducerConfirms confirms = new ProducerConfirms(ProducerConfirms.UNBOUNDED, 64, 4, latencyNanos);
        final BatchPublisher publisher = new BatchPublisher(store.newProducer(), logs, 0, value, confirms, 4);
        for (int i = 0; i < 2_000; i++)
        {
            publisher.publishNextBatch();
        }

        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 1_000; i++)
        {
            publisher.publishNextBatch();
        }
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        publisher.awaitAllConfirmed();

        assertThat(allocated).as("bytes allocated for 1,000 batches of 64 records").isLessThan(1_000);
    }

    private static List<String> values(final PartitionLog log)
    {
        final List<String> values = new ArrayList<>();
        final RecordHandler collect = record -> values.add(new String(record.valueBytes()));
        try (LogReader reader = log.newReader())
        {
            int read;
            do
            {
                read = reader.poll(collect, 100);
            }
            while (read > 0);
        }
        return values;
    }
}
