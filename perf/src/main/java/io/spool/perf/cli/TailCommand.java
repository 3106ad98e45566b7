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
import java.util.StringJoiner;
import java.util.concurrent.Callable;

@Command(
    name = "tail",
    mixinStandardHelpOptions = true,
    description = {
        "Follows a topic as a stream and prints each new record as it comes: partition, offset, key and value.",
        "Starts at the end unless --from-beginning or --offset says otherwise; runs until interrupted (Ctrl-C) "
            + "or until --max records were printed."})
final class TailCommand implements Callable<Integer>
{
    /** How long one poll waits on the server (or the log) before asking again; nothing ends on it. */
    private static final Duration POLL_TIMEOUT = Duration.ofSeconds(1);
    private static final int MAX_RECORDS_PER_POLL = 500;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "TOPIC", description = "The topic to follow.")
    String topic;

    @Mixin
    ReadOptions read;

    @Mixin
    EndpointOptions endpoint;

    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        try (Endpoint spool = endpoint.open(); Endpoint.Reader reader = spool.newReader())
        {
            final List<TopicDescription.PartitionDescription> partitions =
                read.assignAndSeek(spool, reader, topic, ReadOptions.Start.END);
            final StringJoiner starts = new StringJoiner(", ");
            for (final TopicDescription.PartitionDescription partition : partitions)
            {
                starts.add(partition.partition() + "@" + read.startOf(partition, ReadOptions.Start.END));
            }
            err.println("spool tail: following " + topic + " on " + spool.where() + " from partition@offset " +
                starts + "; Ctrl-C stops");
            err.flush();
            final long max = read.maxRecords();
            long printed = 0;
            while (printed < max && !Thread.currentThread().isInterrupted())
            {
                printed += reader.poll((polledTopic, partition, record) ->
                    out.println(RecordLines.line(partition, record)),
                    (int)Math.min(MAX_RECORDS_PER_POLL, max - printed), POLL_TIMEOUT);
                out.flush();
            }
        }
        return 0;
    }
}
