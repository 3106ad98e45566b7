package io.spool.perf.cli;

import io.spool.stream.TopicDescription;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/** {@code spool topics}: lists, creates, describes and deletes topics. */
@Command(
    name = "topics",
    mixinStandardHelpOptions = true,
    description = "Lists, creates, describes and deletes topics on a server (default) or a data directory.")
final class TopicsCommand implements Runnable
{
    @Spec
    CommandSpec spec;

    @Override
    public void run()
    {
        throw new ParameterException(spec.commandLine(), "a subcommand is needed: list, create, describe or delete");
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Prints the topics, one a line, sorted.")
    int list(@Mixin final EndpointOptions endpoint)
    {
        try (Endpoint spool = endpoint.open())
        {
            final PrintWriter out = spec.commandLine().getOut();
            spool.listTopics().stream().sorted().forEach(out::println);
            out.flush();
        }
        return 0;
    }

    @Command(name = "create", mixinStandardHelpOptions = true, description = "Creates a topic.")
    int create(
        @Parameters(paramLabel = "NAME", description = "The topic's name.") final String name,
        @Option(names = "--partitions", defaultValue = "1", paramLabel = "N",
            description = "Partitions of the topic (default: ${DEFAULT-VALUE}).") final int partitions,
        @Mixin final EndpointOptions endpoint)
    {
        try (Endpoint spool = endpoint.open())
        {
            spool.createTopic(name, partitions);
            print("created topic %s with %d partition(s) on %s%n", name, partitions, spool.where());
        }
        return 0;
    }

    @Command(name = "describe", mixinStandardHelpOptions = true,
        description = "Prints each partition's offset range, records, bytes and segments.")
    int describe(
        @Parameters(paramLabel = "NAME", description = "The topic's name.") final String name,
        @Mixin final EndpointOptions endpoint)
    {
        try (Endpoint spool = endpoint.open())
        {
            final TopicDescription topic = spool.describeTopic(name);
            final List<TopicDescription.PartitionDescription> partitions = topic.partitions();
            long records = 0;
            long bytes = 0;
            for (final TopicDescription.PartitionDescription partition : partitions)
            {
                records += partition.endOffset() - partition.startOffset();
                bytes += partition.sizeInBytes();
            }
            print("topic %s: %d partition(s), %,d records, %,d bytes%n", topic.name(), partitions.size(), records,
                bytes);
            print("  %9s  %12s  %12s  %12s  %14s  %8s%n", "partition", "start", "end", "records", "bytes",
                "segments");
            for (final TopicDescription.PartitionDescription partition : partitions)
            {
                print("  %9d  %12d  %12d  %,12d  %,14d  %8d%n", partition.partition(), partition.startOffset(),
                    partition.endOffset(), partition.endOffset() - partition.startOffset(), partition.sizeInBytes(),
                    partition.segmentCount());
            }
        }
        return 0;
    }

    @Command(name = "delete", mixinStandardHelpOptions = true, description = "Deletes a topic and its records.")
    int delete(
        @Parameters(paramLabel = "NAME", description = "The topic's name.") final String name,
        @Mixin final EndpointOptions endpoint)
    {
        try (Endpoint spool = endpoint.open())
        {
            spool.deleteTopic(name);
            print("deleted topic %s on %s%n", name, spool.where());
        }
        return 0;
    }

    private void print(final String format, final Object... args)
    {
        final PrintWriter out = spec.commandLine().getOut();
        out.print(String.format(Locale.ROOT, format, args));
        out.flush();
    }
}
