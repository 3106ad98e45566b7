package io.spool.wire.sqs;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.model.Message;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The query protocol (form-encoded requests, XML answers) with raw HTTP requests, as older SDKs and the AWS CLI's
 * older versions send them; what it stores is read back through the JSON protocol by the AWS SDK, which checks the
 * digests.
 */
class SqsQueryProtocolTest
{
    private static final String MD5_OF_HELLO = "5d41402abc4b2a76b9719d911017c592";

    @TempDir
    Path dir;
    SqsFixture fx;
    RawSqs raw;

    @BeforeEach
    void open()
    {
        fx = new SqsFixture(dir);
        raw = new RawSqs(fx.endpoint.url());
    }

    @AfterEach
    void close()
    {
        fx.close();
    }

    @Test
    void createQueueAndGetItsAttributes()
    {
        final RawSqs.Answer created = raw.form("/", "Action", "CreateQueue", "QueueName", "orders",
            "Attribute.1.Name", "VisibilityTimeout", "Attribute.1.Value", "40",
            "Attribute.2.Name", "DelaySeconds", "Attribute.2.Value", "2", "Tag.1.Key", "team", "Tag.1.Value", "a");

        assertThat(created.status()).isEqualTo(200);
        assertThat(created.header("Content-Type")).startsWith("text/xml");
        assertThat(created.xml("QueueUrl")).containsExactly(fx.endpoint.url() + "/000000000000/orders");
        assertThat(created.xml("RequestId")).singleElement().isEqualTo(created.header("x-amzn-RequestId"));

        final RawSqs.Answer attributes = raw.form("/000000000000/orders", "Action", "GetQueueAttributes",
            "AttributeName.1", "VisibilityTimeout", "AttributeName.2", "DelaySeconds");
        assertThat(attributes.xml("Name")).containsExactly("VisibilityTimeout", "DelaySeconds");
        assertThat(attributes.xml("Value")).containsExactly("40", "2");
        assertThat(raw.get("/?Action=ListQueueTags&QueueUrl=" + created.xml("QueueUrl").get(0)).xml("Key"))
            .containsExactly("team");
        assertThat(raw.get("/?Action=ListQueues").xml("QueueUrl")).hasSize(1);
    }

    @Test
    void aMessageSentInFormsIsReceivedByTheSdkWithTheSameDigests()
    {
        final String url = fx.queue("orders");
        final RawSqs.Answer sent = raw.form("/", "Action", "SendMessage", "QueueUrl", url, "MessageBody", "hello",
            "MessageAttribute.1.Name", "color", "MessageAttribute.1.Value.DataType", "String",
            "MessageAttribute.1.Value.StringValue", "blue", "MessageAttribute.2.Name", "bytes",
            "MessageAttribute.2.Value.DataType", "Binary", "MessageAttribute.2.Value.BinaryValue", "AAEC");

        assertThat(sent.xml("MD5OfMessageBody")).containsExactly(MD5_OF_HELLO);
        final Message received = fx.sqs.receiveMessage(b -> b.queueUrl(url).messageAttributeNames("All")).messages()
            .get(0);
        assertThat(received.md5OfMessageAttributes()).isEqualTo(sent.xml("MD5OfMessageAttributes").get(0));
        assertThat(received.messageId()).isEqualTo(sent.xml("MessageId").get(0));
        assertThat(received.messageAttributes().get("bytes").binaryValue().asByteArray()).containsExactly(0, 1, 2);
    }

    @Test
    void receiveAnswersInXmlAndABodyKeepsItsCarriageReturns()
    {
        final String url = fx.queue("orders");
        raw.form("/000000000000/orders", "Action", "SendMessage", "MessageBody", "a\r\nb <&>",
            "MessageAttribute.1.Name", "n", "MessageAttribute.1.Value.DataType", "Number",
            "MessageAttribute.1.Value.StringValue", "7");

        final RawSqs.Answer received = raw.form("/000000000000/orders", "Action", "ReceiveMessage",
            "MaxNumberOfMessages", "10", "AttributeName.1", "All", "MessageAttributeName.1", "All");

        assertThat(received.xml("Body")).containsExactly("a\r\nb <&>");
        assertThat(received.xml("MD5OfBody")).containsExactly(MessageAttributes.md5Hex("a\r\nb <&>".getBytes(
            java.nio.charset.StandardCharsets.UTF_8)));
        assertThat(received.xml("Name")).contains("ApproximateReceiveCount", "n");
        assertThat(received.xml("StringValue")).containsExactly("7");
        assertThat(received.xml("DataType")).containsExactly("Number");

        final String handle = received.xml("ReceiptHandle").get(0);
        final RawSqs.Answer deleted = raw.form("/", "Action", "DeleteMessageBatch", "QueueUrl", url,
            "DeleteMessageBatchRequestEntry.1.Id", "one", "DeleteMessageBatchRequestEntry.1.ReceiptHandle", handle,
            "DeleteMessageBatchRequestEntry.2.Id", "two", "DeleteMessageBatchRequestEntry.2.ReceiptHandle", "bad");
        assertThat(deleted.xml("DeleteMessageBatchResultEntry")).hasSize(1);
        assertThat(deleted.xml("Id")).containsExactly("one", "two");
        assertThat(deleted.xml("Code")).containsExactly("ReceiptHandleIsInvalid");
        assertThat(raw.form("/", "Action", "ReceiveMessage", "QueueUrl", url).xml("Message")).isEmpty();
    }

    @Test
    void batchesAndVisibilityInForms()
    {
        final String url = fx.queue("orders");
        final RawSqs.Answer sent = raw.form("/", "Action", "SendMessageBatch", "QueueUrl", url,
            "SendMessageBatchRequestEntry.1.Id", "a", "SendMessageBatchRequestEntry.1.MessageBody", "first",
            "SendMessageBatchRequestEntry.2.Id", "b", "SendMessageBatchRequestEntry.2.MessageBody", "second",
            "SendMessageBatchRequestEntry.2.MessageAttribute.1.Name", "k",
            "SendMessageBatchRequestEntry.2.MessageAttribute.1.Value.DataType", "String",
            "SendMessageBatchRequestEntry.2.MessageAttribute.1.Value.StringValue", "v");
        assertThat(sent.xml("SendMessageBatchResultEntry")).hasSize(2);
        assertThat(sent.xml("MD5OfMessageAttributes")).hasSize(1);

        final List<String> handles = raw.form("/", "Action", "ReceiveMessage", "QueueUrl", url,
            "MaxNumberOfMessages", "2").xml("ReceiptHandle");
        final RawSqs.Answer changed = raw.form("/", "Action", "ChangeMessageVisibilityBatch", "QueueUrl", url,
            "ChangeMessageVisibilityBatchRequestEntry.1.Id", "x",
            "ChangeMessageVisibilityBatchRequestEntry.1.ReceiptHandle", handles.get(0),
            "ChangeMessageVisibilityBatchRequestEntry.1.VisibilityTimeout", "0");
        assertThat(changed.xml("ChangeMessageVisibilityBatchResultEntry")).hasSize(1);
        assertThat(raw.form("/", "Action", "ChangeMessageVisibility", "QueueUrl", url, "ReceiptHandle",
            handles.get(1), "VisibilityTimeout", "100").status()).isEqualTo(200);
        assertThat(raw.form("/", "Action", "ReceiveMessage", "QueueUrl", url).xml("Body")).containsExactly("first");
        assertThat(raw.form("/", "Action", "PurgeQueue", "QueueUrl", url).status()).isEqualTo(200);
        assertThat(raw.form("/", "Action", "DeleteQueue", "QueueUrl", url).status()).isEqualTo(200);
    }

    @Test
    void errorsAnswerInSqsXmlShape()
    {
        final RawSqs.Answer missing = raw.form("/", "Action", "GetQueueUrl", "QueueName", "nowhere");

        assertThat(missing.status()).isEqualTo(400);
        assertThat(missing.xml("Type")).containsExactly("Sender");
        assertThat(missing.xml("Code")).containsExactly("AWS.SimpleQueueService.NonExistentQueue");
        assertThat(missing.xml("Message").get(0)).contains("nowhere");
        assertThat(raw.form("/", "Action", "Explode").xml("Code")).containsExactly("InvalidAction");
        assertThat(raw.form("/", "QueueName", "x").xml("Code")).containsExactly("MissingAction");
        assertThat(raw.form("/", "Action", "CreateQueue").xml("Code")).containsExactly("MissingParameter");
    }
}
