package io.spool.cluster;

import io.spool.api.stream.ProducerRecord;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The coalescer against a stand-in for a partition's Raft client that holds every entry sent until the test
 * answers it, the way Ratis does: under a lock of its own, which its send takes too.
 */
class EntryCoalescerTest
{
    private static final String ANSWERS_THREAD = "answers";
    private static final long PRODUCER = 7;

    private final ExecutorService answers = Executors.newSingleThreadExecutor(task -> new Thread(task, ANSWERS_THREAD));
    private final FakeRaft raft = new FakeRaft();
    private final EntryCoalescer coalescer = new EntryCoalescer(raft, answers, 1 << 20);
    private long sequence;

    @AfterEach
    void stopAnswers() throws InterruptedException
    {
        answers.shutdown();
        assertThat(answers.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void entriesThatWaitWhileTwoAreInFlightGoAsOneEnvelopeAndEachGetsItsOwnReply() throws Exception
    {
        final List<CompletableFuture<RaftClientReply>> replies = new ArrayList<>();
        for (int i = 0; i < 5; i++)
        {
            replies.add(coalescer.send(entry("e" + i)));
        }
        assertThat(raft.sentContents()).containsExactly("e0", "e1");

        raft.answerOldest(reply("r0"));
        assertThat(replies.get(0).get(10, TimeUnit.SECONDS).getMessage().getContent().toStringUtf8()).isEqualTo("r0");
        raft.awaitSent(3);
        final Message envelope = raft.sent(2);
        assertThat(ClusterEntryDescriptor.decodeEnvelope(envelope.getContent()))
            .extracting(raft.names::get)
            .containsExactly("e2", "e3", "e4");
        assertThat(coalescer.entriesSent()).isEqualTo(3);

        raft.answerOldest(reply("r1"));
        raft.answerOldest(replyOf(ClusterEntryDescriptor.envelopeReply(
            List.of(Message.valueOf("r2"), Message.valueOf("r3"), Message.valueOf("r4")))));
        for (int i = 1; i < 5; i++)
        {
            assertThat(replies.get(i).get(10, TimeUnit.SECONDS).getMessage().getContent().toStringUtf8())
                .isEqualTo("r" + i);
        }
    }

    @Test
    void repliesAreAnsweredOffTheThreadThatCompletedThemAndNothingIsSentUnderTheCoalescersLock() throws Exception
    {
        raft.whileSending = () -> assertThat(Thread.holdsLock(coalescer))
            .as("sending to Ratis while holding the coalescer's lock").isFalse();
        final CompletableFuture<String> answeredOn = coalescer.send(entry("first"))
            .thenApply(reply -> Thread.currentThread().getName());
        coalescer.send(entry("second"));
        coalescer.send(entry("third"));

        raft.answerOldest(reply("r"));
        assertThat(answeredOn.get(10, TimeUnit.SECONDS)).isEqualTo(ANSWERS_THREAD);
        raft.awaitSent(3);
        assertThat(raft.failures).isEmpty();
    }

    @Test
    void aCallbackThatPublishesAgainIsAnsweredAndItsEntrySentAfterThoseBeforeIt() throws Exception
    {
        final CompletableFuture<RaftClientReply> chained = coalescer.send(entry("first"))
            .thenCompose(reply -> coalescer.send(entry("after-first")));
        coalescer.send(entry("second"));

        final Thread ratisThread = new Thread(() -> raft.answerOldest(reply("r")), "ratis-reply");
        ratisThread.start();
        ratisThread.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(ratisThread.isAlive()).as("the thread answering for Ratis is stuck").isFalse();
        raft.awaitSent(3);
        assertThat(raft.sentContents()).containsExactly("first", "second", "after-first");
        raft.answerOldest(reply("r2"));
        raft.answerOldest(reply("r3"));
        assertThat(chained.get(10, TimeUnit.SECONDS).getMessage().getContent().toStringUtf8()).isEqualTo("r3");
    }

    @Test
    void aSendThatThrowsFailsItsEntryAndFreesItsPlaceForTheNext() throws Exception
    {
        raft.refuseNext = new IllegalStateException("client closed");
        final CompletableFuture<RaftClientReply> refused = coalescer.send(entry("refused"));
        assertThatThrownBy(() -> refused.get(10, TimeUnit.SECONDS)).hasRootCauseMessage("client closed");

        coalescer.send(entry("a"));
        coalescer.send(entry("b"));
        raft.awaitSent(2);
        assertThat(raft.sentContents()).containsExactly("a", "b");
    }

    @Test
    void closingFailsTheEntriesNotYetSentByName()
    {
        coalescer.send(entry("a"));
        coalescer.send(entry("b"));
        final CompletableFuture<RaftClientReply> unsent = coalescer.send(entry("c"));

        coalescer.close();
        assertThatThrownBy(() -> unsent.get(10, TimeUnit.SECONDS))
            .hasMessageContaining("closed before the entry was sent; it was not stored");
    }

    /** A publish entry, which {@link FakeRaft} knows by {@code name}. */
    private Message entry(final String name)
    {
        final Message entry = ClusterEntryDescriptor.publish(PRODUCER, sequence++,
            List.of(ProducerRecord.toPartition("t", 0, null, name.getBytes(UTF_8))));
        raft.names.put(entry.getContent(), name);
        return entry;
    }

    private static RaftClientReply reply(final String content)
    {
        return replyOf(Message.valueOf(content));
    }

    private static RaftClientReply replyOf(final Message message)
    {
        return RaftClientReply.newBuilder()
            .setClientId(ClientId.randomId())
            .setServerId(RaftPeerId.valueOf("n1"))
            .setGroupId(RaftGroupId.randomId())
            .setCallId(1)
            .setCommitInfos(List.of())
            .setSuccess()
            .setMessage(message)
            .build();
    }

    /** Holds what is sent until answered, completing each reply under the same lock that sending takes. */
    private static final class FakeRaft implements Function<Message, CompletableFuture<RaftClientReply>>
    {
        private final Map<ByteString, String> names = new ConcurrentHashMap<>();
        private final List<Message> sent = new ArrayList<>();
        private final List<CompletableFuture<RaftClientReply>> outstanding = new ArrayList<>();
        private final List<AssertionError> failures = new ArrayList<>();
        private Runnable whileSending = () -> { };
        private RuntimeException refuseNext;

        @Override
        public synchronized CompletableFuture<RaftClientReply> apply(final Message entry)
        {
            try
            {
                whileSending.run();
            }
            catch (final AssertionError wrong)
            {
                failures.add(wrong);
            }
            if (refuseNext != null)
            {
                final RuntimeException refusal = refuseNext;
                refuseNext = null;
                throw refusal;
            }
            sent.add(entry);
            final CompletableFuture<RaftClientReply> reply = new CompletableFuture<>();
            outstanding.add(reply);
            notifyAll();
            return reply;
        }

        synchronized void answerOldest(final RaftClientReply reply)
        {
            outstanding.remove(0).complete(reply);
        }

        synchronized Message sent(final int index)
        {
            return sent.get(index);
        }

        synchronized List<String> sentContents()
        {
            return sent.stream().map(entry -> names.getOrDefault(entry.getContent(), "an envelope")).toList();
        }

        /** Waits until {@code count} entries were sent, which the answers thread does after a reply. */
        synchronized void awaitSent(final int count) throws InterruptedException
        {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (sent.size() < count)
            {
                final long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                assertThat(left).as("entries sent: " + sentContents()).isPositive();
                wait(left);
            }
        }
    }
}
