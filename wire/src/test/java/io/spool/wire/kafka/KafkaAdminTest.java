package io.spool.wire.kafka;

import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicPartition;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.utils.internals.Exit;
import org.apache.kafka.tools.TopicCommand;
import org.apache.kafka.tools.consumer.group.ConsumerGroupCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;

import static io.spool.wire.kafka.KafkaProduceTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Kafka's Admin client and command-line tools administer Spool's topics and groups. */
class KafkaAdminTest
{
    @TempDir
    Path dir;

    @Test
    void adminCreatesDescribesListsAndDeletesTopicsWithSpoolsSettings() throws Exception
    {
        try (KafkaFixture kafka = new KafkaFixture(dir); Admin admin = kafka.admin())
        {
            admin.createTopics(List.of(new NewTopic("metrics", 3, (short)1).configs(Map.of(
                "retention.ms", "60000", "retention.bytes", "1048576", "segment.bytes", "2097152",
                "message.timestamp.type", "LogAppendTime")))).all().get();
            final var stored = kafka.engine.streams().describeTopic("metrics").config();
            assertThat(stored.partitions()).isEqualTo(3);
            assertThat(stored.log().retentionMillis()).isEqualTo(60_000);
            assertThat(stored.log().retentionBytes()).isEqualTo(1_048_576);
            assertThat(stored.log().segmentBytes()).isEqualTo(2_097_152);
            assertThat(stored.log().logAppendTime()).isTrue();

            assertThat(admin.listTopics().names().get()).contains("metrics");
            final TopicDescription described = admin.describeTopics(List.of("metrics")).allTopicNames().get()
                .get("metrics");
            assertThat(described.partitions()).hasSize(3);
            assertThat(described.topicId()).isNotNull();
            final Config config = admin.describeConfigs(List.of(new ConfigResource(ConfigResource.Type.TOPIC,
                "metrics"))).all().get().values().iterator().next();
            assertThat(config.get("retention.ms").value()).isEqualTo("60000");
            assertThat(config.get("message.timestamp.type").value()).isEqualTo("LogAppendTime");
            assertThat(admin.describeCluster().nodes().get()).hasSize(1);

            assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic("metrics", 1, (short)1))).all().get())
                .hasCauseInstanceOf(TopicExistsException.class);
            assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic("replicated", 1, (short)3))).all().get())
                .hasCauseInstanceOf(InvalidReplicationFactorException.class);
            assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic("compacted", 1, (short)1)
                .configs(Map.of("cleanup.policy", "compact")))).all().get())
                .hasCauseInstanceOf(InvalidConfigurationException.class).hasMessageContaining("does not compact");

            admin.deleteTopics(List.of("metrics")).all().get();
            assertThat(kafka.engine.streams().listTopics()).doesNotContain("metrics");
            assertThatThrownBy(() -> admin.deleteTopics(List.of("metrics")).all().get())
                .hasCauseInstanceOf(UnknownTopicOrPartitionException.class);
        }
    }

    @Test
    void adminListsOffsetsAndAdministersGroupsWhoseOffsetsAreSpools() throws Exception
    {
        try (KafkaFixture kafka = new KafkaFixture(dir); Admin admin = kafka.admin())
        {
            kafka.engine.createTopic("orders", TopicConfig.of(1));
            for (int i = 0; i < 10; i++)
            {
                kafka.engine.newProducer().send(ProducerRecord.toPartition("orders", 0, null, bytes("r" + i))
                    .withTimestamp(5_000L + i)).join();
            }
            final org.apache.kafka.common.TopicPartition orders = new org.apache.kafka.common.TopicPartition("orders", 0);
            final ListOffsetsResult.ListOffsetsResultInfo earliest = admin.listOffsets(Map.of(orders, OffsetSpec.earliest()))
                .partitionResult(orders).get();
            final ListOffsetsResult.ListOffsetsResultInfo latest = admin.listOffsets(Map.of(orders, OffsetSpec.latest()))
                .partitionResult(orders).get();
            final ListOffsetsResult.ListOffsetsResultInfo byTime = admin.listOffsets(Map.of(orders,
                OffsetSpec.forTimestamp(5_004L))).partitionResult(orders).get();
            assertThat(earliest.offset()).isZero();
            assertThat(latest.offset()).isEqualTo(10);
            assertThat(byTime.offset()).isEqualTo(4);
            assertThat(admin.listOffsets(Map.of(orders, OffsetSpec.maxTimestamp())).partitionResult(orders).get()
                .offset()).isEqualTo(9);

            try (KafkaConsumer<byte[], byte[]> consumer = kafka.consumer(Map.of(ConsumerConfig.GROUP_ID_CONFIG, "billing",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false)))
            {
                consumer.subscribe(List.of("orders"));
                KafkaConsumeTest.poll(consumer, 10);
                consumer.commitSync(Map.of(orders, new OffsetAndMetadata(7)));
                assertThat(kafka.engine.streams().groups().committed("billing", new TopicPartition("orders", 0)))
                    .isEqualTo(7);
                assertThat(kafka.engine.streams().lag("billing", new TopicPartition("orders", 0))).isEqualTo(3);
                final ConsumerGroupDescription group = admin.describeConsumerGroups(List.of("billing")).all().get()
                    .get("billing");
                assertThat(group.members()).hasSize(1);
                assertThat(group.members().iterator().next().assignment().topicPartitions()).containsExactly(orders);
                assertThat(admin.listGroups().all().get()).anySatisfy(listing ->
                    assertThat(listing.groupId()).isEqualTo("billing"));
                final ExecutionException busy = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                    () -> admin.deleteConsumerGroups(List.of("billing")).all().get());
                assertThat(busy.getCause().getClass().getSimpleName()).isEqualTo("GroupNotEmptyException");
            }
            assertThat(admin.listConsumerGroupOffsets("billing").partitionsToOffsetAndMetadata().get().get(orders)
                .offset()).isEqualTo(7);
            admin.deleteConsumerGroups(List.of("billing")).all().get();
            assertThat(kafka.engine.streams().groups().committedOffsets("billing")).isEmpty();
        }
    }

    @Test
    void kafkasCommandLineToolsListCreateAndDescribe() throws Exception
    {
        try (KafkaFixture kafka = new KafkaFixture(dir))
        {
            assertThat(run(() -> TopicCommand.main("--bootstrap-server", kafka.bootstrap(), "--create", "--topic",
                "cli", "--partitions", "2"))).contains("Created topic cli.");
            assertThat(kafka.engine.streams().describeTopic("cli").config().partitions()).isEqualTo(2);
            assertThat(run(() -> TopicCommand.main("--bootstrap-server", kafka.bootstrap(), "--list")).lines())
                .contains("cli");
            assertThat(run(() -> TopicCommand.main("--bootstrap-server", kafka.bootstrap(), "--describe", "--topic",
                "cli"))).contains("PartitionCount: 2");

            kafka.engine.newProducer().send(ProducerRecord.toPartition("cli", 0, null, bytes("x"))).join();
            kafka.engine.streams().groups().commitStandalone("reporting", Map.of(new TopicPartition("cli", 0), 0L));
            assertThat(run(() -> ConsumerGroupCommand.main(new String[] {"--bootstrap-server", kafka.bootstrap(),
                "--list"})).lines()).contains("reporting");
            final String described = run(() -> ConsumerGroupCommand.main(new String[] {"--bootstrap-server",
                kafka.bootstrap(), "--describe", "--group", "reporting"}));
            assertThat(described).contains("cli").containsPattern("cli\\s+0\\s+0\\s+1\\s+1");
        }
    }

    /** Runs a tool's main with its exits and output captured; returns what it printed. */
    static String run(final Runnable tool)
    {
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        final PrintStream out = System.out;
        final PrintStream err = System.err;
        final int[] exitCode = {0};
        final boolean[] exited = {false};
        // A tool may exit from inside the handler that catches a first exit; the first one says how it ended.
        Exit.setExitProcedure((code, message) ->
        {
            if (!exited[0])
            {
                exited[0] = true;
                exitCode[0] = code;
            }
            throw new ToolExited();
        });
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        System.setErr(System.out);
        try
        {
            tool.run();
        }
        catch (final ToolExited done)
        {
            // the tool is done
        }
        finally
        {
            System.setOut(out);
            System.setErr(err);
            Exit.resetExitProcedure();
        }
        final String printed = captured.toString(StandardCharsets.UTF_8);
        assertThat(exitCode[0]).as("exit code of a tool that printed:%n%s", printed).isZero();
        return printed;
    }

    private static final class ToolExited extends RuntimeException
    {
        private static final long serialVersionUID = 1L;
    }
}
