package io.spool.wire.sqs;

import io.spool.testing.SlowTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.SqsException;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Bad input of every kind gets the SQS error a client expects, and the endpoint goes on serving: each test ends with
 * a request that must succeed.
 */
@SlowTest
class SqsBadInputTest
{
    @TempDir
    Path dir;
    SqsFixture fx;
    RawSqs raw;
    String url;

    @BeforeEach
    void open()
    {
        fx = new SqsFixture(dir);
        raw = new RawSqs(fx.endpoint.url());
        url = fx.queue("orders", "MaximumMessageSize", "1024");
    }

    @AfterEach
    void close()
    {
        fx.sqs.sendMessage(b -> b.queueUrl(url).messageBody("still serving"));
        assertThat(fx.sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)).messages())
            .extracting(m -> m.body()).contains("still serving");
        fx.close();
    }

    private void assertJsonError(final RawSqs.Answer answer, final int status, final String type,
        final String queryCode)
    {
        assertThat(answer.status()).isEqualTo(status);
        assertThat(answer.body()).contains("\"__type\":\"com.amazonaws.sqs#" + type + "\"");
        assertThat(answer.header("x-amzn-query-error")).isEqualTo(queryCode + ";Sender");
    }

    private String send(final String body)
    {
        return "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"" + body + "\"}";
    }

    @Test
    void malformedJsonIsASerializationError()
    {
        for (final String body : new String[] {"{", "{\"QueueUrl\":}", "[1,2]", "{\"a\":1}x", "\"text\"",
            "{\"a\":\"\\q\"}", "{\"a\":1,\"a\":2}", "[".repeat(100) + "]".repeat(100), "{\"n\":-}"})
        {
            assertJsonError(raw.json("SendMessage", body), 400, "SerializationException", "MalformedQueryString");
        }
        assertJsonError(raw.json("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":{\"a\":1}}"), 400,
            "InvalidParameterValue", "InvalidParameterValue");
    }

    @Test
    void malformedFormsAreRefusedInXml()
    {
        final RawSqs.Answer escape = raw.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(
            fx.endpoint.url() + "/")).header("Content-Type", "application/x-www-form-urlencoded")
            .POST(java.net.http.HttpRequest.BodyPublishers.ofString("Action=ListQueues&QueueNamePrefix=%zz")));
        assertThat(escape.status()).isEqualTo(400);
        assertThat(escape.xml("Code")).containsExactly("MalformedQueryString");
        assertThat(raw.form("/", "Action", "ListQueues", "Attribute.x.Name", "a").xml("Code"))
            .containsExactly("InvalidParameterValue");
        assertThat(raw.form("/", "Action", "CreateQueue", "QueueName", "q", "Attribute.1.Value", "5").xml("Code"))
            .containsExactly("MissingParameter");
        assertThat(raw.form("/", "Action", "SendMessageBatch", "QueueUrl", url,
            "SendMessageBatchRequestEntry.1", "no member").xml("Code")).containsExactly("InvalidParameterValue");
        assertThat(raw.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(fx.endpoint.url() +
            "/?Action=ListQueues&Action=GetQueueUrl")).GET()).xml("Code")).containsExactly("InvalidParameterValue");
    }

    @Test
    void unknownActionsAndMissingParameters()
    {
        assertJsonError(raw.json("Explode", "{}"), 400, "InvalidAction", "InvalidAction");
        assertJsonError(raw.json("SendMessage", "{\"QueueUrl\":\"" + url + "\"}"), 400, "MissingParameter",
            "MissingParameter");
        assertJsonError(raw.json("SendMessage", "{\"MessageBody\":\"x\"}"), 400, "MissingParameter",
            "MissingParameter");
        assertJsonError(raw.json("ReceiveMessage", "{\"QueueUrl\":\"" + url + "x\"}"), 400, "QueueDoesNotExist",
            "AWS.SimpleQueueService.NonExistentQueue");
        assertJsonError(raw.json("ChangeMessageVisibility", "{\"QueueUrl\":\"" + url + "\",\"ReceiptHandle\":\"h\"}"),
            400, "MissingParameter", "MissingParameter");
    }

    @Test
    void invalidParameters()
    {
        assertJsonError(raw.json("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\",\"MaxNumberOfMessages\":11}"), 400,
            "InvalidParameterValue", "InvalidParameterValue");
        assertJsonError(raw.json("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\",\"WaitTimeSeconds\":21}"), 400,
            "InvalidParameterValue", "InvalidParameterValue");
        assertJsonError(raw.json("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\",\"VisibilityTimeout\":\"soon\"}"),
            400, "InvalidParameterValue", "InvalidParameterValue");
        assertJsonError(raw.json("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"x\"," +
            "\"DelaySeconds\":901}"), 400, "InvalidParameterValue", "InvalidParameterValue");
        assertJsonError(raw.json("SetQueueAttributes", "{\"QueueUrl\":\"" + url + "\",\"Attributes\":" +
            "{\"VisibilityTimeout\":\"43201\"}}"), 400, "InvalidAttributeValue", "InvalidAttributeValue");
        assertJsonError(raw.json("SetQueueAttributes", "{\"QueueUrl\":\"" + url + "\",\"Attributes\":" +
            "{\"Colour\":\"red\"}}"), 400, "InvalidAttributeName", "InvalidAttributeName");
        assertJsonError(raw.json("SetQueueAttributes", "{\"QueueUrl\":\"" + url + "\",\"Attributes\":" +
            "{\"RedrivePolicy\":\"{not json\"}}"), 400, "InvalidAttributeValue", "InvalidAttributeValue");
        assertJsonError(raw.json("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"x\"," +
            "\"MessageAttributes\":{\"x-delay\":{\"DataType\":\"String\",\"StringValue\":\"1\"}}}"), 400,
            "InvalidParameterValue", "InvalidParameterValue");
        assertJsonError(raw.json("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"x\"," +
            "\"MessageAttributes\":{\"a\":{\"DataType\":\"Text\",\"StringValue\":\"1\"}}}"), 400,
            "InvalidParameterValue", "InvalidParameterValue");
        assertJsonError(raw.json("ListQueues", "{\"MaxResults\":0}"), 400, "InvalidParameterValue",
            "InvalidParameterValue");
        assertThat(fx.spool.subscription("orders").settings().lockTimeoutMillis()).isEqualTo(30_000);
    }

    @Test
    void invalidQueueNames()
    {
        for (final String name : new String[] {"", "has space", "a".repeat(81), "dots.in.name", "x.fifo.fifo"})
        {
            assertJsonError(raw.json("CreateQueue", "{\"QueueName\":\"" + name + "\"}"), 400, "InvalidParameterValue",
                "InvalidParameterValue");
        }
        assertThat(fx.sqs.listQueues().queueUrls()).hasSize(1);
    }

    @Test
    void bodiesOverTheMaximumSizeOrWithForbiddenCharacters()
    {
        assertJsonError(raw.json("SendMessage", send("x".repeat(1025))), 400, "InvalidParameterValue",
            "InvalidParameterValue");
        assertJsonError(raw.json("SendMessage", send("bell \\u0007")), 400, "InvalidMessageContents",
            "InvalidMessageContents");
        assertJsonError(raw.json("SendMessage", send("half \\ud800 a surrogate")), 400, "InvalidMessageContents",
            "InvalidMessageContents");
        final RawSqs.Answer huge = raw.json("SendMessage", send("y".repeat(SqsConfig.DEFAULT_MAX_REQUEST_BYTES)));
        assertThat(huge.status()).isEqualTo(413);
        assertThat(huge.body()).contains("RequestEntityTooLarge");
        assertThat(fx.spool.subscription("orders").metrics().ready()).isZero();
    }

    @Test
    void batchesWithDuplicateIdsTooManyOrNoEntries()
    {
        final StringBuilder eleven = new StringBuilder();
        for (int i = 0; i < 11; i++)
        {
            eleven.append(i == 0 ? "" : ",").append("{\"Id\":\"e").append(i).append("\",\"MessageBody\":\"m\"}");
        }
        assertJsonError(raw.json("SendMessageBatch", "{\"QueueUrl\":\"" + url + "\",\"Entries\":[" + eleven + "]}"),
            400, "TooManyEntriesInBatchRequest", "AWS.SimpleQueueService.TooManyEntriesInBatchRequest");
        assertJsonError(raw.json("SendMessageBatch", "{\"QueueUrl\":\"" + url + "\",\"Entries\":[" +
            "{\"Id\":\"a\",\"MessageBody\":\"1\"},{\"Id\":\"a\",\"MessageBody\":\"2\"}]}"), 400,
            "BatchEntryIdsNotDistinct", "AWS.SimpleQueueService.BatchEntryIdsNotDistinct");
        assertJsonError(raw.json("DeleteMessageBatch", "{\"QueueUrl\":\"" + url + "\",\"Entries\":[]}"), 400,
            "EmptyBatchRequest", "AWS.SimpleQueueService.EmptyBatchRequest");
        assertJsonError(raw.json("ChangeMessageVisibilityBatch", "{\"QueueUrl\":\"" + url + "\",\"Entries\":[" +
            "{\"Id\":\"bad id!\",\"ReceiptHandle\":\"h\",\"VisibilityTimeout\":1}]}"), 400, "InvalidBatchEntryId",
            "AWS.SimpleQueueService.InvalidBatchEntryId");
        assertThat(raw.json("SendMessageBatch", "{\"QueueUrl\":\"" + url + "\",\"Entries\":[" +
            "{\"Id\":\"a\",\"MessageBody\":\"" + "z".repeat(1000) + "\"},{\"Id\":\"b\",\"MessageBody\":\"" +
            "z".repeat(1000) + "\"}]}").status()).as("each message within its size, together too").isEqualTo(200);
        assertThat(fx.spool.subscription("orders").metrics().ready()).isEqualTo(2);
        fx.sqs.purgeQueue(b -> b.queueUrl(url));
    }

    @Test
    void invalidReceiptHandles()
    {
        fx.sqs.sendMessage(b -> b.queueUrl(url).messageBody("m"));
        final String handle = fx.sqs.receiveMessage(b -> b.queueUrl(url)).messages().get(0).receiptHandle();
        final int middle = handle.length() / 2;
        final String tampered = handle.substring(0, middle) + (handle.charAt(middle) == 'A' ? 'B' : 'A') +
            handle.substring(middle + 1);
        // the same bytes spelled otherwise: the last character's lowest bit is beyond the handle's last byte
        final String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        final String respelled = handle.substring(0, handle.length() - 1) +
            alphabet.charAt(alphabet.indexOf(handle.charAt(handle.length() - 1)) ^ 1);
        for (final String bad : new String[] {"", "not base64 !", "AAAA", handle.substring(0, 20), tampered,
            respelled, handle + "AA"})
        {
            assertJsonError(raw.json("DeleteMessage", "{\"QueueUrl\":\"" + url + "\",\"ReceiptHandle\":\"" + bad +
                "\"}"), 400, "ReceiptHandleIsInvalid", "ReceiptHandleIsInvalid");
        }
        fx.sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(handle));
    }

    @Test
    void aConnectionGoesOnAfterAnError()
    {
        for (int i = 0; i < 5; i++)
        {
            assertThatThrownBy(() -> fx.sqs.getQueueUrl(b -> b.queueName("missing")))
                .isInstanceOf(SqsException.class);
            assertThat(fx.sqs.getQueueUrl(b -> b.queueName("orders")).queueUrl()).isEqualTo(url);
        }
    }

    @Test
    void aConfiguredTokenIsRequiredAsTheAccessKeyId() throws Exception
    {
        try (SqsFixture guarded = new SqsFixture(dir.resolve("guarded"), "s3cret"))
        {
            guarded.queue("q");
            final RawSqs guardedRaw = new RawSqs(guarded.endpoint.url());
            final RawSqs.Answer anonymous = guardedRaw.json("ListQueues", "{}");
            assertThat(anonymous.status()).isEqualTo(403);
            assertThat(anonymous.body()).contains("MissingAuthenticationToken");
            try (SqsClient wrong = SqsFixture.client(guarded.endpoint.url(), "guess"))
            {
                assertThatThrownBy(wrong::listQueues).isInstanceOf(SqsException.class)
                    .satisfies(e -> assertThat(((SqsException)e).statusCode()).isEqualTo(403))
                    .hasMessageContaining("security token");
            }
            assertThat(guardedRaw.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(
                guarded.endpoint.url() + "/?Action=ListQueues")).header("Authorization", "Bearer s3cret").GET())
                .status()).isEqualTo(200);
            assertThat(guarded.sqs.listQueues().queueUrls()).hasSize(1);
        }
    }
}
