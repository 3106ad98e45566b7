package io.spool.perf.bench;

import io.spool.api.log.LogConfig;
import io.spool.log.LogStore;
import io.spool.log.LogStoreConfig;
import io.spool.log.PartitionLog;
import org.HdrHistogram.AtomicHistogram;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class ReplayLoopTest
{
    @TempDir
    Path directory;

    @Test
    void readsEveryRecordOfEveryLogFromTheStartOnEachPassAndTimesEachPoll()
    {
        try (LogStore store = LogStore.open(directory, LogStoreConfig.builder().backgroundMaintenance(false).build()))
        {
            final PartitionLog[] logs = {
                store.openLog("bench/0", LogConfig.DEFAULT), store.openLog("bench/1", LogConfig.DEFAULT)};
            new BatchPublisher(store.newProducer(), logs, 0, new UnsafeBuffer(new byte[100]),
                new ProducerConfirms(1_000, 100, 4, LatencyHistograms.newHistogram()), 4)
                .publishAllAndAwaitConfirms();
            final AtomicHistogram pollNanos = LatencyHistograms.newHistogram();

            try (ReplayLoop replay = new ReplayLoop(logs, 64))
            {
                assertThat(replay.replayAll(pollNanos)).isEqualTo(1_000);
                assertThat(replay.replayAll(pollNanos)).isEqualTo(1_000);
            }
            // 500 records per log in polls of at most 64: 8 polls per log, 2 logs, 2 passes.
            assertThat(pollNanos.getTotalCount()).isEqualTo(32);
        }
    }
}
