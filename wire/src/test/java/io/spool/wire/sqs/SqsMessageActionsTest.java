package io.spool.wire.sqs;

import io.spool.queue.DeathHistory;
import io.spool.testing.SlowTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchResponse;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageNotInflightException;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeNameForSends;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeValue;
import software.amazon.awssdk.services.sqs.model.ReceiptHandleIsInvalidException;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageResponse;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The message actions, through the AWS SDK for Java v2, which checks every MD5 it is answered with: sends with
 * attributes, receives with their attributes, deletes, visibility changes, FIFO order and dedup, delays, long polls,
 * dead letters and their redrive.
 */
@SlowTest
class SqsMessageActionsTest
{
    @TempDir
    Path dir;
    SqsFixture fx;

    @BeforeEach
    void open()
    {
        fx = new SqsFixture(dir);
    }

    @AfterEach
    void close()
    {
        fx.close();
    }

    private List<Message> receive(final String url, final int max)
    {
        return fx.sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(max).messageAttributeNames("All")
            .messageSystemAttributeNames(MessageSystemAttributeName.ALL)).messages();
    }

    /** Receives up to ten messages and deletes them; their bodies. */
    private List<String> take(final String url)
    {
        final List<Message> messages = receive(url, 10);
        messages.forEach(m -> fx.sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.receiptHandle())));
        return bodies(messages);
    }

    private static List<String> bodies(final List<Message> messages)
    {
        return messages.stream().map(Message::body).toList();
    }

    @Test
    void attributesOfEveryTypeComeBackWithTheirDigests()
    {
        final String url = fx.queue("orders");
        final Map<String, MessageAttributeValue> attributes = Map.of(
            "text", MessageAttributeValue.builder().dataType("String").stringValue("caf\u00e9 \uD83D\uDE00").build(),
            "count", MessageAttributeValue.builder().dataType("Number").stringValue("-12.5e3").build(),
            "label", MessageAttributeValue.builder().dataType("String.custom").stringValue("x").build(),
            "blob", MessageAttributeValue.builder().dataType("Binary.gz")
                .binaryValue(SdkBytes.fromByteArray(new byte[] {0, -1, 7})).build());
        final SendMessageResponse sent = fx.sqs.sendMessage(b -> b.queueUrl(url).messageBody("<b>&amp;\u00e9\t</b>")
            .messageAttributes(attributes).messageSystemAttributesWithStrings(Map.of("AWSTraceHeader",
                MessageSystemAttributeValue.builder().dataType("String").stringValue("Root=1-abc").build())));

        final Message message = receive(url, 1).get(0);

        assertThat(message.messageId()).isEqualTo(sent.messageId());
        assertThat(message.body()).isEqualTo("<b>&amp;\u00e9\t</b>");
        assertThat(message.md5OfMessageAttributes()).isEqualTo(sent.md5OfMessageAttributes());
        assertThat(message.messageAttributes()).isEqualTo(attributes);
        assertThat(sent.md5OfMessageSystemAttributes()).isNotNull();
        assertThat(message.attributesAsStrings()).containsEntry("ApproximateReceiveCount", "1")
            .containsEntry("SentTimestamp", "1700000000000").containsEntry("AWSTraceHeader", "Root=1-abc")
            .containsEntry("ApproximateFirstReceiveTimestamp", "1700000000000").containsKey("SenderId");
        assertThat(fx.sqs.receiveMessage(b -> b.queueUrl(url)).messages()).isEmpty();
    }

    @Test
    void attributeNamesChooseWhatComesBack()
    {
        final String url = fx.queue("orders");
        fx.sqs.sendMessage(b -> b.queueUrl(url).messageBody("m").messageAttributes(Map.of(
            "a.one", MessageAttributeValue.builder().dataType("String").stringValue("1").build(),
            "b", MessageAttributeValue.builder().dataType("String").stringValue("2").build())));

        final Message message = fx.sqs.receiveMessage(b -> b.queueUrl(url).messageAttributeNames("a.*")
            .messageSystemAttributeNamesWithStrings("ApproximateReceiveCount")).messages().get(0);

        assertThat(message.messageAttributes()).containsOnlyKeys("a.one");
        assertThat(message.attributesAsStrings()).containsOnlyKeys("ApproximateReceiveCount");
    }

    @Test
    void sendMessageBatchSendsTheValidEntriesAndFailsTheOthersOneByOne()
    {
        final String url = fx.queue("orders");
        final SendMessageBatchResponse response = fx.sqs.sendMessageBatch(b -> b.queueUrl(url).entries(
            SendMessageBatchRequestEntry.builder().id("a").messageBody("one").build(),
            SendMessageBatchRequestEntry.builder().id("b").messageBody("two").delaySeconds(901).build(),
            SendMessageBatchRequestEntry.builder().id("c").messageBody("three").messageAttributes(Map.of("k",
                MessageAttributeValue.builder().dataType("Number").stringValue("NaN!").build())).build(),
            SendMessageBatchRequestEntry.builder().id("d").messageBody("four").build()));

        assertThat(response.successful()).extracting(e -> e.id()).containsExactly("a", "d");
        assertThat(response.failed()).extracting(e -> e.id()).containsExactly("b", "c");
        assertThat(response.failed()).allSatisfy(e -> assertThat(e.senderFault()).isTrue())
            .allSatisfy(e -> assertThat(e.code()).isEqualTo("InvalidParameterValue"));
        assertThat(bodies(receive(url, 10))).containsExactly("one", "four");
    }

    @Test
    void deleteMessageBatchDeletesWhatItCanAndNamesTheRest()
    {
        final String url = fx.queue("orders");
        fx.sqs.sendMessageBatch(b -> b.queueUrl(url).entries(
            SendMessageBatchRequestEntry.builder().id("1").messageBody("a").build(),
            SendMessageBatchRequestEntry.builder().id("2").messageBody("b").build()));
        final List<Message> messages = receive(url, 10);

        final DeleteMessageBatchResponse response = fx.sqs.deleteMessageBatch(b -> b.queueUrl(url).entries(
            DeleteMessageBatchRequestEntry.builder().id("x").receiptHandle(messages.get(0).receiptHandle()).build(),
            DeleteMessageBatchRequestEntry.builder().id("y").receiptHandle("forged").build(),
            DeleteMessageBatchRequestEntry.builder().id("z").receiptHandle(messages.get(1).receiptHandle()).build()));

        assertThat(response.successful()).extracting(e -> e.id()).containsExactly("x", "z");
        assertThat(response.failed()).singleElement().satisfies(e ->
        {
            assertThat(e.id()).isEqualTo("y");
            assertThat(e.code()).isEqualTo("ReceiptHandleIsInvalid");
        });
        assertThat(fx.spool.subscription("orders").metrics().inFlight()).isZero();
    }

    @Test
    void aStaleHandleIsRefusedAndTheNewerDeliveryIsLeftAlone()
    {
        final String url = fx.queue("orders", "VisibilityTimeout", "2");
        fx.sqs.sendMessage(b -> b.queueUrl(url).messageBody("job"));
        final Message first = receive(url, 1).get(0);
        fx.advance("orders", 2_000);
        final Message second = receive(url, 1).get(0);

        assertThatThrownBy(() -> fx.sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(first.receiptHandle())))
            .isInstanceOf(ReceiptHandleIsInvalidException.class).hasMessageContaining("redelivered");
        assertThat(second.attributesAsStrings()).containsEntry("ApproximateReceiveCount", "2");
        fx.sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(second.receiptHandle()));
        fx.sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(second.receiptHandle()));
        fx.advance("orders", 2_000);
        assertThat(receive(url, 1)).isEmpty();
    }

    @Test
    void aHandleIsGoodWhileItsVisibilityLasts()
    {
        final String url = fx.queue("orders", "VisibilityTimeout", "2");
        fx.sqs.sendMessage(b -> b.queueUrl(url).messageBody("job"));
        final Message held = receive(url, 1).get(0);
        fx.advance("orders", 2_000);

        assertThatThrownBy(() -> fx.sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(held.receiptHandle())))
            .isInstanceOf(ReceiptHandleIsInvalidException.class).hasMessageContaining("lock expired");
        assertThat(bodies(receive(url, 1))).as("the message is still there, visible again").containsExactly("job");
    }

    @Test
    void aHandleOfAnotherQueueIsRefused()
    {
        final String a = fx.queue("a");
        final String b = fx.queue("b");
        fx.sqs.sendMessage(r -> r.queueUrl(a).messageBody("x"));
        final String handle = receive(a, 1).get(0).receiptHandle();

        assertThatThrownBy(() -> fx.sqs.deleteMessage(r -> r.queueUrl(b).receiptHandle(handle)))
            .isInstanceOf(ReceiptHandleIsInvalidException.class).hasMessageContaining("not a receipt handle of queue b");
        fx.sqs.deleteMessage(r -> r.queueUrl(a).receiptHandle(handle));
    }

    @Test
    void changeMessageVisibilityExtendsReleasesAndRefusesWhatIsNotInFlight()
    {
        final String url = fx.queue("orders", "VisibilityTimeout", "10");
        fx.sqs.sendMessage(b -> b.queueUrl(url).messageBody("slow"));
        fx.sqs.sendMessage(b -> b.queueUrl(url).messageBody("given back"));
        final List<Message> held = receive(url, 10);

        fx.sqs.changeMessageVisibility(b -> b.queueUrl(url).receiptHandle(held.get(0).receiptHandle())
            .visibilityTimeout(30));
        fx.sqs.changeMessageVisibility(b -> b.queueUrl(url).receiptHandle(held.get(1).receiptHandle())
            .visibilityTimeout(0));
        assertThat(take(url)).containsExactly("given back");
        fx.advance("orders", 20_000);
        assertThat(receive(url, 10)).as("the extended one is still hidden at 20 s").isEmpty();
        fx.advance("orders", 10_000);
        final List<Message> again = receive(url, 10);
        assertThat(bodies(again)).containsExactly("slow");

        fx.sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(again.get(0).receiptHandle()));
        assertThatThrownBy(() -> fx.sqs.changeMessageVisibility(b -> b.queueUrl(url)
            .receiptHandle(again.get(0).receiptHandle()).visibilityTimeout(5)))
            .isInstanceOf(MessageNotInflightException.class);
    }

    @Test
    void changeMessageVisibilityBatchChangesEachEntry()
    {
        final String url = fx.queue("orders", "VisibilityTimeout", "10");
        fx.sqs.sendMessage(b -> b.queueUrl(url).messageBody("a"));
        fx.sqs.sendMessage(b -> b.queueUrl(url).messageBody("b"));
        final List<Message> held = receive(url, 10);

        final ChangeMessageVisibilityBatchResponse response = fx.sqs.changeMessageVisibilityBatch(b -> b.queueUrl(url)
            .entries(ChangeMessageVisibilityBatchRequestEntry.builder().id("1")
                    .receiptHandle(held.get(0).receiptHandle()).visibilityTimeout(0).build(),
                ChangeMessageVisibilityBatchRequestEntry.builder().id("2")
                    .receiptHandle(held.get(1).receiptHandle()).visibilityTimeout(60).build(),
                ChangeMessageVisibilityBatchRequestEntry.builder().id("3").receiptHandle("junk").visibilityTimeout(1)
                    .build()));

        assertThat(response.successful()).extracting(e -> e.id()).containsExactlyInAnyOrder("1", "2");
        assertThat(response.failed()).extracting(e -> e.id()).containsExactly("3");
        assertThat(bodies(receive(url, 10))).containsExactly("a");
    }

    @Test
    void aReceiveMayAskForItsOwnVisibilityTimeout()
    {
        final String url = fx.queue("orders", "VisibilityTimeout", "600");
        fx.sqs.sendMessage(b -> b.queueUrl(url).messageBody("m"));
        fx.sqs.receiveMessage(b -> b.queueUrl(url).visibilityTimeout(1));
        fx.advance("orders", 1_000);

        assertThat(bodies(receive(url, 1))).containsExactly("m");
    }

    @Test
    void delaysComeFromTheMessageOrTheQueue()
    {
        final String url = fx.queue("orders", "DelaySeconds", "5");
        fx.sqs.sendMessage(b -> b.queueUrl(url).messageBody("queue delay"));
        fx.sqs.sendMessage(b -> b.queueUrl(url).messageBody("no delay").delaySeconds(0));
        fx.sqs.sendMessage(b -> b.queueUrl(url).messageBody("long delay").delaySeconds(60));

        assertThat(take(url)).containsExactly("no delay");
        fx.advance("orders", 5_000);
        assertThat(take(url)).containsExactly("queue delay");
        fx.advance("orders", 55_000);
        assertThat(take(url)).containsExactly("long delay");
    }

    @Test
    void aLongPollWakesUpWhenAMessageArrivesAndEndsAtItsWaitTime() throws Exception
    {
        final String url = fx.queue("orders", "ReceiveMessageWaitTimeSeconds", "20");
        final CompletableFuture<List<Message>> waiting = CompletableFuture.supplyAsync(() -> receive(url, 10));
        fx.advance("orders", 19_000);
        assertThat(waiting).isNotDone();

        fx.sqs.sendMessage(b -> b.queueUrl(url).messageBody("wake up"));
        assertThat(bodies(waiting.get(30, TimeUnit.SECONDS))).containsExactly("wake up");

        final CompletableFuture<List<Message>> empty = CompletableFuture.supplyAsync(() -> fx.sqs.receiveMessage(b ->
            b.queueUrl(url).waitTimeSeconds(2)).messages());
        assertThat(advanceUntilDone(empty, "orders")).isEmpty();
    }

    /** Moves the clock a second at a time until the receive is answered (it may reach the queue only later). */
    private <T> T advanceUntilDone(final CompletableFuture<T> future, final String queue) throws Exception
    {
        for (int i = 0; i < 600; i++)
        {
            try
            {
                return future.get(50, TimeUnit.MILLISECONDS);
            }
            catch (final TimeoutException notYet)
            {
                fx.advance(queue, 1_000);
            }
        }
        return future.get(30, TimeUnit.SECONDS);
    }

    @Test
    void fifoKeepsEachGroupInOrderAndHoldsAGroupWhileOneOfItsMessagesIsInFlight()
    {
        final String url = fx.queue("jobs.fifo", "FifoQueue", "true", "ContentBasedDeduplication", "true");
        for (final String group : List.of("A", "B"))
        {
            for (int i = 0; i < 3; i++)
            {
                final String body = group + i;
                fx.sqs.sendMessage(b -> b.queueUrl(url).messageBody(body).messageGroupId(group));
            }
        }
        final Message a0 = receive(url, 1).get(0);
        assertThat(a0.body()).isEqualTo("A0");
        assertThat(a0.attributesAsStrings()).containsEntry("MessageGroupId", "A").containsKey("SequenceNumber")
            .containsKey("MessageDeduplicationId");

        final List<String> whileHeld = new ArrayList<>();
        List<Message> batch;
        while (!(batch = receive(url, 10)).isEmpty())
        {
            batch.forEach(m -> whileHeld.add(m.body()));
            batch.forEach(m -> fx.sqs.deleteMessage(d -> d.queueUrl(url).receiptHandle(m.receiptHandle())));
        }
        assertThat(whileHeld).containsExactly("B0", "B1", "B2");

        fx.sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(a0.receiptHandle()));
        assertThat(receive(url, 10)).as("the rest of group A in one receive, as SQS gives it")
            .extracting(Message::body).containsExactly("A1", "A2");
    }

    @Test
    void aFifoRepeatInsideTheWindowIsNotStoredAgainAndAnswersWithTheFirstId()
    {
        final String url = fx.queue("jobs.fifo", "FifoQueue", "true");
        final SendMessageResponse first = fx.sqs.sendMessage(b -> b.queueUrl(url).messageBody("pay")
            .messageGroupId("g").messageDeduplicationId("order-1"));
        final SendMessageResponse repeat = fx.sqs.sendMessage(b -> b.queueUrl(url).messageBody("pay again")
            .messageGroupId("g").messageDeduplicationId("order-1"));

        assertThat(repeat.messageId()).isEqualTo(first.messageId());
        assertThat(repeat.sequenceNumber()).isEqualTo(first.sequenceNumber());
        assertThat(bodies(receive(url, 10))).containsExactly("pay");
        assertThatThrownBy(() -> fx.sqs.sendMessage(b -> b.queueUrl(url).messageBody("x").messageGroupId("g")))
            .hasMessageContaining("ContentBasedDeduplication");
        assertThatThrownBy(() -> fx.sqs.sendMessage(b -> b.queueUrl(url).messageBody("x")
            .messageDeduplicationId("d"))).hasMessageContaining("MessageGroupId");
    }

    @Test
    void afterMaxReceiveCountAMessageGoesToTheDeadLetterQueueWithItsIdAndComesBackByAMoveTask() throws Exception
    {
        final String dlq = fx.queue("work-dlq");
        final String url = fx.queue("work", "VisibilityTimeout", "1", "RedrivePolicy",
            "{\"deadLetterTargetArn\":\"" + fx.arn("work-dlq") + "\",\"maxReceiveCount\":2}");
        final String id = fx.sqs.sendMessage(b -> b.queueUrl(url).messageBody("poison").messageAttributes(Map.of(
            "k", MessageAttributeValue.builder().dataType("String").stringValue("v").build()))).messageId();
        for (int receive = 1; receive <= 2; receive++)
        {
            assertThat(receive(url, 1)).singleElement().satisfies(m -> assertThat(m.messageId()).isEqualTo(id));
            fx.advance("work", 1_000);
        }
        assertThat(receive(url, 1)).isEmpty();

        final Message dead = awaitMessage(dlq);
        assertThat(dead.messageId()).isEqualTo(id);
        assertThat(dead.messageAttributes()).containsKey("k");
        assertThat(dead.attributesAsStrings()).containsEntry("DeadLetterQueueSourceArn", fx.arn("work"));
        fx.sqs.changeMessageVisibility(b -> b.queueUrl(dlq).receiptHandle(dead.receiptHandle()).visibilityTimeout(0));

        final String task = fx.sqs.startMessageMoveTask(b -> b.sourceArn(fx.arn("work-dlq"))).taskHandle();
        fx.endpoint.syncMoveTasks();
        final Message back = receive(url, 1).get(0);
        assertThat(back.messageId()).isEqualTo(id);
        assertThat(back.body()).isEqualTo("poison");
        assertThat(fx.sqs.listMessageMoveTasks(b -> b.sourceArn(fx.arn("work-dlq")).maxResults(10)).results())
            .singleElement().satisfies(t -> assertThat(t.status()).isIn("RUNNING", "COMPLETED"));
        assertThat(task).isNotEmpty();
        assertThat(fx.spool.subscription("work-dlq").metrics().ready()).isZero();
        assertThat(back.attributesAsStrings()).containsKey("SentTimestamp");
        assertThat(DeathHistory.COUNT).isNotEmpty();
    }

    private Message awaitMessage(final String url) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline)
        {
            final List<Message> messages = receive(url, 1);
            if (!messages.isEmpty())
            {
                return messages.get(0);
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no message reached " + url + " in 30 s");
    }

    @Test
    void systemAttributesOtherThanTheTraceHeaderAreRefused()
    {
        final String url = fx.queue("orders");
        assertThatThrownBy(() -> fx.sqs.sendMessage(b -> b.queueUrl(url).messageBody("m").messageSystemAttributes(
            Map.of(MessageSystemAttributeNameForSends.UNKNOWN_TO_SDK_VERSION, MessageSystemAttributeValue.builder()
                .dataType("String").stringValue("x").build())))).isInstanceOf(RuntimeException.class);
    }
}
