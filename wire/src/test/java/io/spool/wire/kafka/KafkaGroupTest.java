package io.spool.wire.kafka;

import io.spool.api.stream.GroupDescription;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.testing.CrashTest;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static io.spool.wire.kafka.KafkaProduceTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Group rebalances with stock clients: a member joins (the partitions are shared), a member dies (a child JVM
 * killed: its session expires and the survivor takes everything), a member leaves (at once). Under the classic
 * protocol with an eager and a cooperative assignor, and under the consumer protocol of KIP-848 with Spool's
 * server-side assignor. Committed offsets are Spool's: the group's lag reads through Spool's API.
 */
@CrashTest
class KafkaGroupTest
{
    private static final String TOPIC = "work";
    private static final int PARTITIONS = 4;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"range", "cooperative-sticky", "consumer"})
    void membersJoiningDyingAndLeavingRebalanceTheGroup(final String mode) throws Exception
    {
        try (KafkaFixture kafka = new KafkaFixture(dir))
        {
            kafka.engine.createTopic(TOPIC, TopicConfig.of(PARTITIONS));
            publish(kafka, 0, 40);
            final String group = "workers-" + mode;
            try (PollingConsumer first = new PollingConsumer(kafka, PollingConsumer.groupSettings(group, mode), TOPIC))
            {
                KafkaFixture.await("the first member owns every partition", () -> first.owned().size() == PARTITIONS);
                KafkaFixture.await("the first member read everything", () -> first.values().size() == 40);

                final Process child = startChild(kafka, group, mode);
                try
                {
                    KafkaFixture.await("a joining member takes half", () -> first.owned().size() == PARTITIONS / 2);
                }
                finally
                {
                    child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                }
                KafkaFixture.await("the dead member's partitions come back", () -> first.owned().size() == PARTITIONS);

                try (PollingConsumer third = new PollingConsumer(kafka, PollingConsumer.groupSettings(group, mode), TOPIC))
                {
                    KafkaFixture.await("the third member takes half", () -> first.owned().size() == PARTITIONS / 2 &&
                        third.owned().size() == PARTITIONS / 2);
                }
                KafkaFixture.await("the leaving member's partitions come back", () -> first.owned().size() == PARTITIONS);

                publish(kafka, 40, 80);
                KafkaFixture.await("the survivor reads the new records", () -> first.values().containsAll(range(40, 80)));
                KafkaFixture.await("the group's lag through Spool's API is zero", () ->
                    kafka.engine.streams().lag(group).values().stream().allMatch(lag -> lag == 0));
            }
        }
    }

    private static Process startChild(final KafkaFixture kafka, final String group, final String mode)
        throws Exception
    {
        final Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"), KafkaGroupChild.class.getName(),
            kafka.bootstrap(), group, mode, TOPIC).redirectErrorStream(true).start();
        final BufferedReader output = new BufferedReader(new InputStreamReader(child.getInputStream(),
            StandardCharsets.UTF_8));
        final Thread drain = new Thread(() -> output.lines().forEach(line -> { }));
        drain.setDaemon(true);
        drain.start();
        return child;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"range", "cooperative-sticky", "consumer"})
    void aGroupsMembersShowThroughSpoolsGroupApiWhateverTheirProtocol(final String mode)
    {
        try (KafkaFixture kafka = new KafkaFixture(dir))
        {
            kafka.engine.createTopic(TOPIC, TopicConfig.of(PARTITIONS));
            final String group = "shown-" + mode;
            try (PollingConsumer first = new PollingConsumer(kafka, PollingConsumer.groupSettings(group, mode), TOPIC);
                 PollingConsumer second = new PollingConsumer(kafka, PollingConsumer.groupSettings(group, mode), TOPIC))
            {
                KafkaFixture.await("the members share the partitions", () -> first.owned().size() == PARTITIONS / 2 &&
                    second.owned().size() == PARTITIONS / 2);
                KafkaFixture.await("Spool's group API shows both members with their partitions", () ->
                {
                    final GroupDescription membership = kafka.engine.streams().describeGroup(group).membership();
                    return membership != null && membership.members().size() == 2 &&
                        membership.targetAssignment().values().stream().mapToInt(List::size).sum() == PARTITIONS;
                });
                final GroupDescription membership = kafka.engine.streams().describeGroup(group).membership();
                assertThat(membership.subscriptions().values()).allSatisfy(topics ->
                    assertThat(topics).containsExactly(TOPIC));
                assertThat(membership.targetAssignment().values()).allSatisfy(partitions ->
                    assertThat(partitions).hasSize(PARTITIONS / 2));
                assertThat(membership.generation()).isPositive();
                assertThat(kafka.engine.streams().listGroups()).contains(group);
            }
        }
    }

    private static void publish(final KafkaFixture kafka, final int from, final int to)
    {
        for (int i = from; i < to; i++)
        {
            kafka.engine.newProducer().send(ProducerRecord.toPartition(TOPIC, i % PARTITIONS, null, bytes("r" + i)))
                .join();
        }
    }

    private static Set<String> range(final int from, final int to)
    {
        final Set<String> values = new HashSet<>();
        for (int i = from; i < to; i++)
        {
            values.add("r" + i);
        }
        return values;
    }
}
