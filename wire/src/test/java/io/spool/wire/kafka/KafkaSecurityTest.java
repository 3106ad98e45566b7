package io.spool.wire.kafka;

import io.spool.api.stream.TopicConfig;
import io.spool.testing.SlowTest;
import io.spool.wire.TestCertificate;
import io.spool.wire.server.ServerConfig;
import io.spool.wire.server.SpoolServer;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.ExecutionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A server started with a token, TLS and a Kafka port serves Kafka clients over TLS that present the token as
 * SASL/PLAIN's password, and refuses the others.
 */
@SlowTest
class KafkaSecurityTest
{
    @TempDir
    Path dir;

    @TempDir
    Path keys;

    @Test
    void theNativeListenersTokenAndTlsGuardTheKafkaListener() throws Exception
    {
        final TestCertificate certificate = TestCertificate.generate(keys, "spool-kafka", "ip:127.0.0.1");
        try (SpoolServer server = SpoolServer.open(dir.resolve("data"), ServerConfig.builder().port(0)
            .token("s3cret").tls(certificate.certificate(), certificate.privateKey()).kafka(null, 0).build()))
        {
            server.engine().createTopic("secured", TopicConfig.of(1));
            final String bootstrap = server.kafkaListener().bootstrapServers();
            try (Admin admin = Admin.create(client(bootstrap, certificate, "SASL_SSL", "s3cret")))
            {
                assertThat(admin.listTopics().names().get()).contains("secured");
            }
            try (Admin admin = Admin.create(client(bootstrap, certificate, "SASL_SSL", "wrong")))
            {
                assertThatThrownBy(() -> admin.listTopics().names().get()).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(SaslAuthenticationException.class);
            }
            final Properties withoutSasl = client(bootstrap, certificate, "SSL", null);
            withoutSasl.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 2_000);
            withoutSasl.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 1_000);
            try (Admin admin = Admin.create(withoutSasl))
            {
                assertThatThrownBy(() -> admin.listTopics().names().get()).isInstanceOf(ExecutionException.class);
            }
            assertThat(server.engine().streams().listTopics()).containsExactly("secured");
        }
    }

    private static Properties client(final String bootstrap, final TestCertificate certificate, final String protocol,
        final String password)
    {
        final Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, protocol);
        props.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PEM");
        props.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, certificate.certificate().toString());
        if (password != null)
        {
            props.put(SaslConfigs.SASL_MECHANISM, "PLAIN");
            props.put(SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.plain.PlainLoginModule " +
                "required username=\"anyone\" password=\"" + password + "\";");
        }
        return props;
    }
}
