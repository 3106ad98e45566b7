/**
 * The raw yardsticks the benchmarks measure Spool against: one thread framing records into pre-allocated mapped
 * segments, and a plain loop reading them back.
 * <p>
 * Not API. Each baseline is used by one thread at a time.
 */
package io.spool.perf.baseline;
