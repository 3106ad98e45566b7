/**
 * What a benchmark run reports: its result beside the baseline, latency percentiles, throughput over time, and the
 * text, JSON and self-contained HTML renderings of them.
 * <p>
 * Not API. The values are immutable; the progress lines run on a thread of their own, as each class says.
 */
package io.spool.perf.report;
