package io.spool.queue;

import io.spool.Spool;
import io.spool.api.log.HeadersCodec;
import io.spool.api.log.RecordView;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.TopicConfig;
import io.spool.log.LogReader;
import io.spool.stream.Topic;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Halts a child JVM right after a reject, or the nack that reaches the delivery limit, returned, round after round,
 * on an idle engine and with another topic busy on the same pipeline: after every reopen each message the child
 * killed is in the dead-letter topic exactly once, no dead letter is there twice, and at the end every message is
 * either there once or still in the subscription. {@code -Dspool.deadLetterCrash.rounds=N} runs more rounds than
 * the build's.
 */
public class DeadLetterCrashTest
{
    private static final int ROUNDS = Integer.getInteger("spool.deadLetterCrash.rounds", 12);
    private static final int MOST_DEATHS_PER_ROUND = 3;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"idle", "busy"})
    void everyDeadLetterIsStoredExactlyOnceThroughHalts(final String load) throws Exception
    {
        final int messages = ROUNDS * 2 * MOST_DEATHS_PER_ROUND + 10;
        try (Spool spool = open())
        {
            spool.createTopic("jobs", TopicConfig.of(2));
            spool.createTopic("jobs.dead", TopicConfig.of(1));
            spool.createTopic("noise", TopicConfig.of(1));
            for (int i = 0; i < messages; i++)
            {
                spool.newProducer().send("jobs", null, ("job-" + i).getBytes(StandardCharsets.UTF_8)).join();
            }
            spool.createSubscription("work", "jobs",
                SubscriptionSettings.builder().deliveryLimit(1).deadLetterTopic("jobs.dead").build());
        }
        final Random random = new Random(load.hashCode());
        final Set<String> killed = new HashSet<>();
        for (int round = 0; round < ROUNDS; round++)
        {
            final List<String> killedThisRound = runAndHalt(1 + random.nextInt(MOST_DEATHS_PER_ROUND),
                random.nextBoolean() ? "rn" : "nr", load);
            assertThat(killedThisRound).as("round %d killed something", round).isNotEmpty();
            killed.addAll(killedThisRound);
            try (Spool spool = open())
            {
                final Map<String, Integer> letters = deadLetters(spool.streams().topics().topic("jobs.dead"));
                assertThat(letters).as("dead letters after round %d", round).allSatisfy((message, copies) ->
                    assertThat(copies).as("copies of %s", message).isEqualTo(1));
                assertThat(letters.keySet()).as("dead letters after round %d", round).containsAll(killed);
            }
        }
        try (Spool spool = open())
        {
            final Set<String> letters = deadLetters(spool.streams().topics().topic("jobs.dead")).keySet();
            final Set<String> left = new HashSet<>();
            for (final Delivery delivery : spool.subscription("work").receive(messages, 0, 60_000))
            {
                left.add(delivery.partition() + "/" + delivery.offset());
            }
            assertThat(left).as("messages both dead and still in the subscription").doesNotContainAnyElementsOf(letters);
            assertThat(left.size() + letters.size()).as("messages dead or left").isEqualTo(messages);
        }
    }

    private Spool open()
    {
        return Spool.builder(dir).pipelines(1).backgroundMaintenance(false).open();
    }

    /** Runs the child until it halts; returns the messages it said it killed, as partition/offset. */
    private List<String> runAndHalt(final int deaths, final String moves, final String load) throws Exception
    {
        final Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"), DeadLetteringChild.class.getName(), dir.toString(),
            Integer.toString(deaths), moves, load)
            .redirectErrorStream(true).start();
        final List<String> dead = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8)))
        {
            String line;
            while ((line = out.readLine()) != null)
            {
                final String[] parts = line.split(" ");
                if (parts[0].equals("DEAD"))
                {
                    dead.add(parts[1] + "/" + parts[2]);
                }
            }
        }
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("child ended").isTrue();
        return dead;
    }

    /** How many copies the dead-letter topic holds of each message, by where it died (partition/offset). */
    private static Map<String, Integer> deadLetters(final Topic topic)
    {
        final Map<String, Integer> copies = new HashMap<>();
        for (int p = 0; p < topic.partitionCount(); p++)
        {
            try (LogReader reader = topic.partition(p).newReader())
            {
                RecordView record;
                while ((record = reader.next()) != null)
                {
                    final String message = header(record, DeathHistory.PARTITION) + "/" +
                        header(record, DeathHistory.OFFSET);
                    copies.merge(message, 1, Integer::sum);
                }
            }
        }
        return copies;
    }

    private static String header(final RecordView record, final String name)
    {
        return new String(HeadersCodec.find(record.buffer(), record.headersOffset(), record.headersLength(), name),
            StandardCharsets.UTF_8);
    }
}
