package io.spool.queue;

import io.spool.api.queue.ConsumerOptions;
import io.spool.api.InvalidRequestException;
import io.spool.api.queue.SubscriptionSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class SingleActiveConsumerTest
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

    private static List<String> jobs(final int from, final int to)
    {
        return IntStream.range(from, to).mapToObj(i -> "job-" + i).toList();
    }

    @Test
    void oneConsumerGetsEverythingAndTheStandbyTakesOverInOrderWhenItGoes() throws Exception
    {
        final Subscription work = fx.spool.createSubscription("work", "jobs",
            SubscriptionSettings.builder().singleActiveConsumer(true).build());
        for (final String job : jobs(0, 100))
        {
            fx.publish("jobs", job);
        }
        final List<String> active = new CopyOnWriteArrayList<>();
        final List<String> standby = new CopyOnWriteArrayList<>();
        final CountDownLatch activeFull = new CountDownLatch(30);
        final CountDownLatch standbyDone = new CountDownLatch(80);
        final QueueConsumer first = work.consume(ConsumerOptions.prefetch(10), (delivery, consumer) ->
        {
            active.add(delivery.valueAsString());
            if (active.size() <= 20)
            {
                consumer.ack(delivery);
            }
            activeFull.countDown();
        });
        QueueFixture.await(activeFull);
        final QueueConsumer second = work.consume(ConsumerOptions.prefetch(10), (delivery, consumer) ->
        {
            standby.add(delivery.valueAsString());
            consumer.ack(delivery);
            standbyDone.countDown();
        });
        work.sync();
        work.sync();
        assertThat(standby).isEmpty();
        first.close();
        QueueFixture.await(standbyDone);

        assertThat(active).containsExactlyElementsOf(jobs(0, 30));
        assertThat(standby).containsExactlyElementsOf(jobs(20, 100));
        second.close();
    }

    @Test
    void theSettingSurvivesARestart()
    {
        fx.spool.createSubscription("work", "jobs", SubscriptionSettings.builder().singleActiveConsumer(true).build());
        fx.reopen();
        assertThat(fx.spool.subscription("work").settings().singleActiveConsumer()).isTrue();
    }

    @Test
    void aPullReceiveIsRefusedSoItCannotTakeMessagesPastTheActiveConsumer()
    {
        final Subscription work = fx.spool.createSubscription("work", "jobs",
            SubscriptionSettings.builder().singleActiveConsumer(true).build());
        fx.publish("jobs", "job-0", "job-1");
        final CountDownLatch first = new CountDownLatch(1);
        final QueueConsumer active = work.consume(ConsumerOptions.prefetch(1), (delivery, consumer) ->
            first.countDown());
        QueueFixture.await(first);

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> work.receive(10, 0))
            .isInstanceOf(InvalidRequestException.class)
            .hasMessageContaining("single active consumer").hasMessageContaining("consume()");
        work.sync();
        assertThat(work.metrics().inFlight()).as("only the active consumer's delivery").isEqualTo(1);
        assertThat(work.metrics().ready()).isEqualTo(1);
        active.close();
    }
}
