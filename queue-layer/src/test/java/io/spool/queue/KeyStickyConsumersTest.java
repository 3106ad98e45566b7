package io.spool.queue;

import io.spool.api.queue.ConsumerOptions;
import io.spool.api.queue.GroupKeySource;
import io.spool.api.queue.GroupMode;
import io.spool.api.queue.QueueHeaders;
import io.spool.api.queue.SubscriptionSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Key-sticky push consumers: a key stays with its consumer while it has unsettled messages, a newcomer gets none of
 * them, and when the owner leaves (or the engine restarts) the next consumer takes the keys over in offset order.
 */
class KeyStickyConsumersTest
{
    @TempDir
    Path dir;
    QueueFixture fx;

    @BeforeEach
    void open()
    {
        fx = new QueueFixture(dir);
        fx.topic("jobs", 1);
    }

    @AfterEach
    void close()
    {
        fx.close();
    }

    private void publish(final int from, final int to)
    {
        for (int i = from; i < to; i++)
        {
            fx.publishWith("jobs", "k" + (i % 4) + "-" + i, QueueHeaders.GROUP_ID, "k" + (i % 4));
        }
    }

    private static QueueConsumer holding(final Subscription work, final List<Long> offsets, final CountDownLatch got)
    {
        return work.consume(ConsumerOptions.prefetch(100), (delivery, consumer) ->
        {
            offsets.add(delivery.offset());
            got.countDown();
        });
    }

    @Test
    void keysStayWithTheirConsumerAndMoveInOrderWhenItLeavesOrTheEngineRestarts() throws Exception
    {
        Subscription work = fx.spool.createSubscription("work", "jobs", SubscriptionSettings.builder()
            .messageGroups(GroupMode.KEY_STICKY, GroupKeySource.HEADER).build());
        publish(0, 20);
        final List<Long> first = new CopyOnWriteArrayList<>();
        final CountDownLatch firstGot = new CountDownLatch(24);
        final QueueConsumer owner = holding(work, first, firstGot);
        final List<Long> second = new CopyOnWriteArrayList<>();
        final CountDownLatch secondGot = new CountDownLatch(24);
        while (first.size() < 20)
        {
            work.sync();
        }
        final QueueConsumer newcomer = holding(work, second, secondGot);
        publish(20, 24);
        QueueFixture.await(firstGot);
        work.sync();
        assertThat(second).isEmpty();

        owner.close();
        QueueFixture.await(secondGot);
        assertThat(second).isSorted().hasSize(24);
        newcomer.close();

        fx.reopen();
        work = fx.spool.subscription("work");
        final List<Long> afterRestart = new CopyOnWriteArrayList<>();
        final CountDownLatch restartGot = new CountDownLatch(24);
        final QueueConsumer next = holding(work, afterRestart, restartGot);
        QueueFixture.await(restartGot);
        assertThat(afterRestart).isSorted().hasSize(24);
        next.close();
    }
}
