package io.spool.perf.cli;

import io.spool.api.log.LogConfig;
import io.spool.api.queue.RetryPolicy;
import io.spool.api.queue.StartPosition;
import io.spool.api.queue.SubscriptionDescription;
import io.spool.api.queue.SubscriptionMetrics;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.routing.Binding;
import io.spool.api.routing.Exchange;
import io.spool.api.stream.GroupDescription;
import io.spool.api.stream.GroupReport;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicDescription;
import io.spool.api.stream.TopicPartition;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the admin commands print of topics, subscriptions, groups and exchanges: as plain values for {@code --json}
 * (no limit is {@code null}, durations in milliseconds, sizes in bytes) and as the {@code name=value} settings line
 * of the text output, whose names are the options that set them. Stateless, thread-safe.
 */
final class AdminViews
{
    private AdminViews()
    {
    }

    static Map<String, Object> topic(final TopicDescription topic)
    {
        long records = 0;
        long bytes = 0;
        final List<Object> partitions = new ArrayList<>();
        for (final TopicDescription.PartitionDescription partition : topic.partitions())
        {
            records += partition.endOffset() - partition.startOffset();
            bytes += partition.sizeInBytes();
            final Map<String, Object> view = new LinkedHashMap<>();
            view.put("partition", partition.partition());
            if (!partition.heldElsewhere().isEmpty())
            {
                view.put("heldElsewhere", partition.heldElsewhere());
                partitions.add(view);
                continue;
            }
            view.put("startOffset", partition.startOffset());
            view.put("endOffset", partition.endOffset());
            view.put("records", partition.endOffset() - partition.startOffset());
            view.put("bytes", partition.sizeInBytes());
            view.put("segments", partition.segmentCount());
            partitions.add(view);
        }
        final Map<String, Object> view = new LinkedHashMap<>();
        view.put("name", topic.name());
        view.put("partitions", topic.partitions().size());
        view.put("records", records);
        view.put("bytes", bytes);
        view.put("settings", topicSettings(topic.config()));
        view.put("partitionDetails", partitions);
        return view;
    }

    /** "1, 2 or 5": the nodes that hold a partition the describing node holds no copy of. */
    static String nodeList(final List<Integer> nodeIds)
    {
        final List<String> ids = nodeIds.stream().map(String::valueOf).toList();
        final int last = ids.size() - 1;
        return last == 0 ? ids.get(0) : String.join(", ", ids.subList(0, last)) + " or " + ids.get(last);
    }

    static Map<String, Object> topicSettings(final TopicConfig config)
    {
        final LogConfig log = config.log();
        final Map<String, Object> view = new LinkedHashMap<>();
        view.put("segmentBytes", log.segmentBytes());
        view.put("indexIntervalBytes", log.indexIntervalBytes());
        view.put("maxRecordBytes", log.maxRecordBytes());
        view.put("segmentRollMillis", log.segmentRollMillis() == TopicSettingsOptions.NO_ROLL ? null :
            log.segmentRollMillis());
        view.put("retentionMillis", limit(log.retentionMillis()));
        view.put("retentionBytes", limit(log.retentionBytes()));
        view.put("durability", log.durability().toString());
        view.put("dedupWindowMillis", log.dedupWindowMillis());
        view.put("dedupByContent", config.dedupByContent());
        return view;
    }

    /** The settings as the options of {@code spool topics create} that would make them. */
    static String topicSettingsLine(final TopicConfig config)
    {
        final LogConfig log = config.log();
        return "segment-bytes=" + Quantities.formatBytes(log.segmentBytes()) +
            " index-interval-bytes=" + Quantities.formatBytes(log.indexIntervalBytes()) +
            " max-record-bytes=" + Quantities.formatBytes(log.maxRecordBytes()) +
            " segment-roll=" + (log.segmentRollMillis() == TopicSettingsOptions.NO_ROLL ? "none" :
            Quantities.formatMillis(log.segmentRollMillis())) +
            " retention=" + Quantities.formatMillis(log.retentionMillis()) +
            " retention-bytes=" + Quantities.formatBytes(log.retentionBytes()) +
            " durability=" + log.durability() +
            " dedup-window=" + Quantities.formatMillis(log.dedupWindowMillis()) +
            " dedup-by-content=" + config.dedupByContent();
    }

    static Map<String, Object> subscription(final SubscriptionDescription subscription)
    {
        final SubscriptionSettings settings = subscription.settings();
        final Map<String, Object> view = new LinkedHashMap<>();
        view.put("name", subscription.name());
        view.put("topic", subscription.topic());
        final Map<String, Object> settingsView = new LinkedHashMap<>();
        settingsView.put("lockTimeoutMillis", settings.lockTimeoutMillis());
        settingsView.put("deliveryLimit", settings.hasDeliveryLimit() ? settings.deliveryLimit() : null);
        settingsView.put("deadLetterTopic", settings.deadLetterTopic());
        settingsView.put("retentionMode", Choices.name(settings.retentionMode()));
        settingsView.put("start", start(settings.startPosition()));
        settingsView.put("groups", Choices.name(settings.groupMode()));
        settingsView.put("groupKey", Choices.name(settings.groupKeySource()));
        settingsView.put("ttlMillis", settings.messageTtlMillis() == SubscriptionSettings.NO_TTL ? null :
            settings.messageTtlMillis());
        settingsView.put("singleActiveConsumer", settings.singleActiveConsumer());
        settingsView.put("maxLength", limit(settings.maxLength()));
        settingsView.put("maxBytes", limit(settings.maxBytes()));
        settingsView.put("overflow", Choices.name(settings.overflowPolicy()));
        settingsView.put("retryMillis", retryDelays(settings.retryPolicy()));
        view.put("settings", settingsView);
        view.put("metrics", metrics(subscription.metrics()));
        return view;
    }

    static Map<String, Object> metrics(final SubscriptionMetrics metrics)
    {
        final Map<String, Object> view = new LinkedHashMap<>();
        view.put("ready", metrics.ready());
        view.put("inFlight", metrics.inFlight());
        view.put("delayed", metrics.delayed());
        view.put("dead", metrics.dead());
        view.put("redeliveries", metrics.redeliveries());
        view.put("oldestReadyAgeMillis", metrics.oldestReadyAgeMillis());
        view.put("consumers", metrics.consumers());
        view.put("acks", metrics.acks());
        return view;
    }

    /** The settings as the options of {@code spool subscriptions create} that would make them. */
    static String subscriptionSettingsLine(final SubscriptionSettings settings)
    {
        final StringJoiner retry = new StringJoiner(",");
        retryDelays(settings.retryPolicy()).forEach(delay -> retry.add(Quantities.formatMillis(delay)));
        return "lock-timeout=" + Quantities.formatMillis(settings.lockTimeoutMillis()) +
            " delivery-limit=" + (settings.hasDeliveryLimit() ? Integer.toString(settings.deliveryLimit()) :
            "unlimited") +
            " dead-letter-topic=" + (settings.deadLetterTopic() == null ? "none" : settings.deadLetterTopic()) +
            " retention-mode=" + Choices.name(settings.retentionMode()) +
            " start=" + start(settings.startPosition()) +
            " groups=" + Choices.name(settings.groupMode()) +
            " group-key=" + Choices.name(settings.groupKeySource()) +
            " ttl=" + (settings.messageTtlMillis() == SubscriptionSettings.NO_TTL ? "none" :
            Quantities.formatMillis(settings.messageTtlMillis())) +
            " single-active-consumer=" + settings.singleActiveConsumer() +
            " max-length=" + (settings.maxLength() < 0 ? "none" : Long.toString(settings.maxLength())) +
            " max-bytes=" + Quantities.formatBytes(settings.maxBytes()) +
            " overflow=" + Choices.name(settings.overflowPolicy()) +
            " retry=" + (retry.length() == 0 ? "none" : retry.toString());
    }

    private static String start(final StartPosition start)
    {
        return switch (start.kind())
        {
            case EARLIEST -> "earliest";
            case LATEST -> "latest";
            case OFFSET -> "offset:" + start.value();
            case TIMESTAMP -> "timestamp:" + start.value();
        };
    }

    private static List<Long> retryDelays(final RetryPolicy retry)
    {
        final List<Long> delays = new ArrayList<>();
        for (int rung = 1; rung <= retry.rungs(); rung++)
        {
            delays.add(retry.delayAfter(rung));
        }
        return delays;
    }

    static Map<String, Object> group(final GroupReport report)
    {
        final Map<String, Object> view = new LinkedHashMap<>();
        view.put("group", report.groupId());
        view.put("state", report.active() ? "stable" : "empty");
        final GroupDescription membership = report.membership();
        view.put("generation", membership == null ? null : membership.generation());
        view.put("assignor", membership == null ? null : membership.assignor());
        final List<Object> members = new ArrayList<>();
        if (membership != null)
        {
            for (final String member : new TreeSet<>(membership.members()))
            {
                final Map<String, Object> memberView = new LinkedHashMap<>();
                memberView.put("member", member);
                memberView.put("topics", new ArrayList<>(new TreeSet<>(membership.subscriptions().get(member))));
                memberView.put("partitions", partitions(membership.targetAssignment().getOrDefault(member,
                    List.of())));
                members.add(memberView);
            }
        }
        view.put("members", members);
        long totalLag = 0;
        final List<Object> positions = new ArrayList<>();
        for (final GroupReport.PartitionPosition position : report.partitions())
        {
            totalLag += position.lag();
            final Map<String, Object> positionView = new LinkedHashMap<>();
            positionView.put("topic", position.partition().topic());
            positionView.put("partition", position.partition().partition());
            positionView.put("committedOffset", position.committed() == GroupReport.PartitionPosition.NO_OFFSET ?
                null : position.committed());
            positionView.put("startOffset", position.startOffset());
            positionView.put("endOffset", position.endOffset());
            positionView.put("lag", position.lag());
            positions.add(positionView);
        }
        view.put("totalLag", totalLag);
        view.put("partitions", positions);
        return view;
    }

    private static List<Object> partitions(final List<TopicPartition> partitions)
    {
        final List<Object> views = new ArrayList<>();
        for (final TopicPartition partition : new TreeSet<>(partitions))
        {
            final Map<String, Object> view = new LinkedHashMap<>();
            view.put("topic", partition.topic());
            view.put("partition", partition.partition());
            views.add(view);
        }
        return views;
    }

    static List<Object> offsets(final Map<TopicPartition, Long> offsets)
    {
        final List<Object> views = new ArrayList<>();
        new TreeMap<>(offsets).forEach((partition, offset) ->
        {
            final Map<String, Object> view = new LinkedHashMap<>();
            view.put("topic", partition.topic());
            view.put("partition", partition.partition());
            view.put("offset", offset);
            views.add(view);
        });
        return views;
    }

    static Map<String, Object> exchange(final Exchange exchange)
    {
        final Map<String, Object> view = new LinkedHashMap<>();
        view.put("name", exchange.name());
        view.put("type", Choices.name(exchange.type()));
        view.put("alternateExchange", exchange.alternateExchange());
        final List<Object> bindings = new ArrayList<>();
        for (final Binding binding : exchange.bindings())
        {
            final Map<String, Object> bindingView = new LinkedHashMap<>();
            bindingView.put("subscription", binding.subscription());
            bindingView.put("key", binding.key());
            if (binding.headers() != null)
            {
                bindingView.put("match", Choices.name(binding.headers().mode()));
                final Map<String, Object> headers = new TreeMap<>();
                binding.headers().required().forEach((name, value) -> headers.put(name, text(value)));
                bindingView.put("headers", headers);
            }
            bindings.add(bindingView);
        }
        view.put("bindings", bindings);
        return view;
    }

    /** A binding as the options of {@code spool exchanges bind} that would make it, after the subscription. */
    static String bindingLine(final Binding binding)
    {
        final StringBuilder line = new StringBuilder(binding.subscription());
        if (!binding.key().isEmpty())
        {
            line.append(" key=").append(binding.key());
        }
        if (binding.headers() != null)
        {
            line.append(" match=").append(Choices.name(binding.headers().mode()));
            new TreeMap<>(binding.headers().required()).forEach((name, value) ->
                line.append(" header=").append(name).append(value == null ? "" : "=" + text(value)));
        }
        return line.toString();
    }

    /** A header value as UTF-8 text; null where a binding asks only that the header be present. */
    private static String text(final byte[] value)
    {
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }

    private static Long limit(final long value)
    {
        return value < 0 ? null : value;
    }
}
