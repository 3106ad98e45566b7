package io.spool.perf.cli;

import io.spool.perf.bench.SqsBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.util.concurrent.Callable;

@Command(
    name = "sqs",
    mixinStandardHelpOptions = true,
    description = {
        "SQS clients (the AWS SDK for Java v2 over loopback) send messages with SendMessageBatch of 10, then receive "
            + "them with ReceiveMessage of 10 (long polling) and delete them with DeleteMessageBatch, against Spool's "
            + "SQS endpoint and against ElasticMQ in this process, in the same rounds.",
        "Prints messages/s over the measured rounds and the ratio to ElasticMQ, and Spool's latency per request; "
            + "one round per line on stderr as it ends; with --json one JSON object for send and one for receive."})
final class SqsCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Option(names = "--messages", defaultValue = "20000", paramLabel = "N",
        description = "Messages per side and round, in batches of 10 (default: ${DEFAULT-VALUE}).")
    long messages;

    @Option(names = "--payload-bytes", defaultValue = "256", paramLabel = "BYTES",
        description = "Body size of each message (default: ${DEFAULT-VALUE}).")
    int payloadBytes;

    @Option(names = "--clients", defaultValue = "4", paramLabel = "N",
        description = "Client threads sending, then receiving, at once (default: ${DEFAULT-VALUE}).")
    int clients;

    @Mixin
    RoundOptions rounds;

    @Mixin
    RunOutputOptions output;

    @Override
    public Integer call() throws IOException
    {
        return BenchOutput.runAndPrint(() -> SqsBench.run(new SqsBench.Settings(output.dataDir, messages,
            payloadBytes, clients, rounds.rounds, rounds.warmupRounds), spec.commandLine().getErr()), output, spec);
    }
}
