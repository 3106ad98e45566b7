package io.spool.cluster;

import io.spool.cluster.StoredFrames.Stored;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What a test's producers did (each batch sent, and its confirm or failure) and the checks a history must pass
 * against what the cluster stored, in the spirit of Jepsen's Kafka workload: no confirmed record lost, an offset
 * never given to two records, no record stored twice or never sent, and each partition's records in the order
 * they were sent (one producer per partition). Thread-safe.
 */
final class PublishHistory
{
    /** One batch: the partition, the values in it, and the send order of its first value. */
    private record Batch(int partition, List<String> values, long sendIndex)
    {
    }

    private final List<Batch> batches = new ArrayList<>();
    private final Map<Batch, ClusterProducer.Confirm> confirms = new HashMap<>();
    private final Map<String, Long> sendIndexOfValue = new HashMap<>();
    private int failures;
    private long nextSendIndex;

    /** Notes a batch about to be sent; the returned handle takes its outcome. */
    synchronized Object sent(final int partition, final List<String> values)
    {
        final Batch batch = new Batch(partition, List.copyOf(values), nextSendIndex);
        for (final String value : values)
        {
            sendIndexOfValue.put(value, nextSendIndex++);
        }
        batches.add(batch);
        return batch;
    }

    synchronized void confirmed(final Object batch, final ClusterProducer.Confirm confirm)
    {
        confirms.put((Batch)batch, confirm);
        notifyAll();
    }

    /** Waits until {@code count} batches are confirmed in all: the cluster is making progress. */
    synchronized void awaitConfirmed(final int count, final Duration timeout) throws InterruptedException
    {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (confirms.size() < count)
        {
            final long left = deadline - System.nanoTime();
            if (left <= 0)
            {
                throw new AssertionError("only " + confirms.size() + " of " + count + " batches confirmed within " +
                    timeout + " (" + failures + " failed)");
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }

    synchronized void failed(final Object batch)
    {
        failures++;
    }

    synchronized int confirmedBatches()
    {
        return confirms.size();
    }

    synchronized int failedBatches()
    {
        return failures;
    }

    /** Every violation of the history against {@code stored} (partition to records by offset); empty when none. */
    synchronized List<String> violations(final Map<Integer, List<Stored>> stored)
    {
        final List<String> violations = new ArrayList<>();
        final Map<Integer, Map<Long, String>> byOffset = new HashMap<>();
        for (final Map.Entry<Integer, List<Stored>> partition : stored.entrySet())
        {
            final Map<Long, String> offsets = new HashMap<>();
            final Map<String, Long> seen = new HashMap<>();
            long lastSendIndex = -1;
            for (final Stored record : partition.getValue())
            {
                offsets.put(record.offset(), record.value());
                final Long firstOffset = seen.putIfAbsent(record.value(), record.offset());
                if (firstOffset != null)
                {
                    violations.add(record.value() + " stored twice, at " + firstOffset + " and " + record.offset());
                }
                final Long sendIndex = sendIndexOfValue.get(record.value());
                if (sendIndex == null)
                {
                    violations.add("offset " + record.offset() + " of partition " + partition.getKey() + " holds " +
                        record.value() + ", which was never sent");
                    continue;
                }
                if (sendIndex < lastSendIndex)
                {
                    violations.add(record.value() + " at offset " + record.offset() + " was sent before the record " +
                        "stored ahead of it: order lost");
                }
                lastSendIndex = Math.max(lastSendIndex, sendIndex);
            }
            byOffset.put(partition.getKey(), offsets);
        }
        for (final Map.Entry<Batch, ClusterProducer.Confirm> confirmed : confirms.entrySet())
        {
            final Batch batch = confirmed.getKey();
            final ClusterProducer.Confirm confirm = confirmed.getValue();
            final Map<Long, String> offsets = byOffset.getOrDefault(batch.partition(), Map.of());
            if (confirm.count() != batch.values().size())
            {
                violations.add("batch " + batch.values() + " confirmed with " + confirm.count() + " records");
            }
            for (int i = 0; i < batch.values().size(); i++)
            {
                final long offset = confirm.baseOffset() + i;
                final String storedThere = offsets.get(offset);
                if (!batch.values().get(i).equals(storedThere))
                {
                    violations.add("confirmed " + batch.values().get(i) + " at offset " + offset + " of partition " +
                        batch.partition() + ", which holds " + storedThere);
                }
            }
        }
        return violations;
    }
}
