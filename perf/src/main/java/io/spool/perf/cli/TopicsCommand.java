package io.spool.perf.cli;

import io.spool.api.log.LogConfig;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicDescription;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.List;

/** {@code spool topics}: lists, creates, describes, alters and deletes topics. */
@Command(
    name = "topics",
    mixinStandardHelpOptions = true,
    description = "Lists, creates, describes, alters and deletes topics on a server (default) or a data directory.")
final class TopicsCommand extends AdminCommand
{
    @Override
    String subcommandNames()
    {
        return "list, create, describe, alter or delete";
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
        description = "Prints the topics, one a line, sorted; with --json each as describe --json has it.")
    int list(@Mixin final EndpointOptions endpoint, @Mixin final JsonOption output)
    {
        list(endpoint, output, spool -> spool.admin().listTopics(),
            (spool, name) -> AdminViews.topic(spool.admin().describeTopic(name)));
        return 0;
    }

    @Command(name = "create", mixinStandardHelpOptions = true,
        description = "Creates a topic; every setting left out keeps its default.")
    int create(
        @Parameters(paramLabel = "NAME", description = "The topic's name.") final String name,
        @Mixin final TopicSettingsOptions settings,
        @Mixin final EndpointOptions endpoint)
    {
        final TopicConfig config = settings.config();
        try (Endpoint spool = endpoint.open())
        {
            spool.admin().createTopic(name, config);
            print("created topic %s with %d partition(s) on %s%n", name, config.partitions(), spool.where());
        }
        return 0;
    }

    @Command(name = "describe", mixinStandardHelpOptions = true,
        description = "Prints the topic's settings and each partition's offset range, records, bytes and segments.")
    int describe(
        @Parameters(paramLabel = "NAME", description = "The topic's name.") final String name,
        @Mixin final EndpointOptions endpoint,
        @Mixin final JsonOption output)
    {
        try (Endpoint spool = endpoint.open())
        {
            final TopicDescription topic = spool.admin().describeTopic(name);
            if (output.json)
            {
                printJson(AdminViews.topic(topic));
                return 0;
            }
            long records = 0;
            long bytes = 0;
            for (final TopicDescription.PartitionDescription partition : topic.partitions())
            {
                records += partition.endOffset() - partition.startOffset();
                bytes += partition.sizeInBytes();
            }
            print("topic %s: %d partition(s), %,d records, %,d bytes%n", topic.name(), topic.partitions().size(),
                records, bytes);
            print("  %s%n", AdminViews.topicSettingsLine(topic.config()));
            print("  %9s  %12s  %12s  %12s  %14s  %8s%n", "partition", "start", "end", "records", "bytes",
                "segments");
            for (final TopicDescription.PartitionDescription partition : topic.partitions())
            {
                if (!partition.heldElsewhere().isEmpty())
                {
                    print("  %9d  not on this node: held by node %s%n", partition.partition(),
                        AdminViews.nodeList(partition.heldElsewhere()));
                    continue;
                }
                print("  %9d  %12d  %12d  %,12d  %,14d  %8d%n", partition.partition(), partition.startOffset(),
                    partition.endOffset(), partition.endOffset() - partition.startOffset(), partition.sizeInBytes(),
                    partition.segmentCount());
            }
        }
        return 0;
    }

    @Command(name = "alter", mixinStandardHelpOptions = true, description = {
        "Changes a topic's retention; its other settings are fixed when it is created.",
        "A limit left out keeps its value; none removes the limit. The next retention pass deletes the segments a " +
            "lowered limit excludes."})
    int alter(
        @Parameters(paramLabel = "NAME", description = "The topic's name.") final String name,
        @Mixin final RetentionOptions retention,
        @Mixin final EndpointOptions endpoint,
        @Mixin final JsonOption output)
    {
        if (retention.retentionMillis == null && retention.retentionBytes == null)
        {
            throw new ParameterException(subcommand("alter"), "give --retention, --retention-bytes or both");
        }
        try
        {
            TopicConfig.of(1).withRetention(retention.millisOr(-1), retention.bytesOr(-1));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(subcommand("alter"), ex.getMessage());
        }
        try (Endpoint spool = endpoint.open())
        {
            final LogConfig current = spool.admin().describeTopic(name).config().log();
            spool.admin().alterTopicRetention(name, retention.millisOr(current.retentionMillis()),
                retention.bytesOr(current.retentionBytes()));
            final TopicDescription altered = spool.admin().describeTopic(name);
            if (output.json)
            {
                printJson(AdminViews.topic(altered));
                return 0;
            }
            print("altered topic %s on %s: %s%n", name, spool.where(), AdminViews.topicSettingsLine(altered.config()));
        }
        return 0;
    }

    @Command(name = "delete", mixinStandardHelpOptions = true, description = {"Deletes a topic and its records.",
        "Refused while subscriptions read the topic, unless --force, which deletes them first."})
    int delete(
        @Parameters(paramLabel = "NAME", description = "The topic's name.") final String name,
        @Option(names = "--force", description = "Delete the subscriptions that read the topic (their state and " +
            "bindings) first.") final boolean force,
        @Mixin final EndpointOptions endpoint)
    {
        try (Endpoint spool = endpoint.open())
        {
            final List<String> readers = new ArrayList<>();
            if (force)
            {
                for (final String subscription : spool.admin().listSubscriptions())
                {
                    if (spool.admin().describeSubscription(subscription).topic().equals(name))
                    {
                        spool.admin().deleteSubscription(subscription);
                        readers.add(subscription);
                    }
                }
            }
            spool.admin().deleteTopic(name);
            print("deleted topic %s%s on %s%n", name, readers.isEmpty() ? "" : " and its subscriptions " + readers,
                spool.where());
        }
        return 0;
    }
}
