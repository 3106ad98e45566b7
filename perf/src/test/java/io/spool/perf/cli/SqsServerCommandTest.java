package io.spool.perf.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.SqsException;

import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code spool server --sqs-port}: the SQS API beside the native protocol, over the same data directory. */
class SqsServerCommandTest
{
    private static final Pattern SQS = Pattern.compile("SQS on (http://127\\.0\\.0\\.1:\\d+)");

    @TempDir
    Path dataDirectory;

    @Test
    void theServerServesSqsWithItsTokenAsTheAccessKeyId() throws InterruptedException
    {
        final AwaitableWriter out = new AwaitableWriter();
        final Thread server = new Thread(() -> SpoolCommand.newCommandLine().setOut(new PrintWriter(out, true))
            .setErr(new PrintWriter(out, true)).execute("server", "--port", "0", "--sqs-port", "0", "--token",
                "t0ken", "--data-dir", dataDirectory.toString()), "spool server");
        server.start();
        try
        {
            final Matcher url = SQS.matcher(out.awaitContaining("SQS on", Duration.ofSeconds(30)));
            assertThat(url.find()).as(out.toString()).isTrue();
            try (SqsClient sqs = client(url.group(1), "t0ken"); SqsClient stranger = client(url.group(1), "guess"))
            {
                final String queue = sqs.createQueue(b -> b.queueName("jobs")).queueUrl();
                sqs.sendMessage(b -> b.queueUrl(queue).messageBody("hello"));
                assertThat(sqs.receiveMessage(b -> b.queueUrl(queue)).messages()).singleElement()
                    .satisfies(m -> assertThat(m.body()).isEqualTo("hello"));
                assertThatThrownBy(stranger::listQueues).isInstanceOf(SqsException.class);
            }
        }
        finally
        {
            server.interrupt();
            server.join(30_000);
        }
        assertThat(server.isAlive()).isFalse();
        assertThat(out.toString()).contains("spool server: closed");
    }

    private static SqsClient client(final String url, final String accessKey)
    {
        return SqsClient.builder().endpointOverride(URI.create(url)).region(Region.US_EAST_1)
            .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, "secret")))
            .httpClient(UrlConnectionHttpClient.create()).build();
    }
}
