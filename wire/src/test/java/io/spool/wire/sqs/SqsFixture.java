package io.spool.wire.sqs;

import io.spool.Spool;
import org.agrona.concurrent.CachedEpochClock;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

import java.net.URI;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * An engine with a hand-driven clock, an SQS endpoint over it on a free loopback port, and an AWS SDK client of it
 * with fake credentials.
 */
final class SqsFixture implements AutoCloseable
{
    final Path dir;
    final CachedEpochClock clock = new CachedEpochClock();
    final String token;
    Spool spool;
    SqsEndpoint endpoint;
    SqsClient sqs;

    SqsFixture(final Path dir)
    {
        this(dir, null);
    }

    SqsFixture(final Path dir, final String token)
    {
        this.dir = dir;
        this.token = token;
        clock.update(1_700_000_000_000L);
        open();
    }

    void open()
    {
        spool = Spool.builder(dir.resolve("data")).clock(clock).backgroundMaintenance(false).open();
        endpoint = SqsEndpoint.start(spool, SqsConfig.builder(dir.resolve("data").resolve("sqs")).port(0)
            .token(token).build());
        sqs = client(endpoint.url(), token == null ? "any-key" : token);
    }

    /** Closes everything and opens it again on the same files: a restart. */
    void reopen()
    {
        close();
        open();
    }

    static SqsClient client(final String url, final String accessKey)
    {
        return SqsClient.builder().endpointOverride(URI.create(url)).region(Region.US_EAST_1)
            .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, "secret")))
            .httpClient(UrlConnectionHttpClient.create()).build();
    }

    /** Creates a queue with attributes given as name, value pairs; returns its URL. */
    String queue(final String name, final String... attributes)
    {
        final Map<QueueAttributeName, String> map = new HashMap<>();
        for (int i = 0; i < attributes.length; i += 2)
        {
            map.put(QueueAttributeName.fromValue(attributes[i]), attributes[i + 1]);
        }
        return sqs.createQueue(b -> b.queueName(name).attributes(map)).queueUrl();
    }

    String arn(final String name)
    {
        return "arn:aws:sqs:us-east-1:000000000000:" + name;
    }

    /** Moves the engine's clock and waits until the queue's subscription has acted on it. */
    void advance(final String queue, final long millis)
    {
        clock.advance(millis);
        spool.subscription(queue).sync();
    }

    @Override
    public void close()
    {
        sqs.close();
        endpoint.close();
        spool.close();
    }
}
