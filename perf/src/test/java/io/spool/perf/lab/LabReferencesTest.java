package io.spool.perf.lab;

import io.spool.testing.SlowTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static io.spool.perf.lab.LabTable.ELASTICMQ;
import static io.spool.perf.lab.LabTable.RABBITMQ;
import static io.spool.perf.lab.LabTable.measured;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The labs' reference column carries what the real brokers did when the same experiments were run on them, and says
 * so; the Spool figures that the lab's own setup decides are marked as such.
 */
@SlowTest
class LabReferencesTest
{
    @TempDir
    Path dir;

    @Test
    void ackLabShowsTheMeasuredRabbitMqFiguresAndSaysItsConsumerDiesByClosing()
    {
        final LabTable table = new AckLab().run(dir);
        assertThat(table.reference("auto-ack: lost")).isEqualTo(measured(RABBITMQ, "80"));
        assertThat(table.reference("manual ack: left in the queue")).isEqualTo(measured(RABBITMQ, "80"));
        assertThat(table.reference("manual ack: flagged redelivered")).isEqualTo(measured(RABBITMQ, "10"));
        assertThat(table.reference("manual ack: lost")).isEqualTo(measured(RABBITMQ, "0"));
        assertThat(table.reference("manual ack: processed twice")).isEqualTo(measured(RABBITMQ, "1"));
        assertThat(table.render()).contains("clean close").contains("SIGKILL")
            .contains("Measured references: the same experiment run on " + RABBITMQ);
    }

    @Test
    void poisonLabsRequeueCountIsMarkedAsTheWindowOverItsRoundTrip()
    {
        final LabTable table = new PoisonLab().run(dir);
        final String row = "no limit (-1): deliveries in 2 s";
        assertThat(table.reference(row)).isEqualTo(measured(RABBITMQ, "17,406-19,869 (classic queue)"));
        assertThat(table.isSetByLab(row)).isTrue();
        assertThat(table.render()).contains(table.figure(row) + " *").contains("Set by the lab, not the engine");
    }

    @Test
    void pollingLabShowsElasticMqsCallsAndMarksTheShortPollCount()
    {
        final LabTable table = new PollingLab().run(dir);
        final String shortPolls = "short polling (wait 0, 1 ms round trip): receive calls";
        assertThat(table.reference(shortPolls)).isEqualTo(measured(ELASTICMQ, "1,000-1,107"));
        assertThat(table.isSetByLab(shortPolls)).isTrue();
        assertThat(table.reference("long polling (wait 5 s): receive calls")).isEqualTo(measured(ELASTICMQ, "2"));
    }

    @Test
    void fanoutAndPrefetchLabsShowTheMeasuredSplits()
    {
        assertThat(new FanoutLab().run(dir.resolve("fanout")).reference("point-to-point: worker A / worker B"))
            .isEqualTo(measured(RABBITMQ, "50 / 50"));
        final LabTable prefetch = new PrefetchLab().run(dir.resolve("prefetch"));
        assertThat(prefetch.reference("prefetch 1: fast / slow took")).isEqualTo(measured(RABBITMQ, "177-180 / 20-23"));
        assertThat(prefetch.reference("prefetch 1: all done after")).startsWith(measured(RABBITMQ, "1.02-1.23 s"));
        assertThat(prefetch.isSetByLab("prefetch 1: all done after")).isTrue();
    }

    @Test
    void orderingLabShowsTheMeasuredOrderAndSingleActiveConsumer()
    {
        final LabTable table = new OrderingLab().run(dir);
        assertThat(table.reference("competing: events finished after a newer one of their key"))
            .isEqualTo(measured(RABBITMQ, "3-10"));
        assertThat(table.reference("single active consumer (push): deliveries to first / second"))
            .isEqualTo(measured(RABBITMQ, "109-116 / 0"));
        assertThat(table.reference("single active consumer: out of order")).isEqualTo(measured(RABBITMQ, "0"));
    }

    @Test
    void fifoVisibilityDelayAndRedriveLabsShowWhatElasticMqAndRabbitMqDid()
    {
        final LabTable fifo = new FifoLab().run(dir.resolve("fifo"));
        assertThat(fifo.reference("receive of 10 while A0 is in flight"))
            .isEqualTo(measured(ELASTICMQ, "B0, B1, B2, B3, C0, C1, C2, C3"));
        assertThat(fifo.figure("receive of 10 while A0 is in flight")).isEqualTo("B0, B1, B2, B3, C0, C1, C2, C3");
        assertThat(fifo.reference("receive of 10 after A0 is acked")).isEqualTo(measured(ELASTICMQ, "A1, A2, A3"));
        assertThat(fifo.figure("receive of 10 after A0 is acked")).isEqualTo("A1, A2, A3");

        final LabTable visibility = new VisibilityLab().run(dir.resolve("visibility"));
        assertThat(visibility.reference("no extension: B receives the message at"))
            .isEqualTo(measured(ELASTICMQ, "2.04-2.06 s"));
        assertThat(visibility.isSetByLab("no extension: B receives the message at")).isTrue();

        final LabTable delay = new DelayLab().run(dir.resolve("delay"));
        assertThat(delay.reference("delay on publish (x-delay): 0.5 s message came out at"))
            .isEqualTo(measured(RABBITMQ, "5.011 s (TTL wait queue)"));

        assertThat(new RedriveLab().run(dir.resolve("redrive")).reference("receives before it moved to the " +
            "dead-letter topic")).isEqualTo(measured(ELASTICMQ, "3 (moved at 3.3 s)"));
    }
}
