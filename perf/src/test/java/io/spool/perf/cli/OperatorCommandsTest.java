package io.spool.perf.cli;

import io.spool.perf.cli.CommandRunner.Background;
import io.spool.perf.cli.CommandRunner.Result;
import io.spool.testing.SlowTest;
import io.spool.wire.TestCertificate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.spool.perf.cli.CommandRunner.BOUND;
import static io.spool.perf.cli.CommandRunner.run;
import static io.spool.perf.cli.CommandRunner.runWithInput;
import static io.spool.perf.cli.CommandRunner.with;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code spool server}, {@code topics}, {@code produce}, {@code consume} and {@code tail}, run as a user runs them:
 * against a server started by {@code spool server} on an ephemeral port (plain and over TLS, with certificates
 * made by keytool), and on a data directory.
 */
@SlowTest
class OperatorCommandsTest
{
    @TempDir
    Path dataDirectory;

    @RegisterExtension
    final CommandRunner commands = new CommandRunner();

    @Test
    void topicsAreCreatedListedDescribedAndDeletedOnAServer() throws InterruptedException
    {
        topicsAreCreatedListedDescribedAndDeleted(startServer());
    }

    @Test
    void topicsAreCreatedListedDescribedAndDeletedOnADataDirectory()
    {
        topicsAreCreatedListedDescribedAndDeleted(List.of("--data-dir", dataDirectory.toString()));
    }

    @Test
    void producedRecordsAreConsumedFromAServer() throws InterruptedException
    {
        producedRecordsAreConsumed(startServer());
    }

    @Test
    void producedRecordsAreConsumedFromADataDirectory()
    {
        producedRecordsAreConsumed(List.of("--data-dir", dataDirectory.toString()));
    }

    @Test
    void tailPrintsRecordsProducedAfterItStartedOnAServer() throws InterruptedException
    {
        final List<String> server = startServer();
        assertThat(run(server, "topics", "create", "events", "--partitions", "2").exitCode()).isZero();
        assertThat(run(server, "produce", "events", "--key", "k", "before").exitCode()).isZero();

        final Background tail = commands.startInBackground(with(List.of("tail", "events", "--max", "2"),
            server.toArray(String[]::new)));
        tail.err.awaitContaining("following events", BOUND);
        assertThat(run(server, "produce", "events", "--key", "k", "after-1", "after-2").exitCode()).isZero();

        final String printed = tail.out.awaitContaining("after-2", BOUND);
        tail.thread.join(BOUND.toMillis());
        assertThat(tail.exitCode.get()).isZero();
        assertThat(printed.lines()).hasSize(2).allMatch(line -> line.startsWith("partition="))
            .anyMatch(line -> line.endsWith("offset=1 key=\"k\" value=\"after-1\""))
            .anyMatch(line -> line.endsWith("offset=2 key=\"k\" value=\"after-2\""));
    }

    @Test
    void tailFromTheBeginningOnADataDirectoryStopsAfterMax()
    {
        final List<String> dir = List.of("--data-dir", dataDirectory.toString());
        run(dir, "topics", "create", "events");
        run(dir, "produce", "events", "one", "two", "three");

        final Result tail = run(dir, "tail", "events", "--from-beginning", "--max", "2");

        assertThat(tail.exitCode()).isZero();
        assertThat(tail.out().lines()).containsExactly(
            "partition=0 offset=0 key=null value=\"one\"",
            "partition=0 offset=1 key=null value=\"two\"");
    }

    @Test
    void aDataDirectoryServedByAServerIsRefusedWithAClearError() throws InterruptedException
    {
        startServer();

        final Result refused = run(List.of("--data-dir", dataDirectory.toString()), "topics", "list");

        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(refused.err()).contains("spool topics list: data directory " + dataDirectory + " is ");
    }

    @Test
    void aSecondServerOnTheSamePortSaysWhichAddressItCouldNotTake() throws InterruptedException
    {
        final String address = startServer().get(1);

        final Result second = run(List.of(), "server", "--port", address.substring(address.indexOf(':') + 1),
            "--data-dir", dataDirectory.resolve("other").toString());

        assertThat(second.exitCode()).isEqualTo(1);
        assertThat(second.err()).startsWith("spool server: --port " + address.substring(address.indexOf(':') + 1) +
            ": cannot listen on " + address + " (");
        assertThat(dataDirectory.resolve("other")).as("checked before the directory is opened").doesNotExist();
    }

    @Test
    void aServerWithATokenRefusesAClientWithoutIt() throws InterruptedException
    {
        final List<String> server = startServer("--token", "s3cret");

        assertThat(run(server, "topics", "list").exitCode()).isEqualTo(1);
        final Result withToken = run(with(server, "--token", "s3cret"), "topics", "create", "t");
        assertThat(withToken.exitCode()).isZero();
        assertThat(withToken.out()).startsWith("created topic t with 1 partition(s) on server 127.0.0.1:");
    }

    @Test
    void aServerWithTlsServesClientsThatTrustItsCertificateAndRefusesOthers(@TempDir final Path keys)
        throws Exception
    {
        final TestCertificate certificate = TestCertificate.generate(keys, "spool-cli", "ip:127.0.0.1");
        final TestCertificate other = TestCertificate.generate(keys, "elsewhere", "ip:127.0.0.1");
        final List<String> server = startServer("--tls-cert", certificate.certificate().toString(),
            "--tls-key", certificate.privateKey().toString(), "--token", "s3cret");
        final List<String> trusting = with(server, "--tls-trust", certificate.certificate().toString(),
            "--token", "s3cret");

        assertThat(run(trusting, "topics", "create", "orders").exitCode()).isZero();
        assertThat(run(trusting, "produce", "orders", "--key", "k", "over", "tls").exitCode()).isZero();
        assertThat(run(trusting, "consume", "orders").out().lines()).containsExactly(
            "partition=0 offset=0 key=\"k\" value=\"over\"",
            "partition=0 offset=1 key=\"k\" value=\"tls\"");

        final Result plain = run(with(server, "--token", "s3cret"), "topics", "list");
        assertThat(plain.exitCode()).isEqualTo(1);
        assertThat(plain.err()).startsWith("spool topics list: server " + server.get(1) + ": ")
            .contains("if the server serves TLS, connect with --tls-trust FILE.pem");
        final Result untrusted = run(with(server, "--tls-trust", other.certificate().toString(), "--token", "s3cret"),
            "topics", "list");
        assertThat(untrusted.exitCode()).isEqualTo(1);
        assertThat(untrusted.err()).startsWith("spool topics list: ").contains("SSLHandshakeException");
        assertThat(run(trusting, "topics", "list").out().lines()).containsExactly("orders");
    }

    @Test
    void tlsOptionsThatCannotWorkAreRefusedNamingTheOptionOrFile(@TempDir final Path keys) throws Exception
    {
        final TestCertificate certificate = TestCertificate.generate(keys, "spool-cli", "ip:127.0.0.1");
        final String[] server = {"server", "--port", "0", "--data-dir", dataDirectory.toString()};

        final Result certOnly = run(List.of("--tls-cert", certificate.certificate().toString()), server);
        assertThat(certOnly.exitCode()).isEqualTo(2);
        assertThat(certOnly.err()).startsWith("spool server: --tls-cert needs --tls-key: ");
        assertThat(run(List.of("--tls-key", certificate.privateKey().toString()), server).err())
            .startsWith("spool server: --tls-key needs --tls-cert: ");

        final Path missing = keys.resolve("missing.pem");
        final Result unreadable = run(List.of("--tls-cert", certificate.certificate().toString(),
            "--tls-key", missing.toString()), server);
        assertThat(unreadable.exitCode()).isEqualTo(2);
        assertThat(unreadable.err()).startsWith("spool server: --tls-key " + missing + ": cannot read the file");

        final Path garbage = Files.writeString(keys.resolve("garbage.pem"), "not a certificate");
        final Result invalid = run(List.of("--tls-cert", garbage.toString(),
            "--tls-key", certificate.privateKey().toString()), server);
        assertThat(invalid.exitCode()).isEqualTo(1);
        assertThat(invalid.err()).startsWith("spool server: cannot serve ").contains("TLS", garbage.toString());

        final Result missingTrust = run(List.of("--server", "127.0.0.1:1", "--tls-trust", missing.toString()),
            "topics", "list");
        assertThat(missingTrust.exitCode()).isEqualTo(2);
        assertThat(missingTrust.err()).startsWith("spool topics list: --tls-trust " + missing + ": cannot read the file");
        final Result invalidTrust = run(List.of("--server", "127.0.0.1:1", "--tls-trust", garbage.toString()),
            "topics", "list");
        assertThat(invalidTrust.exitCode()).isEqualTo(1);
        assertThat(invalidTrust.err()).startsWith("spool topics list: cannot trust the certificates in " + garbage);
        assertThat(run(List.of("--data-dir", dataDirectory.toString(), "--tls-trust",
            certificate.certificate().toString()), "topics", "list").err())
            .contains("--data-dir opens the directory itself");
    }

    @Test
    void serverAndDataDirectoryTogetherAreAUsageError()
    {
        final Result both = run(List.of("--server", "127.0.0.1:1", "--data-dir", dataDirectory.toString()),
            "topics", "list");

        assertThat(both.exitCode()).isEqualTo(2);
        assertThat(both.err()).contains("--data-dir opens the directory itself");
    }

    @Test
    void everyOperatorCommandHasHelp()
    {
        for (final String command : List.of("server", "topics", "topics list", "topics create", "topics describe",
            "topics delete", "produce", "consume", "tail"))
        {
            final Result help = run(List.of(), with(List.of(command.split(" ")), "--help").toArray(String[]::new));

            assertThat(help.exitCode()).as(command).isZero();
            assertThat(help.out()).as(command).startsWith("Usage: spool " + command + " ");
        }
    }

    private void topicsAreCreatedListedDescribedAndDeleted(final List<String> where)
    {
        final Result created = run(where, "topics", "create", "orders", "--partitions", "3");
        assertThat(created.exitCode()).isZero();
        assertThat(created.out()).startsWith("created topic orders with 3 partition(s) on ");
        run(where, "topics", "create", "audit");
        assertThat(run(where, "topics", "create", "audit").err()).contains("spool topics create:", "audit");

        assertThat(run(where, "topics", "list").out().lines()).containsExactly("audit", "orders");

        run(where, "produce", "orders", "--key", "customer-7", "a", "b");
        final Result described = run(where, "topics", "describe", "orders");
        assertThat(described.exitCode()).isZero();
        assertThat(described.out().lines()).hasSize(6).first().asString()
            .startsWith("topic orders: 3 partition(s), 2 records, ");
        assertThat(described.out().lines().skip(1).findFirst()).hasValueSatisfying(settings ->
            assertThat(settings).startsWith("  segment-bytes=64MiB "));
        assertThat(described.out().lines().skip(3).map(line -> line.trim().split(" +")[3]))
            .containsExactlyInAnyOrder("2", "0", "0");

        final Result deleted = run(where, "topics", "delete", "orders");
        assertThat(deleted.out()).startsWith("deleted topic orders on ");
        assertThat(run(where, "topics", "list").out().lines()).containsExactly("audit");
        assertThat(run(where, "topics", "describe", "orders").err()).contains("orders");
    }

    private void producedRecordsAreConsumed(final List<String> where)
    {
        run(where, "topics", "create", "orders", "--partitions", "2");
        final Result fromArguments = run(where, "produce", "orders", "--key", "customer-7", "order #1", "order #2");
        assertThat(fromArguments.exitCode()).isZero();
        assertThat(fromArguments.out().lines()).hasSize(2);
        final String keyPartition = fromArguments.out().lines().findFirst().orElseThrow().split("[= ]")[2];
        assertThat(fromArguments.out().lines())
            .containsExactly("orders partition=" + keyPartition + " offset=0",
                "orders partition=" + keyPartition + " offset=1");

        final Result fromStdin = runWithInput("line one\nline \"two\"\n",
            with(List.of("produce", "orders", "--key", "customer-7"), where.toArray(String[]::new)));
        assertThat(fromStdin.out().lines()).containsExactly("orders partition=" + keyPartition + " offset=2",
            "orders partition=" + keyPartition + " offset=3");

        final Result consumed = run(where, "consume", "orders");
        assertThat(consumed.exitCode()).isZero();
        assertThat(consumed.out().lines()).containsExactly(
            "partition=" + keyPartition + " offset=0 key=\"customer-7\" value=\"order #1\"",
            "partition=" + keyPartition + " offset=1 key=\"customer-7\" value=\"order #2\"",
            "partition=" + keyPartition + " offset=2 key=\"customer-7\" value=\"line one\"",
            "partition=" + keyPartition + " offset=3 key=\"customer-7\" value=\"line \\\"two\\\"\"");

        assertThat(run(where, "consume", "orders", "--partition", keyPartition, "--offset", "2", "--max", "1")
            .out().lines()).containsExactly(
                "partition=" + keyPartition + " offset=2 key=\"customer-7\" value=\"line one\"");
        assertThat(run(where, "consume", "missing").err()).contains("spool consume:", "missing");
    }

    private List<String> startServer(final String... options) throws InterruptedException
    {
        return commands.startServer(dataDirectory, options);
    }
}
