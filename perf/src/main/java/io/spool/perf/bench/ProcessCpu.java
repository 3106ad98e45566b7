package io.spool.perf.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * The CPU time the whole process has used, every thread together: what a benchmark spends per record, which a
 * shared machine's load disturbs less than records per second. Stateless, thread-safe.
 */
final class ProcessCpu
{
    private static final OperatingSystemMXBean OS = ManagementFactory.getOperatingSystemMXBean();

    private ProcessCpu()
    {
    }

    /** Nanoseconds of CPU time so far, or 0 on a JVM that does not tell. */
    static long nanos()
    {
        return OS instanceof com.sun.management.OperatingSystemMXBean ?
            Math.max(0, ((com.sun.management.OperatingSystemMXBean)OS).getProcessCpuTime()) : 0;
    }
}
