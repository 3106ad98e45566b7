package io.spool.wire.sqs;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.model.ListMessageMoveTasksResultEntry;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

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
    void aRunningTaskGoesOnAfterARestartAndAFinishedOneIsStillListed() throws InterruptedException
    {
        final String dlq = fx.queue("work-dlq");
        final String work = fx.queue("work", "RedrivePolicy", "{\"deadLetterTargetArn\":\"" + fx.arn("work-dlq") +
            "\",\"maxReceiveCount\":2}");
        for (int i = 0; i < MESSAGES; i++)
        {
            final int n = i;
            fx.sqs.sendMessage(b -> b.queueUrl(dlq).messageBody("dead " + n));
        }
        // one message a second: the restart comes while the task waits to move the second
        final String handle = fx.sqs.startMessageMoveTask(b -> b.sourceArn(fx.arn("work-dlq"))
            .destinationArn(fx.arn("work")).maxNumberOfMessagesPerSecond(1)).taskHandle();

        fx.reopen();

        assertThat(tasks()).singleElement().satisfies(task -> assertThat(task.status()).isIn("RUNNING", "COMPLETED"));
        final ListMessageMoveTasksResultEntry finished = awaitCompleted();
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

    /** Polls while the task moves at its rate, which real time paces. */
    private ListMessageMoveTasksResultEntry awaitCompleted() throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline)
        {
            final ListMessageMoveTasksResultEntry task = tasks().get(0);
            if (task.status().equals("COMPLETED"))
            {
                return task;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the move task did not complete in 30 s: " + tasks());
    }
}
