package io.spool.perf.jmh;

import io.spool.Spool;
import io.spool.api.log.LogConfig;
import io.spool.api.stream.TopicConfig;
import io.spool.perf.bench.ScratchDirectory;
import io.spool.wire.kafka.KafkaRecordPaths;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * The Kafka listener's per-record work, in process: {@code produce} converts and publishes a batch of
 * {@link #RECORDS} 100-byte records, {@code fetch} reads that many back into a record batch. One operation is one
 * record; run with {@code -prof gc} and read {@code gc.alloc.rate.norm} as the bytes allocated per record.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class KafkaRecordsBenchmark
{
    static final int RECORDS = 100;

    private ScratchDirectory directory;
    private Spool spool;
    private KafkaRecordPaths paths;
    private ByteBuffer batch;

    @Setup(Level.Trial)
    public void open()
    {
        directory = ScratchDirectory.create(JmhSettings.dataDirectory(), "jmh-kafka-records");
        spool = Spool.builder(directory.path()).backgroundMaintenance(false).open();
        spool.createTopic("bench", new TopicConfig(1, LogConfig.builder().segmentBytes(JmhSettings.SEGMENT_BYTES)
            .build()));
        paths = new KafkaRecordPaths(spool.streams(), "bench");
        batch = KafkaRecordPaths.batchOf(RECORDS, JmhSettings.value());
        paths.produce(batch);
    }

    @TearDown(Level.Trial)
    public void close()
    {
        paths.close();
        spool.close();
        directory.close();
    }

    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public long produce()
    {
        return paths.produce(batch);
    }

    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public int fetch()
    {
        return paths.fetch(0, 1 << 20);
    }
}
