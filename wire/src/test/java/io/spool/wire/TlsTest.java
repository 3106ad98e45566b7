package io.spool.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.spool.api.queue.ConsumerOptions;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.TopicPartition;
import io.spool.testing.SlowTest;
import io.spool.wire.client.ProducerConfig;
import io.spool.wire.client.RemoteDelivery;
import io.spool.wire.client.RemoteProducer;
import io.spool.wire.client.RemoteStreamConsumer;
import io.spool.wire.client.SpoolClient;
import io.spool.wire.server.ServerConfig;
import io.spool.wire.server.SpoolServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.spool.wire.RoundTripTest.bytes;
import static io.spool.wire.RoundTripTest.ignoringListener;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The server over TLS, with self-signed certificates made for the test: a client that trusts the server's
 * certificate does everything a plain one does, fetches included (their record bytes are encrypted on their way
 * out of the mapped segment); a client that speaks plain TCP, trusts another certificate, or meets a certificate
 * that does not name its host is refused, and the server goes on.
 */
@SlowTest
class TlsTest
{
    @TempDir
    static Path keys;
    private static TestCertificate server;
    private static TestCertificate other;

    @TempDir
    Path dir;
    private WireFixture fixture;

    @BeforeAll
    static void makeCertificates() throws Exception
    {
        server = TestCertificate.generate(keys, "spool-test", "ip:127.0.0.1,dns:localhost");
        other = TestCertificate.generate(keys, "elsewhere", "dns:elsewhere.example");
    }

    @AfterEach
    void stop()
    {
        if (fixture != null)
        {
            fixture.close();
        }
    }

    @Test
    void aClientThatTrustsTheServersCertificatePublishesFetchesAndConsumesOverTls()
    {
        fixture = new WireFixture(dir, ServerConfig.builder().tls(server.certificate(), server.privateKey())
            .token("s3cret"));
        final SpoolClient client = fixture.connect(fixture.clientConfig().tls(server.certificate()).token("s3cret"));
        client.admin().createTopic("secret", WireFixture.topic(1));
        final RemoteProducer producer = client.newProducer(ProducerConfig.defaults(), ignoringListener());
        for (int i = 0; i < 500; i++)
        {
            producer.send("secret", null, null, bytes("record-" + i + "-" + "x".repeat(i)), i);
        }
        assertThat(producer.awaitConfirms()).isTrue();

        final RemoteStreamConsumer consumer = client.newStreamReader();
        consumer.assign(List.of(new TopicPartition("secret", 0)));
        final List<String> values = new ArrayList<>();
        assertThat(WireFixture.await(() ->
        {
            consumer.poll((topic, partition, record) -> values.add(new String(record.valueBytes(),
                StandardCharsets.UTF_8)), 100, 64 * 1024, Duration.ZERO);
            return values.size() == 500;
        }, Duration.ofSeconds(10))).isTrue();
        for (int i = 0; i < 500; i++)
        {
            assertThat(values.get(i)).isEqualTo("record-" + i + "-" + "x".repeat(i));
        }

        client.admin().createSubscription("work", "secret", SubscriptionSettings.DEFAULT);
        final List<RemoteDelivery> pushed = new CopyOnWriteArrayList<>();
        client.subscription("work").consume(ConsumerOptions.prefetch(10), (delivery, self) ->
        {
            pushed.add(delivery.copy());
            self.ack(delivery);
        });
        assertThat(WireFixture.await(() -> pushed.size() == 500, Duration.ofSeconds(10))).isTrue();
    }

    @Test
    void aPlainClientIsClosedWhileATlsClientGoesOn() throws Exception
    {
        fixture = new WireFixture(dir, ServerConfig.builder().tls(server.certificate(), server.privateKey()));
        final SpoolClient good = fixture.connect(fixture.clientConfig().tls(server.certificate()));

        assertThatThrownBy(() -> fixture.connect(fixture.clientConfig())).isInstanceOf(ConnectionLostException.class);
        try (RawConnection raw = new RawConnection(fixture.server().port()))
        {
            final ByteBuf hello = Unpooled.buffer();
            HelloDescriptor.encodeRequest(hello, 1, "", "plain");
            raw.send(hello);
            assertThat(raw.closedByServer()).isTrue();
        }
        assertThat(good.admin().listTopics()).isEmpty();
    }

    @Test
    void aClientThatTrustsAnotherCertificateFailsTheHandshake()
    {
        fixture = new WireFixture(dir, ServerConfig.builder().tls(server.certificate(), server.privateKey()));

        assertThatThrownBy(() -> fixture.connect(fixture.clientConfig().tls(other.certificate())))
            .isInstanceOf(ConnectionLostException.class).hasMessageContaining("SSLHandshakeException");
        assertThat(fixture.connect(fixture.clientConfig().tls(server.certificate())).admin().listTopics()).isEmpty();
    }

    @Test
    void aCertificateThatDoesNotNameTheHostIsRefusedEvenWhenTrusted()
    {
        fixture = new WireFixture(dir, ServerConfig.builder().tls(other.certificate(), other.privateKey()));

        assertThatThrownBy(() -> fixture.connect(fixture.clientConfig().tls(other.certificate())))
            .isInstanceOf(ConnectionLostException.class).hasMessageContaining("SSLHandshakeException");
    }

    @Test
    void tlsSettingsThatCannotWorkAreRefusedWithTheirFiles() throws Exception
    {
        assertThatThrownBy(() -> ServerConfig.builder().tls(server.certificate(), null).build())
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("both a certificate chain and");
        final Path garbage = Files.writeString(dir.resolve("garbage.pem"), "not a certificate");
        assertThatThrownBy(() -> SpoolServer.open(dir.resolve("data"), ServerConfig.builder().port(0)
            .tls(garbage, server.privateKey()).build()))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(garbage.toString());
        assertThatThrownBy(() -> SpoolClient.connect(io.spool.wire.client.ClientConfig.builder().tls(garbage).build()))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(garbage.toString());
    }
}
