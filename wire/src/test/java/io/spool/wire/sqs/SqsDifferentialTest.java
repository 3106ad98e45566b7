package io.spool.wire.sqs;

import io.spool.Spool;
import io.spool.testing.SlowTest;
import org.elasticmq.rest.sqs.SQSRestServer;
import org.elasticmq.rest.sqs.SQSRestServerBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SqsException;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same scripted scenarios against Spool's SQS endpoint and against ElasticMQ, in this JVM, on the real clock
 * (ElasticMQ's cannot be injected): each scenario writes down what a client observes, and the two transcripts must
 * be equal. Observations are chosen so that a slow machine cannot change them: a message that must still be hidden
 * is hidden for seconds more than the check takes, and a message that must reappear is waited for (bounded) and
 * checked to have stayed away at least as long as it had to. Where Spool differs from SQS on purpose (see the SQS
 * guide), the scenario records what both agree on.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@SlowTest
class SqsDifferentialTest
{
    private static final long BOUND_MILLIS = 20_000;

    @TempDir
    static Path dir;
    private Spool spool;
    private SqsEndpoint endpoint;
    private SQSRestServer elasticMq;
    private SqsClient spoolClient;
    private SqsClient elasticMqClient;

    @BeforeAll
    void start()
    {
        spool = Spool.builder(dir).backgroundMaintenance(false).open();
        endpoint = SqsEndpoint.start(spool, SqsConfig.builder(dir.resolve("sqs")).port(0).build());
        elasticMq = SQSRestServerBuilder.withInterface("127.0.0.1").withDynamicPort().start();
        final int port = elasticMq.waitUntilStarted().localAddress().getPort();
        spoolClient = SqsFixture.client(endpoint.url(), "any");
        elasticMqClient = SqsFixture.client("http://127.0.0.1:" + port, "any");
    }

    @AfterAll
    void stop()
    {
        spoolClient.close();
        elasticMqClient.close();
        elasticMq.stopAndWait();
        endpoint.close();
        spool.close();
    }

    /** Runs the scenario against both, on queues of the same names, and compares what was observed. */
    private void agree(final String name, final Function<SqsClient, List<String>> scenario)
    {
        final CompletableFuture<List<String>> onElasticMq = CompletableFuture.supplyAsync(() ->
            scenario.apply(elasticMqClient));
        final List<String> onSpool = scenario.apply(spoolClient);
        assertThat(onSpool).as(name + ": Spool's transcript against ElasticMQ's").isEqualTo(onElasticMq.join());
        assertThat(onSpool).isNotEmpty();
    }

    private static String queue(final SqsClient sqs, final String name, final String... attributes)
    {
        final Map<QueueAttributeName, String> map = new LinkedHashMap<>();
        for (int i = 0; i < attributes.length; i += 2)
        {
            map.put(QueueAttributeName.fromValue(attributes[i]), attributes[i + 1]);
        }
        return sqs.createQueue(b -> b.queueName(name).attributes(map)).queueUrl();
    }

    private static String arn(final SqsClient sqs, final String url)
    {
        return sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(QueueAttributeName.QUEUE_ARN))
            .attributesAsStrings().get("QueueArn");
    }

    private static List<Message> receive(final SqsClient sqs, final String url, final int max, final int wait)
    {
        return sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(max).waitTimeSeconds(wait)
            .messageAttributeNames("All").messageSystemAttributeNames(MessageSystemAttributeName.ALL)).messages();
    }

    /** Receives until a message comes, within the bound. */
    private static Message await(final SqsClient sqs, final String url)
    {
        final long deadline = System.currentTimeMillis() + BOUND_MILLIS;
        while (System.currentTimeMillis() < deadline)
        {
            final List<Message> messages = receive(sqs, url, 1, 1);
            if (!messages.isEmpty())
            {
                return messages.get(0);
            }
        }
        throw new AssertionError("no message in " + BOUND_MILLIS + " ms on " + url);
    }

    /**
     * The exception the SDK made of the answer: the error's shape. (Its error code differs: ElasticMQ's
     * x-amzn-query-error header carries the shape's name, Spool's the query code and fault as SQS's does.)
     */
    private static String errorCode(final Runnable call)
    {
        try
        {
            call.run();
            return "ok";
        }
        catch (final SqsException ex)
        {
            return ex.getClass().getSimpleName();
        }
    }

    @Test
    void visibilityHidesExtendsAndExpires()
    {
        agree("visibility", sqs ->
        {
            final List<String> seen = new ArrayList<>();
            final String url = queue(sqs, "visibility", "VisibilityTimeout", "10");
            sqs.sendMessage(b -> b.queueUrl(url).messageBody("job"));
            final Message first = receive(sqs, url, 1, 0).get(0);
            seen.add("first receive " + first.body() + " #" + first.attributesAsStrings().get("ApproximateReceiveCount"));
            seen.add("while hidden " + receive(sqs, url, 10, 0).size());
            sqs.changeMessageVisibility(b -> b.queueUrl(url).receiptHandle(first.receiptHandle()).visibilityTimeout(30));
            seen.add("after extending " + receive(sqs, url, 10, 0).size());
            final long shortened = System.currentTimeMillis();
            sqs.changeMessageVisibility(b -> b.queueUrl(url).receiptHandle(first.receiptHandle()).visibilityTimeout(1));
            final Message again = await(sqs, url);
            seen.add("reappeared #" + again.attributesAsStrings().get("ApproximateReceiveCount") + " after >= 1 s: " +
                (System.currentTimeMillis() - shortened >= 1_000));
            seen.add("same id " + again.messageId().equals(first.messageId()));
            seen.add("delete with the old handle: " + errorCode(() -> sqs.deleteMessage(b -> b.queueUrl(url)
                .receiptHandle(first.receiptHandle()))));
            seen.add("delete with the new handle: " + errorCode(() -> sqs.deleteMessage(b -> b.queueUrl(url)
                .receiptHandle(again.receiptHandle()))));
            seen.add("then " + receive(sqs, url, 10, 0).size());
            return seen;
        });
    }

    @Test
    void redriveAfterMaxReceiveCountKeepsTheMessageId()
    {
        agree("redrive", sqs ->
        {
            final List<String> seen = new ArrayList<>();
            final String dlq = queue(sqs, "redrive-dlq");
            final String url = queue(sqs, "redrive", "VisibilityTimeout", "1", "RedrivePolicy",
                "{\"deadLetterTargetArn\":\"" + arn(sqs, dlq) + "\",\"maxReceiveCount\":\"2\"}");
            final String id = sqs.sendMessage(b -> b.queueUrl(url).messageBody("poison")).messageId();
            final List<String> counts = new ArrayList<>();
            final long deadline = System.currentTimeMillis() + BOUND_MILLIS;
            List<Message> dead = List.of();
            while (dead.isEmpty() && System.currentTimeMillis() < deadline)
            {
                receive(sqs, url, 1, 1).forEach(m -> counts.add(m.attributesAsStrings().get("ApproximateReceiveCount")));
                dead = receive(sqs, dlq, 1, 0);
            }
            seen.add("received from the source as " + counts);
            seen.add("in the dead-letter queue: " + dead.stream().map(m -> m.body() + " same id " +
                m.messageId().equals(id)).toList());
            seen.add("source then " + receive(sqs, url, 10, 0).size());
            seen.add("dead-letter sources " + sqs.listDeadLetterSourceQueues(b -> b.queueUrl(dlq)).queueUrls().size());
            return seen;
        });
    }

    @Test
    void fifoHoldsAGroupWhileItsMessageIsInFlightAndReleasesItOnDelete()
    {
        agree("fifo", sqs ->
        {
            final List<String> seen = new ArrayList<>();
            final String url = queue(sqs, "groups.fifo", "FifoQueue", "true", "ContentBasedDeduplication", "true",
                "VisibilityTimeout", "30");
            for (final String body : List.of("A0", "A1", "A2", "B0", "B1", "C0"))
            {
                sqs.sendMessage(b -> b.queueUrl(url).messageBody(body).messageGroupId(body.substring(0, 1)));
            }
            final Message held = receive(sqs, url, 1, 0).get(0);
            seen.add("held " + held.body());
            seen.add("while held, by group " + drainByGroup(sqs, url));
            sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(held.receiptHandle()));
            seen.add("after the delete, by group " + drainByGroup(sqs, url));
            return seen;
        });
    }

    /** Receives and deletes until nothing comes; what came, group by group, in the order each group came. */
    private static Map<String, List<String>> drainByGroup(final SqsClient sqs, final String url)
    {
        final Map<String, List<String>> groups = new TreeMap<>();
        List<Message> batch;
        while (!(batch = receive(sqs, url, 10, 0)).isEmpty())
        {
            for (final Message message : batch)
            {
                groups.computeIfAbsent(message.attributesAsStrings().get("MessageGroupId"), g -> new ArrayList<>())
                    .add(message.body());
                sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(message.receiptHandle()));
            }
        }
        return groups;
    }

    @Test
    void deduplicationAnswersARepeatWithTheFirstId()
    {
        agree("dedup", sqs ->
        {
            final List<String> seen = new ArrayList<>();
            final String url = queue(sqs, "dedup.fifo", "FifoQueue", "true", "ContentBasedDeduplication", "true");
            final String first = sqs.sendMessage(b -> b.queueUrl(url).messageBody("one").messageGroupId("g")
                .messageDeduplicationId("d-1")).messageId();
            final String repeat = sqs.sendMessage(b -> b.queueUrl(url).messageBody("one again").messageGroupId("g")
                .messageDeduplicationId("d-1")).messageId();
            final String byContent = sqs.sendMessage(b -> b.queueUrl(url).messageBody("same").messageGroupId("g"))
                .messageId();
            final String byContentAgain = sqs.sendMessage(b -> b.queueUrl(url).messageBody("same")
                .messageGroupId("g")).messageId();
            seen.add("repeat has the first id " + first.equals(repeat));
            seen.add("content repeat has the first id " + byContent.equals(byContentAgain));
            seen.add("stored " + drainByGroup(sqs, url));
            return seen;
        });
    }

    @Test
    void aLongPollWakesUpOnASendAndAnEmptyOneWaitsItsTime()
    {
        agree("long poll", sqs ->
        {
            final List<String> seen = new ArrayList<>();
            final String url = queue(sqs, "polling");
            final long start = System.currentTimeMillis();
            final CompletableFuture<List<Message>> waiting = CompletableFuture.supplyAsync(() ->
                receive(sqs, url, 10, 10));
            sqs.sendMessage(b -> b.queueUrl(url).messageBody("wake up"));
            final List<Message> woken = waiting.join();
            seen.add("long poll got " + woken.stream().map(Message::body).toList() + " before its wait ended: " +
                (System.currentTimeMillis() - start < 10_000));
            woken.forEach(m -> sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.receiptHandle())));
            final long empty = System.currentTimeMillis();
            seen.add("empty long poll got " + receive(sqs, url, 10, 1).size() + " after >= 1 s: " +
                (System.currentTimeMillis() - empty >= 1_000));
            return seen;
        });
    }

    @Test
    void delayedMessagesComeAfterTheirDelay()
    {
        agree("delays", sqs ->
        {
            final List<String> seen = new ArrayList<>();
            final String url = queue(sqs, "delays");
            final long sent = System.currentTimeMillis();
            sqs.sendMessage(b -> b.queueUrl(url).messageBody("later").delaySeconds(2));
            sqs.sendMessage(b -> b.queueUrl(url).messageBody("now"));
            final List<Message> first = receive(sqs, url, 10, 0);
            seen.add("at once " + first.stream().map(Message::body).toList());
            first.forEach(m -> sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.receiptHandle())));
            final Message later = await(sqs, url);
            seen.add("then " + later.body() + " after >= 2 s: " + (System.currentTimeMillis() - sent >= 2_000));
            return seen;
        });
    }

    @Test
    void digestsErrorsAndBatchesAgree()
    {
        agree("shapes", sqs ->
        {
            final List<String> seen = new ArrayList<>();
            final String url = queue(sqs, "shapes");
            final Map<String, MessageAttributeValue> attributes = Map.of(
                "s", MessageAttributeValue.builder().dataType("String").stringValue("\u00e9t\u00e9").build(),
                "n", MessageAttributeValue.builder().dataType("Number.float").stringValue("1.5").build(),
                "b", MessageAttributeValue.builder().dataType("Binary").binaryValue(
                    software.amazon.awssdk.core.SdkBytes.fromByteArray(new byte[] {1, 2, 3})).build());
            final var sent = sqs.sendMessage(b -> b.queueUrl(url).messageBody("body \u2603").messageAttributes(attributes));
            seen.add("send digests " + sent.md5OfMessageBody() + " " + sent.md5OfMessageAttributes());
            final Message received = receive(sqs, url, 1, 0).get(0);
            seen.add("receive digests " + received.md5OfBody() + " " + received.md5OfMessageAttributes());
            seen.add("attributes " + new TreeMap<>(received.messageAttributes()));
            seen.add("not visible " + sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNamesWithStrings(
                "ApproximateNumberOfMessagesNotVisible")).attributesAsStrings());
            seen.add("batch " + sqs.sendMessageBatch(b -> b.queueUrl(url).entries(
                SendMessageBatchRequestEntry.builder().id("x").messageBody("1").build(),
                SendMessageBatchRequestEntry.builder().id("y").messageBody("2").build())).successful().size());
            seen.add("duplicate batch ids: " + errorCode(() -> sqs.sendMessageBatch(b -> b.queueUrl(url).entries(
                SendMessageBatchRequestEntry.builder().id("x").messageBody("1").build(),
                SendMessageBatchRequestEntry.builder().id("x").messageBody("2").build()))));
            seen.add("missing queue: " + errorCode(() -> sqs.getQueueUrl(b -> b.queueName("missing-queue"))));
            seen.add("forged handle: " + errorCode(() -> sqs.deleteMessage(b -> b.queueUrl(url)
                .receiptHandle("forged"))));
            seen.add("purge then " + purgeAndCount(sqs, url));
            return seen;
        });
    }

    private static int purgeAndCount(final SqsClient sqs, final String url)
    {
        sqs.purgeQueue(b -> b.queueUrl(url));
        return receive(sqs, url, 10, 0).size();
    }
}
