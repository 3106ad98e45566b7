package io.spool.perf.bench;

import io.spool.api.stream.TopicConfig;
import io.spool.log.LogStoreConfig;
import io.spool.log.PartitionLog;
import io.spool.stream.StreamEngine;
import io.spool.stream.StreamEngineConfig;
import io.spool.stream.Topic;
import org.HdrHistogram.AtomicHistogram;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class StreamReplayLoopTest
{
    @TempDir
    Path directory;

    @Test
    void readsEveryRecordOfEveryPartitionFromTheStartOnEachPassAndTimesEachPoll()
    {
        try (StreamEngine engine = StreamEngine.open(directory,
            new StreamEngineConfig(LogStoreConfig.builder().backgroundMaintenance(false).build(), false)))
        {
            final Topic topic = engine.createTopic("bench", TopicConfig.of(2));
            final PartitionLog[] logs = {topic.partition(0), topic.partition(1)};
            new BatchPublisher(engine.logStore().newProducer(), logs, 0, new UnsafeBuffer(new byte[100]),
                new ProducerConfirms(1_000, 100, 4, LatencyHistograms.newHistogram()), 4)
                .publishAllAndAwaitConfirms();
            final AtomicHistogram pollNanos = LatencyHistograms.newHistogram();

            try (StreamReplayLoop replay = new StreamReplayLoop(engine, "bench", 64))
            {
                assertThat(replay.replayAll(pollNanos)).isEqualTo(1_000);
                assertThat(replay.replayAll(pollNanos)).isEqualTo(1_000);
            }
            // polls of at most 64 records, which never span partitions: at least 8 polls per partition and pass
            assertThat(pollNanos.getTotalCount()).isGreaterThanOrEqualTo(32);
        }
    }
}
