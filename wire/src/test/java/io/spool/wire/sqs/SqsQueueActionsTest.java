package io.spool.wire.sqs;

import io.spool.api.stream.ConsumerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicPartition;
import io.spool.stream.ConsumerConfig;
import io.spool.stream.StreamConsumer;
import io.spool.testing.SlowTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.model.InvalidAttributeNameException;
import software.amazon.awssdk.services.sqs.model.ListQueuesResponse;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;
import software.amazon.awssdk.services.sqs.model.QueueNameExistsException;
import software.amazon.awssdk.services.sqs.model.SqsException;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The queue actions, through the AWS SDK for Java v2. */
@SlowTest
class SqsQueueActionsTest
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

    private Map<String, String> attributes(final String url, final String... names)
    {
        return fx.sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNamesWithStrings(names)).attributesAsStrings();
    }

    @Test
    void createQueueTakesItsAttributesAndIsIdempotentForTheSameOnes()
    {
        final String url = fx.queue("orders", "VisibilityTimeout", "45", "DelaySeconds", "3",
            "ReceiveMessageWaitTimeSeconds", "2", "MaximumMessageSize", "2048", "MessageRetentionPeriod", "3600");

        assertThat(url).isEqualTo(fx.endpoint.url() + "/000000000000/orders");
        assertThat(fx.queue("orders", "VisibilityTimeout", "45", "DelaySeconds", "3")).isEqualTo(url);
        assertThat(attributes(url, "All")).containsEntry("VisibilityTimeout", "45").containsEntry("DelaySeconds", "3")
            .containsEntry("ReceiveMessageWaitTimeSeconds", "2").containsEntry("MaximumMessageSize", "2048")
            .containsEntry("MessageRetentionPeriod", "3600").containsEntry("QueueArn", fx.arn("orders"))
            .containsEntry("ApproximateNumberOfMessages", "0").containsEntry("CreatedTimestamp", "1700000000")
            .doesNotContainKey("FifoQueue");
        assertThatThrownBy(() -> fx.queue("orders", "VisibilityTimeout", "46"))
            .isInstanceOf(QueueNameExistsException.class).hasMessageContaining("VisibilityTimeout");
        assertThat(fx.spool.subscription("orders").settings().lockTimeoutMillis()).isEqualTo(45_000);
    }

    @Test
    void aFifoQueueNeedsItsSuffixAndFlag()
    {
        final String url = fx.queue("jobs.fifo", "FifoQueue", "true", "ContentBasedDeduplication", "true");

        assertThat(attributes(url, "FifoQueue", "ContentBasedDeduplication", "DeduplicationScope"))
            .containsEntry("FifoQueue", "true").containsEntry("ContentBasedDeduplication", "true")
            .containsEntry("DeduplicationScope", "queue");
        assertThatThrownBy(() -> fx.queue("plain", "FifoQueue", "true")).isInstanceOf(SqsException.class)
            .satisfies(e -> assertThat(((SqsException)e).awsErrorDetails().errorCode())
                .isEqualTo("InvalidParameterValue"));
        assertThatThrownBy(() -> fx.queue("other.fifo")).isInstanceOf(SqsException.class);
        assertThatThrownBy(() -> fx.queue("plain", "ContentBasedDeduplication", "true"))
            .isInstanceOf(InvalidAttributeNameException.class);
    }

    @Test
    void getQueueUrlListQueuesAndDeleteQueue()
    {
        for (final String name : List.of("a1", "a2", "a3", "b1"))
        {
            fx.queue(name);
        }

        assertThat(fx.sqs.getQueueUrl(b -> b.queueName("a2")).queueUrl()).endsWith("/000000000000/a2");
        assertThat(fx.sqs.listQueues().queueUrls()).hasSize(4);
        assertThat(fx.sqs.listQueues(b -> b.queueNamePrefix("a")).queueUrls()).hasSize(3);
        final ListQueuesResponse first = fx.sqs.listQueues(b -> b.queueNamePrefix("a").maxResults(2));
        assertThat(first.queueUrls()).hasSize(2);
        final ListQueuesResponse rest = fx.sqs.listQueues(b -> b.queueNamePrefix("a").maxResults(2)
            .nextToken(first.nextToken()));
        assertThat(rest.queueUrls()).singleElement().satisfies(u -> assertThat(u).endsWith("/a3"));
        assertThat(rest.nextToken()).isNull();

        fx.sqs.deleteQueue(b -> b.queueUrl(fx.sqs.getQueueUrl(q -> q.queueName("b1")).queueUrl()));
        assertThatThrownBy(() -> fx.sqs.getQueueUrl(b -> b.queueName("b1")))
            .isInstanceOf(QueueDoesNotExistException.class);
        assertThat(fx.spool.streams().listTopics()).doesNotContain("b1");
    }

    @Test
    void attributesCountMessagesAndSetQueueAttributesChangesThemLive()
    {
        final String url = fx.queue("work");
        fx.queue("work-dlq");
        for (int i = 0; i < 3; i++)
        {
            final int n = i;
            fx.sqs.sendMessage(b -> b.queueUrl(url).messageBody("m" + n).delaySeconds(n == 2 ? 60 : 0));
        }
        fx.sqs.receiveMessage(b -> b.queueUrl(url));

        assertThat(attributes(url, "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible",
            "ApproximateNumberOfMessagesDelayed")).containsEntry("ApproximateNumberOfMessagesNotVisible", "1")
            .containsKey("ApproximateNumberOfMessages").containsKey("ApproximateNumberOfMessagesDelayed");

        fx.clock.advance(5_000);
        fx.sqs.setQueueAttributes(b -> b.queueUrl(url).attributesWithStrings(Map.of("VisibilityTimeout", "5",
            "RedrivePolicy", "{\"deadLetterTargetArn\":\"" + fx.arn("work-dlq") + "\",\"maxReceiveCount\":\"4\"}",
            "DelaySeconds", "7")));
        final Map<String, String> changed = attributes(url, "All");
        assertThat(changed).containsEntry("VisibilityTimeout", "5").containsEntry("DelaySeconds", "7")
            .containsEntry("RedrivePolicy", "{\"deadLetterTargetArn\":\"" + fx.arn("work-dlq") +
                "\",\"maxReceiveCount\":4}").containsEntry("LastModifiedTimestamp", "1700000005");
        assertThat(fx.spool.subscription("work").settings().deliveryLimit()).isEqualTo(3);
        assertThat(fx.sqs.listDeadLetterSourceQueues(b -> b.queueUrl(fx.sqs.getQueueUrl(q -> q.queueName("work-dlq"))
            .queueUrl())).queueUrls()).singleElement().satisfies(u -> assertThat(u).endsWith("/work"));

        fx.sqs.setQueueAttributes(b -> b.queueUrl(url).attributesWithStrings(Map.of("RedrivePolicy", "")));
        assertThat(attributes(url, "All")).doesNotContainKey("RedrivePolicy");
        assertThatThrownBy(() -> attributes(url, "NoSuchAttribute")).isInstanceOf(InvalidAttributeNameException.class);
    }

    @Test
    void aMessageRetentionPeriodSetAfterCreationDeletesOlderMessagesInsteadOfReturningThem()
    {
        final String url = fx.queue("work");
        fx.sqs.sendMessage(b -> b.queueUrl(url).messageBody("old"));
        fx.clock.advance(100_000);
        fx.sqs.sendMessage(b -> b.queueUrl(url).messageBody("new"));

        fx.sqs.setQueueAttributes(b -> b.queueUrl(url).attributesWithStrings(Map.of("MessageRetentionPeriod", "60")));

        assertThat(attributes(url, "MessageRetentionPeriod")).containsEntry("MessageRetentionPeriod", "60");
        assertThat(fx.sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)).messages())
            .extracting(m -> m.body()).containsExactly("new");
        assertThat(attributes(url, "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"))
            .as("the old message is deleted, not only left out").containsEntry("ApproximateNumberOfMessages", "0")
            .containsEntry("ApproximateNumberOfMessagesNotVisible", "1");
    }

    @Test
    void aRedrivePolicyNeedsAnExistingDeadLetterQueueOfTheSameKindThatAllowsIt()
    {
        fx.queue("dlq", "RedriveAllowPolicy", "{\"redrivePermission\":\"byQueue\",\"sourceQueueArns\":[\"" +
            fx.arn("allowed") + "\"]}");
        fx.queue("dlq.fifo", "FifoQueue", "true");
        final String policy = "{\"deadLetterTargetArn\":\"" + fx.arn("dlq") + "\",\"maxReceiveCount\":2}";

        fx.queue("allowed", "RedrivePolicy", policy);
        assertThatThrownBy(() -> fx.queue("refused", "RedrivePolicy", policy)).isInstanceOf(SqsException.class)
            .hasMessageContaining("RedriveAllowPolicy");
        assertThatThrownBy(() -> fx.queue("nowhere", "RedrivePolicy", policy.replace("dlq", "missing")))
            .isInstanceOf(SqsException.class).hasMessageContaining("Dead letter target does not exist");
        assertThatThrownBy(() -> fx.queue("mixed", "RedrivePolicy", policy.replace("dlq", "dlq.fifo")))
            .isInstanceOf(SqsException.class).hasMessageContaining("must be one too");
        assertThat(fx.sqs.listQueues().queueUrls()).hasSize(3);
    }

    @Test
    void purgeQueueEmptiesTheQueueButNotTheStream()
    {
        final String url = fx.queue("events");
        fx.sqs.sendMessage(b -> b.queueUrl(url).messageBody("before"));
        final String handle = fx.sqs.receiveMessage(b -> b.queueUrl(url)).messages().get(0).receiptHandle();
        fx.sqs.sendMessage(b -> b.queueUrl(url).messageBody("ready"));

        fx.sqs.purgeQueue(b -> b.queueUrl(url));
        fx.sqs.sendMessage(b -> b.queueUrl(url).messageBody("after"));

        assertThat(fx.sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)).messages())
            .extracting(m -> m.body()).containsExactly("after");
        assertThatThrownBy(() -> fx.sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(handle)))
            .isInstanceOf(software.amazon.awssdk.services.sqs.model.ReceiptHandleIsInvalidException.class)
            .hasMessageContaining("purged");
        assertThat(readStream("events")).containsExactly("before", "ready", "after");
    }

    @Test
    void tagsAreKeptAcrossARestart()
    {
        final String url = fx.sqs.createQueue(b -> b.queueName("tagged").tags(Map.of("team", "billing"))).queueUrl();
        fx.sqs.tagQueue(b -> b.queueUrl(url).tags(Map.of("env", "test", "tier", "1")));
        fx.sqs.untagQueue(b -> b.queueUrl(url).tagKeys("tier"));

        fx.reopen();

        assertThat(fx.sqs.listQueueTags(b -> b.queueUrl(url)).tags()).containsExactlyInAnyOrderEntriesOf(
            Map.of("team", "billing", "env", "test"));
        assertThat(fx.sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(QueueAttributeName.ALL))
            .attributesAsStrings()).containsEntry("CreatedTimestamp", "1700000000");
    }

    @Test
    void aQueueOnAnExistingTopicStartsAtItsEndAndSeesWhatIsSentToIt()
    {
        fx.spool.createTopic("stream", TopicConfig.of(1));
        fx.spool.newProducer().send("stream", null, "old".getBytes(StandardCharsets.UTF_8)).join();
        fx.spool.createSubscription("other", "stream", io.spool.api.queue.SubscriptionSettings.DEFAULT);
        final String url = fx.queue("stream");

        fx.sqs.sendMessage(b -> b.queueUrl(url).messageBody("new"));

        assertThat(fx.sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)).messages())
            .extracting(m -> m.body()).containsExactly("new");
        assertThat(fx.spool.subscription("other").receive(10, 0)).extracting(d -> d.valueAsString())
            .as("a send is routed to its queue only").containsExactly("old");
        fx.sqs.deleteQueue(b -> b.queueUrl(url));
        assertThat(fx.spool.streams().listTopics()).as("a topic the queue did not make stays").contains("stream");
    }

    @Test
    void everySubscriptionWithAQueueNameIsAQueue()
    {
        fx.spool.createTopic("native", TopicConfig.of(2));
        fx.spool.createSubscription("billing", "native", io.spool.api.queue.SubscriptionSettings.DEFAULT);
        fx.spool.newProducer().send("native", "k".getBytes(StandardCharsets.UTF_8),
            "from the stream".getBytes(StandardCharsets.UTF_8)).join();

        final String url = fx.sqs.getQueueUrl(b -> b.queueName("billing")).queueUrl();

        assertThat(fx.sqs.receiveMessage(b -> b.queueUrl(url)).messages()).singleElement()
            .satisfies(m -> assertThat(m.body()).isEqualTo("from the stream"));
        assertThat(fx.sqs.listQueues().queueUrls()).containsExactly(url);
    }

    private List<String> readStream(final String topic)
    {
        try (StreamConsumer consumer = fx.spool.newConsumer(ConsumerConfig.standalone()))
        {
            final TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            return consumer.poll(100, Integer.MAX_VALUE, Duration.ZERO).stream()
                .map(ConsumerRecord::value).map(v -> new String(v, StandardCharsets.UTF_8)).toList();
        }
    }
}
