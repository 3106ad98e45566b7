package io.spool.perf.cli;

import io.spool.api.stream.GroupDescription;
import io.spool.api.stream.GroupReport;
import io.spool.api.stream.OffsetSpec;
import io.spool.api.stream.TopicPartition;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** {@code spool groups}: lists, describes, resets and deletes consumer groups, as Kafka's consumer-groups tool. */
@Command(
    name = "groups",
    mixinStandardHelpOptions = true,
    description = "Lists, describes (with lag per partition), resets the offsets of and deletes consumer groups on " +
        "a server (default) or a data directory.")
final class GroupsCommand extends AdminCommand
{
    @Override
    String subcommandNames()
    {
        return "list, describe, reset-offsets or delete";
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
        description = "Prints the groups with live members or committed offsets, one a line, sorted; with --json " +
            "each as describe --json has it.")
    int list(@Mixin final EndpointOptions endpoint, @Mixin final JsonOption output)
    {
        list(endpoint, output, spool -> spool.groupsAndExchanges().listGroups(),
            (spool, name) -> AdminViews.group(spool.groupsAndExchanges().describeGroup(name)));
        return 0;
    }

    @Command(name = "describe", mixinStandardHelpOptions = true,
        description = "Prints the group's members and, per partition, its committed offset, the log's range and " +
            "the lag.")
    int describe(
        @Parameters(paramLabel = "GROUP", description = "The group's id.") final String groupId,
        @Mixin final EndpointOptions endpoint,
        @Mixin final JsonOption output)
    {
        try (Endpoint spool = endpoint.open())
        {
            final GroupReport report = spool.groupsAndExchanges().describeGroup(groupId);
            if (output.json)
            {
                printJson(AdminViews.group(report));
                return 0;
            }
            final long totalLag = report.partitions().stream().mapToLong(GroupReport.PartitionPosition::lag).sum();
            final GroupDescription membership = report.membership();
            if (membership == null)
            {
                print("group %s: empty (no live members), total lag %,d%n", groupId, totalLag);
            }
            else
            {
                print("group %s: stable, generation %d, assignor %s, %d member(s), total lag %,d%n", groupId,
                    membership.generation(), membership.assignor(), membership.members().size(), totalLag);
                for (final String member : new TreeSet<>(membership.members()))
                {
                    print("  member %s: topics %s, partitions %s%n", member,
                        String.join(",", new TreeSet<>(membership.subscriptions().get(member))),
                        new TreeSet<>(membership.targetAssignment().getOrDefault(member, List.of())));
                }
            }
            print("  %-24s  %9s  %12s  %12s  %12s  %12s%n", "topic", "partition", "committed", "start", "end",
                "lag");
            for (final GroupReport.PartitionPosition position : report.partitions())
            {
                print("  %-24s  %9d  %12s  %12d  %12d  %,12d%n", position.partition().topic(),
                    position.partition().partition(),
                    position.committed() == GroupReport.PartitionPosition.NO_OFFSET ? "-" : position.committed(),
                    position.startOffset(), position.endOffset(), position.lag());
            }
        }
        return 0;
    }

    /** Exactly one of the four places a reset goes to. Not thread-safe. */
    static final class ResetTarget
    {
        @Option(names = "--to-earliest", required = true, description = "The first record still stored.")
        boolean earliest;

        @Option(names = "--to-latest", required = true, description = "The end: only records published later.")
        boolean latest;

        @Option(names = "--to-offset", required = true, paramLabel = "OFFSET",
            description = "This offset, kept within the log's start and end.")
        Long offset;

        @Option(names = "--to-timestamp", required = true, paramLabel = "TIME",
            description = "The first record published at or after TIME: epoch milliseconds or an ISO-8601 instant.")
        String timestamp;
    }

    @Command(name = "reset-offsets", mixinStandardHelpOptions = true,
        description = {"Commits the group's offsets for a topic's partitions to the earliest, the latest, an offset " +
            "or a time.", "Refused while the group has live members, as Kafka's tool does: stop them first. With " +
            "--dry-run it only prints the offsets."})
    int resetOffsets(
        @Parameters(paramLabel = "GROUP", description = "The group's id.") final String groupId,
        @Option(names = "--topic", required = true, paramLabel = "TOPIC", description = "The topic to reset.")
        final String topic,
        @Option(names = "--partition", paramLabel = "P", split = ",",
            description = "Only these partitions, as 0,2 (default: every partition).") final List<Integer> partitions,
        @ArgGroup(exclusive = true, multiplicity = "1") final ResetTarget target,
        @Option(names = "--dry-run", description = "Print the offsets a reset would commit, and commit nothing.")
        final boolean dryRun,
        @Mixin final EndpointOptions endpoint,
        @Mixin final JsonOption output)
    {
        final OffsetSpec spec = offsetSpec(target);
        try (Endpoint spool = endpoint.open())
        {
            final Map<TopicPartition, Long> offsets = spool.groupsAndExchanges().resetOffsets(groupId, topic,
                partitions == null ? List.of() : partitions, spec, dryRun);
            if (output.json)
            {
                printJson(AdminViews.offsets(offsets));
                return 0;
            }
            print("%s offsets of group %s on %s:%n", dryRun ? "would reset (dry run)" : "reset", groupId,
                spool.where());
            new TreeMap<>(offsets).forEach((partition, offset) ->
                print("  %s partition=%d offset=%d%n", partition.topic(), partition.partition(), offset));
        }
        return 0;
    }

    private OffsetSpec offsetSpec(final ResetTarget target)
    {
        if (target.earliest)
        {
            return OffsetSpec.earliest();
        }
        if (target.latest)
        {
            return OffsetSpec.latest();
        }
        if (target.offset != null)
        {
            if (target.offset < 0)
            {
                throw new ParameterException(subcommand("reset-offsets"),
                    "--to-offset must be >= 0, was " + target.offset);
            }
            return OffsetSpec.offset(target.offset);
        }
        final long millis = SubscriptionSettingsOptions.epochMillis(subcommand("reset-offsets"), "--to-timestamp",
            target.timestamp);
        if (millis < 0)
        {
            throw new ParameterException(subcommand("reset-offsets"),
                "--to-timestamp must not be before 1970, was " + target.timestamp);
        }
        return OffsetSpec.timestamp(millis);
    }

    @Command(name = "delete", mixinStandardHelpOptions = true,
        description = "Forgets the group's committed offsets; refused while it has live members.")
    int delete(
        @Parameters(paramLabel = "GROUP", description = "The group's id.") final String groupId,
        @Mixin final EndpointOptions endpoint)
    {
        try (Endpoint spool = endpoint.open())
        {
            spool.groupsAndExchanges().deleteGroup(groupId);
            print("deleted group %s on %s%n", groupId, spool.where());
        }
        return 0;
    }
}
