package io.spool.perf.cli;

import io.spool.api.stream.TopicDescription;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

@Command(
    name = "consume",
    mixinStandardHelpOptions = true,
    description = {
        "Reads a topic as a stream and prints each record: partition, offset, key and value (as UTF-8 text).",
        "Starts at the beginning unless --offset says otherwise, and stops at the end each partition had when it "
            + "started, or after --max records; `spool tail` follows new records instead."})
final class ConsumeCommand implements Callable<Integer>
{
    /** A poll returns as soon as records are there; this long without any below the end means they are gone. */
    private static final Duration POLL_TIMEOUT = Duration.ofSeconds(10);
    private static final int MAX_RECORDS_PER_POLL = 500;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "TOPIC", description = "The topic to read.")
    String topic;

    @Mixin
    ReadOptions read;

    @Mixin
    EndpointOptions endpoint;

    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        try (Endpoint spool = endpoint.open(); Endpoint.Reader reader = spool.newReader())
        {
            final List<TopicDescription.PartitionDescription> partitions =
                read.assignAndSeek(spool, reader, topic, ReadOptions.Start.BEGINNING);
            final int partitionCount = partitions.get(partitions.size() - 1).partition() + 1;
            final long[] next = new long[partitionCount];
            final long[] end = new long[partitionCount];
            for (final TopicDescription.PartitionDescription partition : partitions)
            {
                next[partition.partition()] = read.startOf(partition, ReadOptions.Start.BEGINNING);
                end[partition.partition()] = partition.endOffset();
            }
            final long max = read.maxRecords();
            long printed = 0;
            while (printed < max && !allReached(next, end))
            {
                final int asked = (int)Math.min(MAX_RECORDS_PER_POLL, max - printed);
                final int got = reader.poll((polledTopic, partition, record) ->
                {
                    out.println(RecordLines.line(partition, record));
                    next[partition] = record.offset() + 1;
                }, asked, POLL_TIMEOUT);
                if (got == 0)
                {
                    throw new IllegalStateException("no record came in " + POLL_TIMEOUT.toSeconds() +
                        " s below the end offsets the topic had at the start; were they deleted?");
                }
                printed += got;
                out.flush();
            }
        }
        return 0;
    }

    private static boolean allReached(final long[] next, final long[] end)
    {
        for (int p = 0; p < next.length; p++)
        {
            if (next[p] < end[p])
            {
                return false;
            }
        }
        return true;
    }
}
