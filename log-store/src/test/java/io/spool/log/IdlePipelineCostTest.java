package io.spool.log;

import io.spool.api.log.LogConfig;
import io.spool.testing.SlowTest;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An idle pipeline costs next to nothing: over an idle interval each of its stage threads uses under 1% of that
 * interval in CPU time (the default, {@link PipelineThreading#COMBINED}, has one). CPU time of the threads themselves, not a wall-clock ratio of the process, so a loaded machine can
 * only make a waiting thread look cheaper, never dearer: the check cannot fail by load. (The interval is slept
 * through because idleness is what is measured; nothing waits for a timeout.)
 */
@SlowTest
class IdlePipelineCostTest
{
    private static final long IDLE_MILLIS = 2_000;
    private static final double MAX_SHARE_OF_INTERVAL = 0.01;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(PipelineThreading.class)
    void idleStageThreadsUseUnderOnePercentOfTheIntervalEach(final PipelineThreading threading) throws Exception
    {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        assertThat(threads.isThreadCpuTimeSupported()).isTrue();
        threads.setThreadCpuTimeEnabled(true);
        try (LogStore store = LogStore.open(dir, LogStoreConfig.builder().threading(threading).build()))
        {
            final PartitionLog log = store.openLog("idle/0", LogConfig.DEFAULT);
            store.newProducer().appendAndWait(log, null, null, LogFixture.bytes("wake the pipeline once"));
            // let the stages pass from their first wait into idleness before measuring
            Thread.sleep(100);

            final Map<Long, Long> before = pipelineCpuNanos(threads);
            final long start = System.nanoTime();
            Thread.sleep(IDLE_MILLIS);
            final long elapsed = System.nanoTime() - start;
            final Map<Long, Long> after = pipelineCpuNanos(threads);

            assertThat(before).as("pipeline threads").isNotEmpty();
            long used = 0;
            for (final Map.Entry<Long, Long> thread : after.entrySet())
            {
                used += thread.getValue() - before.getOrDefault(thread.getKey(), 0L);
            }
            assertThat(after).as("pipeline threads").hasSameSizeAs(before);
            assertThat((double)used / elapsed / after.size())
                .as("share of %d ms each of the %d %s stage threads spent on CPU (%d us in all)",
                    TimeUnit.NANOSECONDS.toMillis(elapsed), after.size(), threading,
                    TimeUnit.NANOSECONDS.toMicros(used))
                .isLessThan(MAX_SHARE_OF_INTERVAL);

            // and the pipeline still answers at once after its idle interval
            assertThat(store.newProducer().appendAndWait(log, null, null, LogFixture.bytes("after idling")))
                .isEqualTo(1);
        }
    }

    private static Map<Long, Long> pipelineCpuNanos(final ThreadMXBean threads)
    {
        final Map<Long, Long> cpu = new HashMap<>();
        for (final Thread thread : Thread.getAllStackTraces().keySet())
        {
            if (thread.getName().startsWith("spool-pipeline-"))
            {
                cpu.put(thread.getId(), threads.getThreadCpuTime(thread.getId()));
            }
        }
        return cpu;
    }
}
