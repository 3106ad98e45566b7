package io.spool.queue;

import io.spool.Spool;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.queue.UnknownSubscriptionException;
import io.spool.api.stream.TopicConfig;
import io.spool.log.LogFixture;
import io.spool.log.OpenReport;
import io.spool.stream.StreamEngine;
import io.spool.stream.TopicInUseException;
import io.spool.testing.SlowTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Subscription state belongs to one log: when recovery cuts the log below it, it comes back to the new end and a
 * message published after the repair reaches the subscription; a topic deleted and created again is another topic
 * whose subscriptions inherit nothing.
 */
@SlowTest
class LogIdentityTest
{
    private static final int MESSAGES = 40;
    /** Where recovery cuts the log, as the offset of the record damaged in the active segment. */
    private static final int[] CUTS = {0, 1, 7, 19, 20, 21, 33, MESSAGES - 1};

    @TempDir
    Path root;

    @Test
    void aMessagePublishedAfterRecoveryCutTheLogReachesTheSubscription()
    {
        int cases = 0;
        for (final int cut : CUTS)
        {
            for (final int acked : new int[] {MESSAGES, MESSAGES / 2})
            {
                cutBelowTheSubscription(root.resolve("cut-" + cut + "-acked-" + acked), cut, acked);
                cases++;
            }
        }
        assertThat(cases).isEqualTo(CUTS.length * 2);
    }

    /**
     * The subscription received every message and acked the first {@code acked}; recovery then cuts the log at
     * {@code cut}.
     */
    private void cutBelowTheSubscription(final Path dir, final int cut, final int acked)
    {
        try (QueueFixture fx = new QueueFixture(dir))
        {
            fx.topic("orders", 1);
            final Subscription work = fx.spool.createSubscription("work", "orders", SubscriptionSettings.DEFAULT);
            for (int i = 0; i < MESSAGES; i++)
            {
                fx.spool.newProducer().send("orders", null, value(i)).join();
            }
            final List<Delivery> delivered = work.receive(MESSAGES, 0);
            assertThat(delivered).hasSize(MESSAGES);
            delivered.subList(0, acked).forEach(delivery -> work.ack(delivery.receipt()));
            work.sync();
        }
        LogFixture.damageRecordHolding(dir.resolve("topics/orders/0"), value(cut));

        try (QueueFixture fx = new QueueFixture(dir))
        {
            assertThat(fx.spool.streams().topics().topic("orders").partition(0).endOffset()).isEqualTo(cut);
            assertThat(fx.spool.openReport().findings(OpenReport.Action.MOVED_TO_LOG_END))
                .as("cut at %d, %d acked", cut, acked)
                .singleElement().satisfies(finding -> assertThat(finding.subject()).contains("work partition 0"));
            fx.publish("orders", "after the repair");
            final List<String> values = QueueFixture.drain(fx.spool.subscription("work"));
            assertThat(values).as("cut at %d, %d acked", cut, acked).endsWith("after the repair");
            final List<String> expected = new ArrayList<>();
            for (int i = Math.min(acked, cut); i < cut; i++)
            {
                expected.add(new String(value(i), StandardCharsets.UTF_8));
            }
            expected.add("after the repair");
            assertThat(values).as("the unacked survivors and the new message, once each").isEqualTo(expected);
        }
        try (QueueFixture fx = new QueueFixture(dir))
        {
            assertThat(fx.spool.openReport().findings(OpenReport.Action.MOVED_TO_LOG_END))
                .as("the repair is done once").isEmpty();
            fx.publish("orders", "after a restart");
            assertThat(QueueFixture.values(fx.spool.subscription("work").receive(10, 0)))
                .containsExactly("after a restart");
        }
    }

    @Test
    void aTopicWithSubscriptionsIsDeletedOnlyWithForceAndACreatedAgainTopicInheritsNothing()
    {
        final Path dir = root.resolve("delete");
        try (QueueFixture fx = new QueueFixture(dir))
        {
            fx.topic("orders", 2);
            fx.topic("audit", 1);
            final Subscription billing = fx.spool.createSubscription("billing", "orders",
                SubscriptionSettings.DEFAULT);
            fx.spool.createSubscription("shipping", "orders", SubscriptionSettings.DEFAULT);
            final Subscription auditing = fx.spool.createSubscription("auditing", "audit",
                SubscriptionSettings.DEFAULT);
            fx.publishJobs("orders", 30);
            fx.publish("audit", "kept");
            QueueFixture.drain(billing);
            billing.sync();

            assertThatThrownBy(() -> fx.spool.deleteTopic("orders"))
                .isInstanceOf(TopicInUseException.class)
                .hasMessageContaining("subscription 'billing'").hasMessageContaining("subscription 'shipping'")
                .hasMessageContaining("force");
            assertThatThrownBy(() -> fx.spool.streams().deleteTopic("orders")).isInstanceOf(TopicInUseException.class);
            assertThat(fx.spool.streams().listTopics()).contains("orders");
            assertThat(QueueFixture.values(fx.spool.subscription("shipping").receive(1, 0))).hasSize(1);

            fx.spool.deleteTopic("orders", true);
            assertThat(fx.spool.subscriptions()).containsExactly("auditing");
            assertThatThrownBy(() -> fx.spool.subscription("billing"))
                .isInstanceOf(UnknownSubscriptionException.class);
            assertThat(dir.resolve("queue/billing")).doesNotExist();
            assertThat(QueueFixture.values(auditing.receive(10, 0))).containsExactly("kept");

            fx.topic("orders", 2);
            fx.spool.createSubscription("billing", "orders", SubscriptionSettings.DEFAULT);
            fx.publishJobs("orders", 5);
        }
        try (QueueFixture fx = new QueueFixture(dir))
        {
            assertThat(fx.spool.openReport().isClean()).as(fx.spool.openReport().toString()).isTrue();
            assertThat(fx.spool.subscriptions()).containsExactly("auditing", "billing");
            fx.publish("orders", "after the restart");
            assertThat(QueueFixture.drain(fx.spool.subscription("billing")))
                .containsExactlyInAnyOrder("job-0", "job-1", "job-2", "job-3", "job-4", "after the restart");
        }
    }

    /**
     * A subscription whose topic was deleted and created again behind its back (here through a stream engine opened
     * alone, which knows nothing of subscriptions) finds another topic id at open: its state, kept for the old log,
     * is dropped and it reads the new topic from its start.
     */
    @Test
    void stateKeptForAnEarlierTopicOfTheSameNameIsDroppedAtOpen()
    {
        final Path dir = root.resolve("behind-its-back");
        try (QueueFixture fx = new QueueFixture(dir))
        {
            fx.topic("orders", 1);
            final Subscription work = fx.spool.createSubscription("work", "orders", SubscriptionSettings.DEFAULT);
            fx.publishJobs("orders", 20);
            work.receive(20, 0).forEach(delivery -> work.ack(delivery.receipt()));
            work.sync();
        }
        try (StreamEngine streams = StreamEngine.open(dir))
        {
            streams.deleteTopic("orders");
            streams.createTopic("orders", TopicConfig.of(1));
            final var producer = streams.newProducer();
            for (int i = 0; i < 3; i++)
            {
                producer.send("orders", null, ("new-" + i).getBytes(StandardCharsets.UTF_8)).join();
            }
        }
        try (QueueFixture fx = new QueueFixture(dir))
        {
            assertThat(fx.spool.openReport().findings(OpenReport.Action.RESET_FOR_NEW_TOPIC)).singleElement()
                .satisfies(finding -> assertThat(finding.subject()).isEqualTo("subscription work"));
            fx.publish("orders", "new-3");
            final Subscription work = fx.spool.subscription("work");
            assertThat(QueueFixture.values(work.receive(10, 0))).containsExactly("new-0", "new-1", "new-2", "new-3");
        }
        try (Spool spool = Spool.builder(dir).backgroundMaintenance(false).open())
        {
            assertThat(spool.openReport().isClean()).as(spool.openReport().toString()).isTrue();
        }
    }

    static byte[] value(final int i)
    {
        return String.format("message-%05d-%s", i, "x".repeat(40)).getBytes(StandardCharsets.UTF_8);
    }
}
