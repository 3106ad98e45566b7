package io.spool.perf.cli;

import io.spool.api.stream.TopicDescription;
import io.spool.api.stream.TopicPartition;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.util.ArrayList;
import java.util.List;

/** Which partitions {@code consume} and {@code tail} read, and from where. Not thread-safe. */
final class ReadOptions
{
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--from-beginning", description = "Start at the first record still stored in each partition.")
    boolean fromBeginning;

    @Option(names = "--offset", paramLabel = "OFFSET", description = "Start at this offset in each partition read.")
    Long offset;

    @Option(names = "--partition", paramLabel = "P", description = "Read only this partition (default: all).")
    Integer partition;

    @Option(names = "--max", paramLabel = "N", description = "Stop after N records.")
    Long max;

    /** Where a reader starts when neither --from-beginning nor --offset is given. */
    enum Start
    {
        BEGINNING,
        END
    }

    /**
     * Assigns the chosen partitions of {@code topic} to {@code reader} and seeks each to its start.
     *
     * @return the partitions read, as described just before seeking (their end offsets say what was there).
     */
    List<TopicDescription.PartitionDescription> assignAndSeek(final Endpoint spool, final Endpoint.Reader reader,
        final String topic, final Start byDefault)
    {
        if (fromBeginning && offset != null)
        {
            throw new ParameterException(spec.commandLine(), "give --from-beginning or --offset, not both");
        }
        if (max != null && max < 1)
        {
            throw new ParameterException(spec.commandLine(), "--max must be at least 1, was " + max);
        }
        final TopicDescription description = spool.admin().describeTopic(topic);
        final List<TopicDescription.PartitionDescription> chosen = new ArrayList<>();
        for (final TopicDescription.PartitionDescription candidate : description.partitions())
        {
            if (partition == null || partition == candidate.partition())
            {
                chosen.add(candidate);
            }
        }
        if (chosen.isEmpty())
        {
            throw new ParameterException(spec.commandLine(), "topic " + topic + " has partitions 0.." +
                (description.partitions().size() - 1) + ", there is no partition " + partition);
        }
        final List<TopicPartition> assigned = new ArrayList<>();
        for (final TopicDescription.PartitionDescription each : chosen)
        {
            assigned.add(new TopicPartition(topic, each.partition()));
        }
        reader.assign(assigned);
        for (final TopicDescription.PartitionDescription each : chosen)
        {
            reader.seek(new TopicPartition(topic, each.partition()), startOf(each, byDefault));
        }
        return chosen;
    }

    long maxRecords()
    {
        return max == null ? Long.MAX_VALUE : max;
    }

    long startOf(final TopicDescription.PartitionDescription partition, final Start byDefault)
    {
        if (offset != null)
        {
            return offset;
        }
        return fromBeginning || byDefault == Start.BEGINNING ? partition.startOffset() : partition.endOffset();
    }
}
