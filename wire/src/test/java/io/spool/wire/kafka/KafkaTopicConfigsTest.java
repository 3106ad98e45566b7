package io.spool.wire.kafka;

import io.spool.api.log.LogConfig;
import io.spool.api.stream.TopicConfig;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.AlterConfigsOptions;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.tools.ConfigCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Kafka's IncrementalAlterConfigs changes a live topic's retention and refuses its other settings. */
class KafkaTopicConfigsTest
{
    private static final ConfigResource EVENTS = new ConfigResource(ConfigResource.Type.TOPIC, "events");

    @TempDir
    Path dir;

    private static AlterConfigOp op(final String name, final String value, final AlterConfigOp.OpType type)
    {
        return new AlterConfigOp(new ConfigEntry(name, value), type);
    }

    private static void alter(final Admin admin, final AlterConfigOp... ops) throws Exception
    {
        admin.incrementalAlterConfigs(Map.of(EVENTS, List.of(ops))).all().get();
    }

    private static Config describe(final Admin admin) throws Exception
    {
        return admin.describeConfigs(List.of(EVENTS)).all().get().get(EVENTS);
    }

    @Test
    void setChangesRetentionAndDeleteRestoresTheDefaultAcrossARestart() throws Exception
    {
        try (KafkaFixture kafka = new KafkaFixture(dir))
        {
            kafka.engine.createTopic("events", TopicConfig.of(2));
            try (Admin admin = kafka.admin())
            {
                alter(admin, op("retention.ms", "86400000", AlterConfigOp.OpType.SET),
                    op("retention.bytes", "1073741824", AlterConfigOp.OpType.SET));
                assertThat(describe(admin).get("retention.ms").value()).isEqualTo("86400000");
                assertThat(describe(admin).get("retention.bytes").value()).isEqualTo("1073741824");
            }
            kafka.restart();
            final LogConfig reopened = kafka.engine.streams().describeTopic("events").config().log();
            assertThat(reopened.retentionMillis()).isEqualTo(86_400_000L);
            assertThat(reopened.retentionBytes()).isEqualTo(1L << 30);
            try (Admin admin = kafka.admin())
            {
                alter(admin, op("retention.ms", null, AlterConfigOp.OpType.DELETE));
                assertThat(describe(admin).get("retention.ms").value())
                    .isEqualTo(Long.toString(LogConfig.DEFAULT.retentionMillis()));
                assertThat(describe(admin).get("retention.bytes").value()).as("untouched").isEqualTo("1073741824");
            }
        }
    }

    @Test
    void kafkaConfigsAltersAndDescribesATopicsRetention() throws Exception
    {
        try (KafkaFixture kafka = new KafkaFixture(dir))
        {
            kafka.engine.createTopic("events", TopicConfig.of(1));
            KafkaAdminTest.run(() -> ConfigCommand.main(new String[] {"--bootstrap-server", kafka.bootstrap(),
                "--alter", "--entity-type", "topics", "--entity-name", "events", "--add-config",
                "retention.ms=86400000"}));

            assertThat(kafka.engine.streams().describeTopic("events").config().log().retentionMillis())
                .isEqualTo(86_400_000L);
            assertThat(KafkaAdminTest.run(() -> ConfigCommand.main(new String[] {"--bootstrap-server",
                kafka.bootstrap(), "--describe", "--entity-type", "topics", "--entity-name", "events"})))
                .contains("retention.ms=86400000");
        }
    }

    @Test
    void validateOnlyChecksTheChangeWithoutMakingIt() throws Exception
    {
        try (KafkaFixture kafka = new KafkaFixture(dir); Admin admin = kafka.admin())
        {
            kafka.engine.createTopic("events", TopicConfig.of(1));
            admin.incrementalAlterConfigs(Map.of(EVENTS, List.of(op("retention.ms", "60000",
                AlterConfigOp.OpType.SET))), new AlterConfigsOptions().validateOnly(true)).all().get();
            assertThat(describe(admin).get("retention.ms").value()).isEqualTo("-1");

            assertThatThrownBy(() -> admin.incrementalAlterConfigs(Map.of(EVENTS, List.of(op("retention.ms", "0",
                AlterConfigOp.OpType.SET))), new AlterConfigsOptions().validateOnly(true)).all().get())
                .hasCauseInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("retentionMillis must be positive or -1");
        }
    }

    @Test
    void otherSettingsBadValuesAndListOperationsAreRefusedNamingTheKey() throws Exception
    {
        try (KafkaFixture kafka = new KafkaFixture(dir); Admin admin = kafka.admin())
        {
            kafka.engine.createTopic("events", TopicConfig.of(1));
            assertThatThrownBy(() -> alter(admin, op("retention.ms", "60000", AlterConfigOp.OpType.SET),
                op("segment.bytes", "1048576", AlterConfigOp.OpType.SET)))
                .hasCauseInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("segment.bytes cannot be changed on a live topic");
            assertThat(describe(admin).get("retention.ms").value()).as("nothing of a refused request").isEqualTo("-1");
            assertThatThrownBy(() -> alter(admin, op("min.insync.replicas", "2", AlterConfigOp.OpType.SET)))
                .hasCauseInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("min.insync.replicas is not a Spool topic setting");
            assertThatThrownBy(() -> alter(admin, op("retention.bytes", "lots", AlterConfigOp.OpType.SET)))
                .hasCauseInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("retention.bytes must be a number, was \"lots\"");
            assertThatThrownBy(() -> alter(admin, op("retention.ms", "5", AlterConfigOp.OpType.APPEND)))
                .hasCauseInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("retention.ms takes SET or DELETE");
            assertThatThrownBy(() -> admin.incrementalAlterConfigs(Map.of(
                new ConfigResource(ConfigResource.Type.TOPIC, "missing"),
                List.of(op("retention.ms", "60000", AlterConfigOp.OpType.SET)))).all().get())
                .hasCauseInstanceOf(UnknownTopicOrPartitionException.class);
        }
    }
}
