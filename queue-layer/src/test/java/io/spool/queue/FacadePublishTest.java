package io.spool.queue;

import io.spool.SpoolProducer;
import io.spool.api.log.RecordTooLargeException;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static io.spool.queue.QueueFixture.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The facade's producer refuses a record the log cannot take before anything is published, single or in a batch, and
 * the engine goes on: later messages reach the subscription and the engine closes.
 */
class FacadePublishTest
{
    @TempDir
    Path dir;

    @Test
    void aRefusedPublishLeavesTheEngineWorking()
    {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () ->
        {
            final QueueFixture fx = new QueueFixture(dir);
            fx.topic("orders", 2);
            final Subscription work = fx.spool.createSubscription("work", "orders", SubscriptionSettings.DEFAULT);
            final SpoolProducer producer = fx.spool.newProducer();
            final byte[] tooLarge = new byte[16 * 1024];

            assertThatThrownBy(() -> producer.send("orders", null, tooLarge))
                .isInstanceOf(RecordTooLargeException.class);
            assertThatThrownBy(() -> producer.sendBatch(List.of(
                ProducerRecord.toPartition("orders", 0, null, bytes("batched")),
                ProducerRecord.toPartition("orders", 1, null, tooLarge))))
                .isInstanceOf(RecordTooLargeException.class);

            producer.send("orders", null, bytes("after")).join();
            producer.sendBatch(List.of(ProducerRecord.toPartition("orders", 1, null, bytes("batch after")))).join();
            assertThat(values(work.receive(10, 0))).containsExactlyInAnyOrder("after", "batch after");
            fx.close();
        });
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
