package io.spool.wire.sqs;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.model.ListMessageMoveTasksResultEntry;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A message move task outlives a restart of the endpoint: one stopped while running goes on and finishes, and a
 * finished one is still listed.
 */
class SqsMoveTaskRestartTest
{
    private static final int MESSAGES = 3;

    @TempDir
    Path dir;
    private SqsFixture fx;

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
    void aRunningTaskGoesOnAfterARestartAndAFinishedOneIsStillListed()
    {
        final String dlq = fx.queue("work-dlq");
        final String work = fx.queue("work", "RedrivePolicy", "{\"deadLetterTargetArn\":\"" + fx.arn("work-dlq") +
            "\",\"maxReceiveCount\":2}");
        for (int i = 0; i < MESSAGES; i++)
        {
            final int n = i;
            fx.sqs.sendMessage(b -> b.queueUrl(dlq).messageBody("dead " + n));
        }
        // one message a second by the engine's clock: the restart comes while the task waits to move the second
        final String handle = fx.sqs.startMessageMoveTask(b -> b.sourceArn(fx.arn("work-dlq"))
            .destinationArn(fx.arn("work")).maxNumberOfMessagesPerSecond(1)).taskHandle();
        fx.endpoint.syncMoveTasks();
        assertThat(tasks()).singleElement().satisfies(task ->
        {
            assertThat(task.status()).isEqualTo("RUNNING");
            assertThat(task.approximateNumberOfMessagesMoved()).isEqualTo(1);
            assertThat(task.startedTimestamp()).isEqualTo(fx.clock.time());
        });

        fx.reopen();

        // it goes on at its start, so the second message is due already and the third a second after the start
        fx.endpoint.syncMoveTasks();
        assertThat(tasks()).singleElement().satisfies(task ->
        {
            assertThat(task.status()).isEqualTo("RUNNING");
            assertThat(task.approximateNumberOfMessagesMoved()).isEqualTo(2);
        });
        fx.clock.advance(999);
        fx.endpoint.syncMoveTasks();
        assertThat(tasks().get(0).approximateNumberOfMessagesMoved()).as("not due before a second").isEqualTo(2);
        fx.clock.advance(1);
        fx.endpoint.syncMoveTasks();
        assertThat(tasks().get(0).approximateNumberOfMessagesMoved()).isEqualTo(MESSAGES);
        fx.clock.advance(1_000);
        fx.endpoint.syncMoveTasks();
        final ListMessageMoveTasksResultEntry finished = tasks().get(0);
        assertThat(finished.status()).isEqualTo("COMPLETED");
        assertThat(finished.approximateNumberOfMessagesMoved()).isEqualTo(MESSAGES);
        assertThat(fx.spool.subscription("work").metrics().ready()).isEqualTo(MESSAGES);
        assertThat(fx.spool.subscription("work-dlq").metrics().ready()).isZero();

        fx.reopen();

        assertThat(tasks()).singleElement().satisfies(task ->
        {
            assertThat(task.status()).isEqualTo("COMPLETED");
            assertThat(task.approximateNumberOfMessagesMoved()).isEqualTo(MESSAGES);
            assertThat(task.taskHandle()).as("only a running task shows its handle").isNull();
        });
        assertThat(handle).isNotEmpty();
        assertThat(fx.sqs.receiveMessage(b -> b.queueUrl(work).maxNumberOfMessages(10)).messages()).hasSize(MESSAGES);
    }

    private List<ListMessageMoveTasksResultEntry> tasks()
    {
        return fx.sqs.listMessageMoveTasks(b -> b.sourceArn(fx.arn("work-dlq")).maxResults(10)).results();
    }
}
