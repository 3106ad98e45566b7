package io.spool;

import io.spool.api.MetricSample;
import io.spool.api.queue.SubscriptionMetrics;
import io.spool.api.stream.TopicDescription;
import io.spool.api.stream.TopicPartition;
import io.spool.api.stream.UnknownTopicException;
import io.spool.log.PartitionLog;
import io.spool.queue.Subscription;
import io.spool.stream.StreamEngine;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Takes the engine's figures for {@link Spool#metrics()}: each topic partition, each subscription, each consumer
 * group's lag, the log store's confirms and fsyncs, and a few of the JVM's. Reads what the engine keeps anyway
 * (offsets, sizes, the subscriptions' counts); nothing on a hot path counts for it. Stateless.
 */
final class EngineMetrics
{
    private EngineMetrics()
    {
    }

    static List<MetricSample> collect(final Spool spool)
    {
        final List<MetricSample> samples = new ArrayList<>();
        final StreamEngine streams = spool.streams();
        partitions(streams, samples);
        subscriptions(spool, samples);
        groups(streams, samples);
        logStore(streams, samples);
        jvm(samples);
        return samples;
    }

    private static void partitions(final StreamEngine streams, final List<MetricSample> samples)
    {
        for (final String topic : streams.listTopics())
        {
            final TopicDescription description;
            try
            {
                description = streams.describeTopic(topic);
            }
            catch (final UnknownTopicException deletedMeanwhile)
            {
                continue;
            }
            for (final TopicDescription.PartitionDescription partition : description.partitions())
            {
                final Map<String, String> labels = Map.of("topic", topic, "partition",
                    Integer.toString(partition.partition()));
                samples.add(MetricSample.counter("spool_partition_end_offset_total",
                    "Offset the next record of the partition gets: records appended ever; its rate is the append rate.",
                    labels, partition.endOffset()));
                samples.add(MetricSample.gauge("spool_partition_start_offset",
                    "First offset the partition still holds (the log start, raised by retention).", labels,
                    partition.startOffset()));
                samples.add(MetricSample.gauge("spool_partition_records",
                    "Records the partition holds.", labels, partition.endOffset() - partition.startOffset()));
                samples.add(MetricSample.gauge("spool_partition_size_bytes",
                    "Bytes of the partition's segments on disk.", labels, partition.sizeInBytes()));
                samples.add(MetricSample.gauge("spool_partition_segments",
                    "Segment files of the partition.", labels, partition.segmentCount()));
            }
        }
    }

    private static void subscriptions(final Spool spool, final List<MetricSample> samples)
    {
        for (final String name : spool.subscriptions())
        {
            final Subscription subscription = spool.subscription(name);
            if (subscription == null)
            {
                continue;
            }
            final SubscriptionMetrics metrics = subscription.metrics();
            final Map<String, String> labels = Map.of("subscription", name, "topic", subscription.topic());
            samples.add(MetricSample.gauge("spool_subscription_ready_messages",
                "Messages a receive could be handed now.", labels, metrics.ready()));
            samples.add(MetricSample.gauge("spool_subscription_in_flight_messages",
                "Deliveries handed out and not yet settled.", labels, metrics.inFlight()));
            samples.add(MetricSample.gauge("spool_subscription_delayed_messages",
                "Messages waiting for their delay to end.", labels, metrics.delayed()));
            samples.add(MetricSample.counter("spool_subscription_dead_lettered_total",
                "Messages dead-lettered since the subscription was created.", labels, metrics.dead()));
            samples.add(MetricSample.counter("spool_subscription_redeliveries_total",
                "Deliveries that were not the message's first.", labels, metrics.redeliveries()));
            samples.add(MetricSample.counter("spool_subscription_acks_total",
                "Acks that took effect since the subscription was opened; its rate is the acks per second.", labels,
                metrics.acks()));
            samples.add(MetricSample.gauge("spool_subscription_oldest_ready_age_seconds",
                "Age of the oldest ready message by its publish time; 0 when none is ready.", labels,
                metrics.oldestReadyAgeMillis() / 1000.0));
            samples.add(MetricSample.gauge("spool_subscription_consumers",
                "Push consumers attached to the subscription.", labels, metrics.consumers()));
        }
    }

    private static void groups(final StreamEngine streams, final List<MetricSample> samples)
    {
        for (final String group : streams.groups().groupIds())
        {
            for (final Map.Entry<TopicPartition, Long> lag : streams.lag(group).entrySet())
            {
                samples.add(MetricSample.gauge("spool_group_lag_records",
                    "Records of the partition after the group's committed offset.",
                    Map.of("group", group, "topic", lag.getKey().topic(), "partition",
                        Integer.toString(lag.getKey().partition())), lag.getValue()));
            }
        }
    }

    private static void logStore(final StreamEngine streams, final List<MetricSample> samples)
    {
        long confirmed = 0;
        for (final PartitionLog log : streams.logStore().logs())
        {
            confirmed += log.endOffset();
        }
        samples.add(MetricSample.counter("spool_records_confirmed_total",
            "Records appended and confirmed to their producers, over every log the engine holds open.", Map.of(),
            confirmed));
        samples.add(MetricSample.counter("spool_fsyncs_total",
            "Forces of segment data to the disk, as the logs' durability asked for.", Map.of(),
            streams.logStore().fsyncCount()));
    }

    private static void jvm(final List<MetricSample> samples)
    {
        final MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        samples.add(MetricSample.gauge("spool_jvm_heap_used_bytes", "Heap in use.", Map.of(), heap.getUsed()));
        samples.add(MetricSample.gauge("spool_jvm_heap_max_bytes", "Largest heap the JVM may grow to.", Map.of(),
            heap.getMax()));
        samples.add(MetricSample.gauge("spool_jvm_threads", "Live threads.", Map.of(),
            ManagementFactory.getThreadMXBean().getThreadCount()));
        long collections = 0;
        long collectionMillis = 0;
        for (final GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans())
        {
            collections += Math.max(0, collector.getCollectionCount());
            collectionMillis += Math.max(0, collector.getCollectionTime());
        }
        samples.add(MetricSample.counter("spool_jvm_gc_collections_total", "Garbage collections.", Map.of(),
            collections));
        samples.add(MetricSample.counter("spool_jvm_gc_seconds_total", "Time spent in garbage collections.",
            Map.of(), collectionMillis / 1000.0));
        samples.add(MetricSample.gauge("spool_jvm_uptime_seconds", "Time since the JVM started.", Map.of(),
            ManagementFactory.getRuntimeMXBean().getUptime() / 1000.0));
    }
}
