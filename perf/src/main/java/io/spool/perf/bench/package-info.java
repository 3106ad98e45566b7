/**
 * The {@code spool bench} benchmarks: each runs Spool beside its yardstick (a raw baseline, a peer such as Chronicle
 * Queue, Kafka's perf tools or ElasticMQ, or Spool's other path) in alternating rounds of the same process, and
 * reports both ({@code docs/benchmarks.md}).
 * <p>
 * Not API. A benchmark's threads are its own and each class says which of them owns what.
 */
package io.spool.perf.bench;
