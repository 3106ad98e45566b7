package io.spool.perf.bench;

import io.spool.Spool;
import io.spool.perf.report.BenchResult;
import io.spool.perf.report.BenchRun;
import io.spool.perf.report.LatencyDistribution;
import io.spool.perf.report.LatencySummary;
import io.spool.perf.report.Throughput;
import io.spool.perf.report.ThroughputSeries;
import io.spool.wire.sqs.SqsConfig;
import io.spool.wire.sqs.SqsEndpoint;
import org.HdrHistogram.AtomicHistogram;
import org.elasticmq.rest.sqs.SQSRestServer;
import org.elasticmq.rest.sqs.SQSRestServerBuilder;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code spool bench sqs}: SQS clients (the AWS SDK for Java v2 over loopback) sending messages with
 * SendMessageBatch of 10, then receiving them with ReceiveMessage of 10 (long polling) and deleting them with
 * DeleteMessageBatch, against Spool's SQS endpoint and against ElasticMQ, both in this process, in the same rounds.
 * Spool is measured, ElasticMQ is the baseline; latencies are per request (a batch sent; a receive and its delete).
 * <p>
 * Design note: the two take turns inside each round, the one going first alternating from round to round, so that a
 * change of load weighs on both; warm-up rounds are not counted. Both are driven by the same clients: the same SDK,
 * HTTP client and threads. Stateless: one run at a time.
 */
public final class SqsBench
{
    public static final String NAME = "sqs";
    private static final int BATCH = 10;
    private static final int WAIT_SECONDS = 1;

    private SqsBench()
    {
    }

    /** What a run measures and how. */
    public record Settings(Path dataDirectory, long messages, int payloadBytes, int clients, int rounds,
        int warmupRounds)
    {
        public Settings
        {
            if (messages < BATCH || messages > Integer.MAX_VALUE || payloadBytes < 1 || payloadBytes > 262_144 ||
                clients < 1 || clients > 256 || rounds < 1 || warmupRounds < 0)
            {
                throw new IllegalArgumentException("messages must be from " + BATCH + " to " + Integer.MAX_VALUE +
                    ", payload bytes from 1 to 262144, clients from 1 to 256, rounds at least 1 and warm-up rounds " +
                    "at least 0; were " + messages + ", " + payloadBytes + ", " + clients + ", " + rounds + " and " +
                    warmupRounds);
            }
        }
    }

    /** One side: a client and how much it took, summed over the measured rounds. */
    private static final class Side
    {
        final String name;
        final SqsClient client;
        final AtomicHistogram sendLatency = LatencyHistograms.newHistogram();
        final AtomicHistogram receiveLatency = LatencyHistograms.newHistogram();
        final List<Double> sendRates = new ArrayList<>();
        final List<Double> receiveRates = new ArrayList<>();
        long sendNanos;
        long receiveNanos;

        Side(final String name, final String url)
        {
            this.name = name;
            this.client = SqsClient.builder().endpointOverride(URI.create(url)).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("bench", "bench")))
                .httpClient(UrlConnectionHttpClient.create()).build();
        }
    }

    public static List<BenchRun> run(final Settings settings, final PrintWriter progressOut)
    {
        final SQSRestServer elasticMq = SQSRestServerBuilder.withInterface("127.0.0.1").withDynamicPort().start();
        final ExecutorService threads = Executors.newFixedThreadPool(settings.clients());
        try (ScratchDirectory directory = ScratchDirectory.create(settings.dataDirectory(), "bench-sqs");
            Spool spool = Spool.builder(directory.path()).open();
            SqsEndpoint endpoint = SqsEndpoint.start(spool, SqsConfig.builder(directory.path().resolve("sqs"))
                .port(0).build()))
        {
            final Side spoolSide = new Side("Spool", endpoint.url());
            final Side baseline = new Side("ElasticMQ", "http://127.0.0.1:" +
                elasticMq.waitUntilStarted().localAddress().getPort());
            final String body = new String(Payloads.printable(settings.payloadBytes()), StandardCharsets.US_ASCII);
            final int total = settings.warmupRounds() + settings.rounds();
            for (int round = 0; round < total; round++)
            {
                final boolean measured = round >= settings.warmupRounds();
                final Side first = round % 2 == 0 ? spoolSide : baseline;
                final Side second = first == spoolSide ? baseline : spoolSide;
                for (final Side side : List.of(first, second))
                {
                    roundOn(side, "bench-" + round, body, settings, threads, measured);
                }
                progressOut.println(String.format(Locale.ROOT, "bench sqs: %s %d: send Spool %,.0f, ElasticMQ " +
                    "%,.0f messages/s; receive and delete Spool %,.0f, ElasticMQ %,.0f messages/s",
                    measured ? "round" : "warm-up round", measured ? round - settings.warmupRounds() + 1 : round + 1,
                    last(spoolSide.sendRates), last(baseline.sendRates), last(spoolSide.receiveRates),
                    last(baseline.receiveRates)));
                progressOut.flush();
                if (!measured)
                {
                    for (final Side side : List.of(spoolSide, baseline))
                    {
                        forgetWarmUp(side);
                    }
                }
            }
            progressOut.println(String.format(Locale.ROOT, "bench sqs: ElasticMQ's latencies: send p50 %.0f us, " +
                "p99 %.0f us; receive and delete p50 %.0f us, p99 %.0f us",
                baseline.sendLatency.getValueAtPercentile(50) / 1e3, baseline.sendLatency.getValueAtPercentile(99) / 1e3,
                baseline.receiveLatency.getValueAtPercentile(50) / 1e3,
                baseline.receiveLatency.getValueAtPercentile(99) / 1e3));
            progressOut.flush();
            spoolSide.client.close();
            baseline.client.close();
            final String shape = " (" + settings.clients() + " clients, " + settings.payloadBytes() + " B)";
            return List.of(
                result(NAME + " send" + shape, settings, spoolSide.sendNanos, baseline.sendNanos,
                    spoolSide.sendRates, baseline.sendRates, "SendMessageBatch of " + BATCH, spoolSide.sendLatency),
                result(NAME + " receive and delete" + shape, settings, spoolSide.receiveNanos, baseline.receiveNanos,
                    spoolSide.receiveRates, baseline.receiveRates, "ReceiveMessage of " + BATCH +
                        " (long poll) and its DeleteMessageBatch", spoolSide.receiveLatency));
        }
        finally
        {
            threads.shutdownNow();
            elasticMq.stopAndWait();
        }
    }

    private static double last(final List<Double> rates)
    {
        return rates.isEmpty() ? 0 : rates.get(rates.size() - 1);
    }

    private static void forgetWarmUp(final Side side)
    {
        side.sendRates.clear();
        side.receiveRates.clear();
        side.sendNanos = 0;
        side.receiveNanos = 0;
        side.sendLatency.reset();
        side.receiveLatency.reset();
    }

    /** One round on one side: a fresh queue, every message sent, then every message received and deleted. */
    private static void roundOn(final Side side, final String queue, final String body, final Settings settings,
        final ExecutorService threads, final boolean measured)
    {
        final String url = side.client.createQueue(b -> b.queueName(queue)).queueUrl();
        final long batches = settings.messages() / BATCH;
        final AtomicLong toSend = new AtomicLong(batches);
        final long sendStart = System.nanoTime();
        inParallel(threads, settings.clients(), () ->
        {
            while (toSend.getAndDecrement() > 0)
            {
                final List<SendMessageBatchRequestEntry> entries = new ArrayList<>(BATCH);
                for (int i = 0; i < BATCH; i++)
                {
                    entries.add(SendMessageBatchRequestEntry.builder().id("m" + i).messageBody(body).build());
                }
                final long start = System.nanoTime();
                side.client.sendMessageBatch(b -> b.queueUrl(url).entries(entries));
                LatencyHistograms.record(side.sendLatency, System.nanoTime() - start);
            }
        });
        final long sent = System.nanoTime() - sendStart;
        final AtomicLong toReceive = new AtomicLong(batches * BATCH);
        final long receiveStart = System.nanoTime();
        inParallel(threads, settings.clients(), () ->
        {
            while (toReceive.get() > 0)
            {
                final long start = System.nanoTime();
                final List<Message> messages = side.client.receiveMessage(b -> b.queueUrl(url)
                    .maxNumberOfMessages(BATCH).waitTimeSeconds(WAIT_SECONDS)).messages();
                if (messages.isEmpty())
                {
                    continue;
                }
                final List<DeleteMessageBatchRequestEntry> deletes = new ArrayList<>(messages.size());
                for (int i = 0; i < messages.size(); i++)
                {
                    deletes.add(DeleteMessageBatchRequestEntry.builder().id("d" + i)
                        .receiptHandle(messages.get(i).receiptHandle()).build());
                }
                side.client.deleteMessageBatch(b -> b.queueUrl(url).entries(deletes));
                LatencyHistograms.record(side.receiveLatency, System.nanoTime() - start);
                toReceive.addAndGet(-messages.size());
            }
        });
        final long received = System.nanoTime() - receiveStart;
        side.client.deleteQueue(b -> b.queueUrl(url));
        side.sendRates.add(batches * BATCH * 1e9 / sent);
        side.receiveRates.add(batches * BATCH * 1e9 / received);
        if (measured)
        {
            side.sendNanos += sent;
            side.receiveNanos += received;
        }
    }

    private static void inParallel(final ExecutorService threads, final int clients, final Runnable work)
    {
        final List<CompletableFuture<Void>> running = new ArrayList<>();
        for (int c = 0; c < clients; c++)
        {
            running.add(CompletableFuture.runAsync(work, threads));
        }
        CompletableFuture.allOf(running.toArray(new CompletableFuture[0])).join();
    }

    private static BenchRun result(final String benchmark, final Settings settings, final long spoolNanos,
        final long baselineNanos, final List<Double> spoolRates, final List<Double> baselineRates,
        final String latencyName, final AtomicHistogram latency)
    {
        final long messages = settings.messages() / BATCH * BATCH * settings.rounds();
        final double[] ends = new double[spoolRates.size()];
        for (int i = 0; i < ends.length; i++)
        {
            ends[i] = i + 1;
        }
        return new BenchRun(new BenchResult(benchmark, 1, settings.clients(), "none",
            new Throughput("Spool's SQS endpoint, " + settings.rounds() + " rounds", messages, settings.payloadBytes(),
                Math.max(1, spoolNanos)),
            new Throughput("ElasticMQ, same rounds", messages, settings.payloadBytes(), Math.max(1, baselineNanos)),
            latencyName, LatencySummary.ofNanos(latency), BenchResult.FSYNCS_NOT_COUNTED),
            List.of(new ThroughputSeries("Spool, per round", ends, unbox(spoolRates)),
                new ThroughputSeries("ElasticMQ, per round", ends, unbox(baselineRates))),
            LatencyDistribution.ofNanos(latency));
    }

    private static double[] unbox(final List<Double> rates)
    {
        return rates.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
