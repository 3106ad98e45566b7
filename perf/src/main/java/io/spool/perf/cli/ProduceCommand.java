package io.spool.perf.cli;

import io.spool.api.stream.PublishResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

@Command(
    name = "produce",
    mixinStandardHelpOptions = true,
    description = {
        "Publishes records to a topic: the VALUE arguments, or else one record per line of standard input.",
        "Prints where each record was stored, once it is (partition and offset)."})
final class ProduceCommand implements Callable<Integer>
{
    /** Sends waiting for their confirm at most, so that a long stdin does not hold every future at once. */
    private static final int MAX_PENDING = 1024;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "TOPIC", description = "The topic to publish to.")
    String topic;

    @Parameters(index = "1..*", paramLabel = "VALUE",
        description = "Values to publish, one record each; without any, each line of standard input is one.")
    List<String> values = List.of();

    @Option(names = "--key", paramLabel = "KEY",
        description = "Key of every record, which picks its partition; without it records are spread.")
    String key;

    @Mixin
    EndpointOptions endpoint;

    /** Standard input, unless a test gives another. */
    InputStream input = System.in;

    @Override
    public Integer call() throws IOException
    {
        final PrintWriter out = spec.commandLine().getOut();
        final byte[] keyBytes = key == null ? null : key.getBytes(StandardCharsets.UTF_8);
        try (Endpoint spool = endpoint.open(); Endpoint.Sender sender = spool.newSender())
        {
            final List<CompletableFuture<PublishResult>> pending = new ArrayList<>();
            if (values.isEmpty())
            {
                final BufferedReader lines = new BufferedReader(new InputStreamReader(input, StandardCharsets.UTF_8));
                for (String line = lines.readLine(); line != null; line = lines.readLine())
                {
                    pending.add(sender.send(topic, keyBytes, line.getBytes(StandardCharsets.UTF_8)));
                    if (pending.size() == MAX_PENDING)
                    {
                        printWhenStored(pending, out);
                    }
                }
            }
            else
            {
                for (final String value : values)
                {
                    pending.add(sender.send(topic, keyBytes, value.getBytes(StandardCharsets.UTF_8)));
                }
            }
            printWhenStored(pending, out);
        }
        return 0;
    }

    private void printWhenStored(final List<CompletableFuture<PublishResult>> pending, final PrintWriter out)
    {
        for (final CompletableFuture<PublishResult> send : pending)
        {
            final PublishResult stored;
            try
            {
                stored = send.join();
            }
            catch (final CompletionException ex)
            {
                throw ex.getCause() instanceof RuntimeException cause ? cause : ex;
            }
            out.println(topic + " partition=" + stored.partition() + " offset=" + stored.offset());
        }
        out.flush();
        pending.clear();
    }
}
