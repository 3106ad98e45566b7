package io.spool.wire.sqs;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class SqsSmokeTest
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

    @Test
    void sendReceiveDelete()
    {
        final String url = fx.queue("orders");
        fx.sqs.sendMessage(b -> b.queueUrl(url).messageBody("hello\r\nworld").messageAttributes(Map.of(
            "kind", MessageAttributeValue.builder().dataType("String").stringValue("greeting").build(),
            "n", MessageAttributeValue.builder().dataType("Number.int").stringValue("42").build(),
            "b", MessageAttributeValue.builder().dataType("Binary").binaryValue(SdkBytes.fromUtf8String("x")).build())));
        final List<Message> messages = fx.sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)
            .messageAttributeNames("All").messageSystemAttributeNamesWithStrings("All")).messages();
        assertThat(messages).hasSize(1);
        assertThat(messages.get(0).body()).isEqualTo("hello\r\nworld");
        assertThat(messages.get(0).messageAttributes()).containsKeys("kind", "n", "b");
        fx.sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(messages.get(0).receiptHandle()));
        assertThat(fx.sqs.receiveMessage(b -> b.queueUrl(url)).messages()).isEmpty();
    }
}
