/**
 * JMH benchmarks of the ingest pipeline, replay, group commit and queue features, beside the raw yardsticks; run
 * with {@code -prof gc} they show what a hot path allocates ({@code docs/benchmarks.md}).
 * <p>
 * Not API. JMH owns the threads and the state's lifecycle.
 */
package io.spool.perf.jmh;
