package io.spool.queue;

import io.spool.api.log.DedupKey;
import io.spool.api.queue.QueueHeaders;
import io.spool.api.queue.SubscriptionSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static io.spool.queue.QueueFixture.values;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * SQS-style dedup as a subscription sees it: a repeat inside the window is never stored, so never delivered.
 */
class QueueDedupTest
{
    @TempDir
    Path dir;
    QueueFixture fx;

    @BeforeEach
    void open()
    {
        fx = new QueueFixture(dir);
        fx.topic("orders", 1);
    }

    @AfterEach
    void close()
    {
        fx.close();
    }

    @Test
    void aRepeatedDedupIdIsDeliveredOnceEvenAcrossARestart()
    {
        fx.spool.createSubscription("work", "orders", SubscriptionSettings.DEFAULT);
        final long first = fx.publishWith("orders", "B0", DedupKey.HEADER, "B0", QueueHeaders.GROUP_ID, "B");
        assertThat(fx.publishWith("orders", "B0 again", DedupKey.HEADER, "B0")).isEqualTo(first);
        fx.reopen();
        assertThat(fx.publishWith("orders", "B0 after restart", DedupKey.HEADER, "B0")).isEqualTo(first);
        fx.publishWith("orders", "B1", DedupKey.HEADER, "B1");

        assertThat(values(fx.spool.subscription("work").receive(10, 0))).containsExactly("B0", "B1");
    }
}
