package io.spool.perf.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spool.Spool;
import io.spool.api.stream.KeyPartitioner;
import io.spool.perf.cli.CommandRunner.Result;
import io.spool.queue.Delivery;
import io.spool.queue.Subscription;
import io.spool.testing.SlowTest;
import io.spool.wire.client.ClientConfig;
import io.spool.wire.client.RemoteDelivery;
import io.spool.wire.client.RemoteSubscription;
import io.spool.wire.client.SpoolClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static io.spool.perf.cli.CommandRunner.assertOneLineFailure;
import static io.spool.perf.cli.CommandRunner.run;
import static io.spool.perf.cli.CommandRunner.with;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code spool topics}, {@code subscriptions}, {@code groups} and {@code exchanges}, each run against a server and
 * against a data directory, with their text and JSON output and one line and a non-zero exit for each kind of bad
 * input.
 */
@SlowTest
class AdminCommandsTest
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dataDirectory;

    @RegisterExtension
    final CommandRunner commands = new CommandRunner();

    private List<String> server() throws InterruptedException
    {
        return commands.startServer(dataDirectory);
    }

    private List<String> directory()
    {
        return List.of("--data-dir", dataDirectory.toString());
    }

    @Test
    void topicsKeepEverySettingOnAServer() throws Exception
    {
        topicsKeepEverySetting(server());
    }

    @Test
    void topicsKeepEverySettingOnADataDirectory() throws Exception
    {
        topicsKeepEverySetting(directory());
    }

    @Test
    void subscriptionsAreCreatedWithEverySettingDescribedPurgedAndDeletedOnAServer() throws Exception
    {
        subscriptionsLifeCycle(server());
    }

    @Test
    void subscriptionsAreCreatedWithEverySettingDescribedPurgedAndDeletedOnADataDirectory() throws Exception
    {
        subscriptionsLifeCycle(directory());
    }

    @Test
    void deadLettersAreRedrivenOnAServer() throws Exception
    {
        final List<String> server = server();
        deadLettersAreRedriven(server, () ->
        {
            try (SpoolClient client = SpoolClient.connect(clientOf(server)))
            {
                final RemoteSubscription work = client.subscription("work");
                for (final RemoteDelivery delivery : work.receive(10, 0))
                {
                    work.reject(delivery.receipt());
                }
            }
            return true;
        });
    }

    @Test
    void deadLettersAreRedrivenOnADataDirectory() throws Exception
    {
        deadLettersAreRedriven(directory(), () ->
        {
            try (Spool spool = Spool.builder(dataDirectory).backgroundMaintenance(false).open())
            {
                final Subscription work = spool.subscription("work");
                for (final Delivery delivery : work.receive(10, 0))
                {
                    work.reject(delivery.receipt());
                }
                return awaitCondition(() ->
                    spool.streams().describeTopic("orders.dlq").partitions().get(0).endOffset() == 2);
            }
        });
    }

    @Test
    void groupsAreResetDescribedListedAndDeletedOnAServer() throws Exception
    {
        groupsLifeCycle(server());
    }

    @Test
    void groupsAreResetDescribedListedAndDeletedOnADataDirectory() throws Exception
    {
        groupsLifeCycle(directory());
    }

    @Test
    void aGroupWithALiveMemberIsDescribedWithItAndItsOffsetsAreNotReset() throws Exception
    {
        final List<String> server = server();
        run(server, "topics", "create", "orders", "--partitions", "2");
        try (SpoolClient client = SpoolClient.connect(clientOf(server)))
        {
            final String member = client.groups().join("billing", Set.of("orders"), "range", 60_000);

            final JsonNode described = JSON.readTree(run(server, "groups", "describe", "billing", "--json").out());
            assertThat(described.get("state").asText()).isEqualTo("stable");
            assertThat(described.get("members").get(0).get("member").asText()).isEqualTo(member);
            assertThat(described.get("members").get(0).get("partitions")).hasSize(2);
            assertThat(run(server, "groups", "describe", "billing").out())
                .startsWith("group billing: stable, generation ").contains("member " + member + ": topics orders");

            final Result refused = run(server, "groups", "reset-offsets", "billing", "--topic", "orders",
                "--to-earliest");
            assertOneLineFailure(refused, 1, "spool groups reset-offsets: group \"billing\" has live members [" +
                member + "]; stop them before resetting its offsets");
            assertThat(run(server, "groups", "delete", "billing").exitCode()).isEqualTo(1);

            client.groups().leave("billing", member);
            assertThat(run(server, "groups", "reset-offsets", "billing", "--topic", "orders", "--to-earliest")
                .exitCode()).isZero();
        }
    }

    @Test
    void exchangesAndBindingsAreDeclaredListedAndRemovedOnAServer() throws Exception
    {
        exchangesLifeCycle(server());
    }

    @Test
    void exchangesAndBindingsAreDeclaredListedAndRemovedOnADataDirectory() throws Exception
    {
        exchangesLifeCycle(directory());
    }

    @Test
    void everyAdminCommandSaysInOneLineThatTheServerIsNotThere()
    {
        final List<String> nowhere = List.of("--server", "127.0.0.1:1");
        for (final String command : List.of("topics list", "topics describe t", "subscriptions list",
            "subscriptions describe s", "subscriptions purge s", "subscriptions redrive s", "groups list",
            "groups describe g", "groups reset-offsets g --topic t --to-latest", "exchanges list",
            "exchanges declare x --type fanout", "exchanges bind x s"))
        {
            final String[] words = command.split(" ");
            final Result down = run(nowhere, words);

            assertOneLineFailure(down, 1, "spool " + words[0] + " " + words[1] +
                ": server 127.0.0.1:1: cannot connect to 127.0.0.1:1: connection refused");
        }
    }

    @Test
    void everyAdminCommandHasHelp()
    {
        for (final String command : List.of("topics create", "subscriptions", "subscriptions list",
            "subscriptions create", "subscriptions describe", "subscriptions purge", "subscriptions redrive",
            "subscriptions delete", "groups", "groups list", "groups describe", "groups reset-offsets",
            "groups delete", "exchanges", "exchanges list", "exchanges declare", "exchanges describe",
            "exchanges delete", "exchanges bind", "exchanges unbind"))
        {
            final Result help = run(List.of(), with(List.of(command.split(" ")), "--help").toArray(String[]::new));

            assertThat(help.exitCode()).as(command).isZero();
            assertThat(help.out()).as(command).startsWith("Usage: spool " + command + " ");
        }
        assertOneLineFailure(run(List.of(), "groups"), 2,
            "spool groups: a subcommand is needed: list, describe, reset-offsets or delete; see spool groups --help");
    }

    private void topicsKeepEverySetting(final List<String> where) throws Exception
    {
        final Result created = run(where, "topics", "create", "orders", "--partitions", "3", "--segment-bytes", "2MiB",
            "--index-interval-bytes", "512", "--max-record-bytes", "8KiB", "--segment-roll", "1h", "--retention",
            "7d", "--retention-bytes", "1GiB", "--durability", "interval:250", "--dedup-window", "90s",
            "--dedup-by-content");
        assertThat(created.exitCode()).as(created.err()).isZero();

        final Result described = run(where, "topics", "describe", "orders");
        assertThat(described.out().lines().skip(1).findFirst()).contains("  segment-bytes=2MiB " +
            "index-interval-bytes=512 max-record-bytes=8KiB segment-roll=1h retention=7d retention-bytes=1GiB " +
            "durability=interval:250 dedup-window=90s dedup-by-content=true");
        final JsonNode topic = JSON.readTree(run(where, "topics", "describe", "orders", "--json").out());
        assertThat(topic.get("partitions").asInt()).isEqualTo(3);
        final JsonNode settings = topic.get("settings");
        assertThat(settings.get("segmentBytes").asLong()).isEqualTo(2L << 20);
        assertThat(settings.get("indexIntervalBytes").asLong()).isEqualTo(512);
        assertThat(settings.get("maxRecordBytes").asLong()).isEqualTo(8192);
        assertThat(settings.get("segmentRollMillis").asLong()).isEqualTo(3_600_000);
        assertThat(settings.get("retentionMillis").asLong()).isEqualTo(604_800_000);
        assertThat(settings.get("retentionBytes").asLong()).isEqualTo(1L << 30);
        assertThat(settings.get("durability").asText()).isEqualTo("interval:250");
        assertThat(settings.get("dedupWindowMillis").asLong()).isEqualTo(90_000);
        assertThat(settings.get("dedupByContent").asBoolean()).isTrue();
        assertThat(topic.get("partitionDetails")).hasSize(3);

        run(where, "topics", "create", "audit");
        final JsonNode listed = JSON.readTree(run(where, "topics", "list", "--json").out());
        assertThat(listed).hasSize(2);
        assertThat(listed.get(0).get("name").asText()).isEqualTo("audit");
        assertThat(listed.get(0).get("settings").get("retentionMillis").isNull()).as("no limit").isTrue();
        assertThat(listed.get(1)).isEqualTo(topic);

        assertOneLineFailure(run(where, "topics", "create", "big", "--segment-bytes", "3GiB"), 2,
            "spool topics create: --segment-bytes must be below 2GiB, was 3GiB; see spool topics create --help");
        assertOneLineFailure(run(where, "topics", "create", "soon", "--retention", "0s"), 2,
            "spool topics create: retentionMillis must be positive or -1 (forever), got 0; see spool topics " +
                "create --help");
        assertOneLineFailure(run(where, "topics", "create", "odd", "--retention", "a week"), 2,
            "spool topics create: Invalid value for option '--retention': 'a week' is not a duration: give a " +
                "whole number and a unit, as 500ms, 30s, 15m, 12h or 7d; see spool topics create --help");
        assertOneLineFailure(run(where, "topics", "create", "none", "--partitions", "0"), 2,
            "spool topics create: partition count must be between 1 and 10000, was 0; see spool topics create " +
                "--help");
        assertThat(run(where, "topics", "list").out().lines()).containsExactly("audit", "orders");
        assertThat(run(where, "topics", "describe", "missing").exitCode()).isEqualTo(1);
    }

    private void subscriptionsLifeCycle(final List<String> where) throws Exception
    {
        run(where, "topics", "create", "orders", "--partitions", "2");
        run(where, "topics", "create", "orders.dlq");
        final Result created = run(where, "subscriptions", "create", "billing", "--topic", "orders",
            "--lock-timeout", "45s", "--delivery-limit", "5", "--dead-letter-topic", "orders.dlq", "--retention-mode",
            "none", "--start", "timestamp:2026-01-31T12:00:00Z", "--groups", "key-sticky", "--group-key",
            "record-key", "--ttl", "1d", "--single-active-consumer", "--max-length", "1000", "--max-bytes", "1MiB",
            "--overflow", "reject-publish", "--retry", "1s,10s,1m");
        assertThat(created.exitCode()).as(created.err()).isZero();
        assertThat(created.out()).startsWith("created subscription billing on topic orders on ");
        assertThat(run(where, "subscriptions", "create", "audit", "--topic", "orders").exitCode()).isZero();

        final Result described = run(where, "subscriptions", "describe", "billing");
        assertThat(described.out().lines()).containsExactly(
            "subscription billing on topic orders",
            "  lock-timeout=45s delivery-limit=5 dead-letter-topic=orders.dlq retention-mode=none " +
                "start=timestamp:1769860800000 groups=key-sticky group-key=record-key ttl=1d " +
                "single-active-consumer=true max-length=1000 max-bytes=1MiB overflow=reject-publish retry=1s,10s,1m",
            "  ready 0, in flight 0, delayed 0, dead 0, redeliveries 0, oldest ready 0.0 s, consumers 0, acks 0");
        final JsonNode billing = JSON.readTree(run(where, "subscriptions", "describe", "billing", "--json").out());
        final JsonNode settings = billing.get("settings");
        assertThat(billing.get("topic").asText()).isEqualTo("orders");
        assertThat(settings.get("lockTimeoutMillis").asLong()).isEqualTo(45_000);
        assertThat(settings.get("deliveryLimit").asInt()).isEqualTo(5);
        assertThat(settings.get("deadLetterTopic").asText()).isEqualTo("orders.dlq");
        assertThat(settings.get("retentionMode").asText()).isEqualTo("none");
        assertThat(settings.get("start").asText()).isEqualTo("timestamp:1769860800000");
        assertThat(settings.get("groups").asText()).isEqualTo("key-sticky");
        assertThat(settings.get("groupKey").asText()).isEqualTo("record-key");
        assertThat(settings.get("ttlMillis").asLong()).isEqualTo(86_400_000);
        assertThat(settings.get("singleActiveConsumer").asBoolean()).isTrue();
        assertThat(settings.get("maxLength").asLong()).isEqualTo(1000);
        assertThat(settings.get("maxBytes").asLong()).isEqualTo(1 << 20);
        assertThat(settings.get("overflow").asText()).isEqualTo("reject-publish");
        assertThat(settings.get("retryMillis").toString()).isEqualTo("[1000,10000,60000]");

        run(where, "produce", "orders", "a", "b", "c");
        final JsonNode listed = JSON.readTree(run(where, "subscriptions", "list", "--json").out());
        assertThat(listed).hasSize(2);
        assertThat(listed.get(0).get("name").asText()).isEqualTo("audit");
        assertThat(listed.get(0).get("settings").get("deliveryLimit").asInt()).isEqualTo(20);
        assertThat(listed.get(0).get("settings").get("deadLetterTopic").isNull()).isTrue();
        assertThat(listed.get(0).get("metrics").get("ready").asLong()).isEqualTo(3);
        assertThat(run(where, "subscriptions", "list").out().lines()).containsExactly("audit", "billing");

        final Result purged = run(where, "subscriptions", "purge", "audit");
        assertThat(purged.out()).startsWith("purged subscription audit on ")
            .endsWith(": dropped 3 ready, 0 in flight and 0 delayed message(s)\n");
        assertThat(JSON.readTree(run(where, "subscriptions", "describe", "audit", "--json").out()).get("metrics")
            .get("ready").asLong()).isZero();
        assertThat(run(where, "subscriptions", "delete", "audit").out()).startsWith("deleted subscription audit on ");
        assertThat(run(where, "subscriptions", "list").out().lines()).containsExactly("billing");

        for (final String command : List.of("describe", "purge", "redrive", "delete"))
        {
            assertOneLineFailure(run(where, "subscriptions", command, "nope"), 1,
                "spool subscriptions " + command + ": subscription 'nope' does not exist");
        }
        assertOneLineFailure(run(where, "subscriptions", "create", "lost", "--topic", "missing"), 1,
            "spool subscriptions create: ");
        assertOneLineFailure(run(where, "subscriptions", "create", "x", "--topic", "orders", "--lock-timeout", "13h"),
            2, "spool subscriptions create: lock timeout must be between 1 ms and 43200000 ms (12 h), was " +
                "46800000 ms; see spool subscriptions create --help");
        assertOneLineFailure(run(where, "subscriptions", "create", "x", "--topic", "orders", "--overflow", "spill"),
            2, "spool subscriptions create: --overflow: 'spill' is not one of drop-head, reject-publish, " +
                "reject-publish-dlx; see spool subscriptions create --help");
        assertOneLineFailure(run(where, "subscriptions", "create", "x", "--topic", "orders", "--start", "offset:-1"),
            2, "spool subscriptions create: start offset must be >= 0, was -1; see spool subscriptions create --help");
        assertOneLineFailure(run(where, "subscriptions", "create", "x", "--topic", "orders", "--delivery-limit",
            "many"), 2, "spool subscriptions create: --delivery-limit: 'many' is not a whole number; see spool " +
            "subscriptions create --help");
        assertOneLineFailure(run(where, "subscriptions", "create", "x", "--topic", "orders", "--start",
            "timestamp:yesterday"), 2, "spool subscriptions create: --start: 'yesterday' is neither epoch " +
            "milliseconds nor an ISO-8601 instant such as 2026-01-31T12:00:00Z; see spool subscriptions create --help");
        assertOneLineFailure(run(where, "subscriptions", "create", "x"), 2,
            "spool subscriptions create: Missing required option: '--topic=TOPIC'; see spool subscriptions create " +
                "--help");
        assertThat(run(where, "subscriptions", "list").out().lines()).containsExactly("billing");

        assertOneLineFailure(run(where, "topics", "delete", "orders"), 1, "spool topics delete: topic \"orders\" is " +
            "read by subscription 'billing'; delete it first, or delete the topic with force to delete it with it");
        assertThat(run(where, "topics", "delete", "orders", "--force").out())
            .startsWith("deleted topic orders and its subscriptions [billing] on ");
        assertThat(run(where, "subscriptions", "list").out()).isEmpty();
        assertThat(run(where, "topics", "list").out().lines()).doesNotContain("orders");
    }

    private void deadLettersAreRedriven(final List<String> where, final ThrowingCondition rejectAll) throws Exception
    {
        run(where, "topics", "create", "orders");
        run(where, "topics", "create", "orders.dlq");
        run(where, "subscriptions", "create", "work", "--topic", "orders", "--dead-letter-topic", "orders.dlq");
        run(where, "subscriptions", "create", "plain", "--topic", "orders");
        run(where, "produce", "orders", "a", "b");
        assertThat(rejectAll.holds()).isTrue();
        assertThat(awaitCondition(() -> JSON.readTree(run(where, "topics", "describe", "orders.dlq", "--json")
            .out()).get("records").asLong() == 2)).as("both dead letters stored").isTrue();

        final Result redriven = run(where, "subscriptions", "redrive", "work");

        assertThat(redriven.out()).startsWith("redrove 2 message(s) to subscription work on ")
            .endsWith(", skipped 0 other record(s); next partition@offset 0@2\n");
        assertThat(JSON.readTree(run(where, "subscriptions", "describe", "work", "--json").out()).get("metrics")
            .get("ready").asLong()).isEqualTo(2);
        final JsonNode again = JSON.readTree(run(where, "subscriptions", "redrive", "work", "--from", "2", "--json")
            .out());
        assertThat(again.get("moved").asLong()).isZero();
        assertThat(again.get("nextOffsets").toString()).isEqualTo("[2]");
        assertOneLineFailure(run(where, "subscriptions", "redrive", "plain"), 1,
            "spool subscriptions redrive: subscription plain has no dead-letter topic, so nothing of it can be " +
                "redriven");
        assertOneLineFailure(run(where, "subscriptions", "redrive", "work", "--from", "3", "--to", "1"), 1,
            "spool subscriptions redrive: a redrive range needs 0 <= from < to, was [3, 1)");
    }

    private void groupsLifeCycle(final List<String> where) throws Exception
    {
        run(where, "topics", "create", "orders", "--partitions", "2");
        runToPartition(where, 0, "a", "b", "c");
        runToPartition(where, 1, "d");
        assertThat(run(where, "groups", "list").out()).isEmpty();
        assertOneLineFailure(run(where, "groups", "describe", "billing"), 1,
            "spool groups describe: no consumer group \"billing\": it has no members and no committed offsets");

        final Result latest = run(where, "groups", "reset-offsets", "billing", "--topic", "orders", "--to-latest");
        assertThat(latest.out().lines()).containsExactly("reset offsets of group billing on " +
                where.get(1).replace("127.0.0.1:", "server 127.0.0.1:").replace(dataDirectory.toString(),
                    "data directory " + dataDirectory) + ":",
            "  orders partition=0 offset=3", "  orders partition=1 offset=1");
        assertThat(run(where, "groups", "list").out().lines()).containsExactly("billing");
        run(where, "groups", "reset-offsets", "billing", "--topic", "orders", "--partition", "0", "--to-offset", "1");

        final Result described = run(where, "groups", "describe", "billing");
        assertThat(described.out().lines()).hasSize(4);
        assertThat(described.out().lines().findFirst()).contains("group billing: empty (no live members), total " +
            "lag 2");
        assertThat(described.out().lines().skip(2).map(line -> line.trim().split(" +")))
            .extracting(columns -> String.join(" ", columns))
            .containsExactly("orders 0 1 0 3 2", "orders 1 1 0 1 0");
        final JsonNode group = JSON.readTree(run(where, "groups", "describe", "billing", "--json").out());
        assertThat(group.get("state").asText()).isEqualTo("empty");
        assertThat(group.get("totalLag").asLong()).isEqualTo(2);
        assertThat(group.get("partitions").get(0).get("committedOffset").asLong()).isEqualTo(1);
        assertThat(group.get("partitions").get(0).get("lag").asLong()).isEqualTo(2);
        assertThat(JSON.readTree(run(where, "groups", "list", "--json").out()).get(0)).isEqualTo(group);

        final Result dryRun = run(where, "groups", "reset-offsets", "billing", "--topic", "orders", "--to-earliest",
            "--dry-run");
        assertThat(dryRun.out()).startsWith("would reset (dry run) offsets of group billing on ");
        assertThat(JSON.readTree(run(where, "groups", "describe", "billing", "--json").out()).get("totalLag")
            .asLong()).as("a dry run commits nothing").isEqualTo(2);
        final JsonNode byTime = JSON.readTree(run(where, "groups", "reset-offsets", "billing", "--topic", "orders",
            "--to-timestamp", "1970-01-01T00:00:00Z", "--json").out());
        assertThat(byTime.toString()).isEqualTo("[{\"topic\":\"orders\",\"partition\":0,\"offset\":0}," +
            "{\"topic\":\"orders\",\"partition\":1,\"offset\":0}]");

        assertOneLineFailure(run(where, "groups", "reset-offsets", "billing", "--topic", "orders", "--to-offset",
            "-1"), 2, "spool groups reset-offsets: --to-offset must be >= 0, was -1; see spool groups " +
            "reset-offsets --help");
        assertOneLineFailure(run(where, "groups", "reset-offsets", "billing", "--topic", "orders", "--to-timestamp",
            "soon"), 2, "spool groups reset-offsets: --to-timestamp: 'soon' is neither epoch milliseconds nor an " +
            "ISO-8601 instant such as 2026-01-31T12:00:00Z; see spool groups reset-offsets --help");
        assertOneLineFailure(run(where, "groups", "reset-offsets", "billing", "--topic", "missing", "--to-latest"),
            1, "spool groups reset-offsets: ");
        assertOneLineFailure(run(where, "groups", "reset-offsets", "billing", "--topic", "orders", "--partition",
            "9", "--to-latest"), 1, "spool groups reset-offsets: topic \"orders\" has partitions 0..");
        assertOneLineFailure(run(where, "groups", "reset-offsets", "billing", "--topic", "orders"), 2,
            "spool groups reset-offsets: Error: Missing required argument (specify one of these): (--to-earliest " +
                "| --to-latest | --to-offset=OFFSET | --to-timestamp=TIME); see spool groups reset-offsets --help");

        assertThat(run(where, "groups", "delete", "billing").out()).startsWith("deleted group billing on ");
        assertThat(run(where, "groups", "list").out()).isEmpty();
        assertOneLineFailure(run(where, "groups", "delete", "billing"), 1,
            "spool groups delete: no consumer group \"billing\": it has no members and no committed offsets");
    }

    /** Produces {@code values} under a key that a topic of two partitions places in {@code partition}. */
    private static void runToPartition(final List<String> where, final int partition, final String... values)
    {
        int suffix = 0;
        while (KeyPartitioner.partitionForKey(("key-" + suffix).getBytes(StandardCharsets.UTF_8), 2) != partition)
        {
            suffix++;
        }
        final List<String> command = with(List.of("produce", "orders", "--key", "key-" + suffix), values);
        assertThat(run(where, command.toArray(String[]::new)).exitCode()).isZero();
    }

    private void exchangesLifeCycle(final List<String> where) throws Exception
    {
        run(where, "topics", "create", "orders");
        run(where, "subscriptions", "create", "billing", "--topic", "orders");
        run(where, "subscriptions", "create", "shipping", "--topic", "orders");
        assertThat(run(where, "exchanges", "declare", "fallback", "--type", "fanout").out())
            .startsWith("declared fanout exchange fallback on ");
        assertThat(run(where, "exchanges", "declare", "orders-x", "--type", "topic", "--alternate-exchange",
            "fallback").exitCode()).isZero();
        assertThat(run(where, "exchanges", "declare", "orders-x", "--type", "topic", "--alternate-exchange",
            "fallback").exitCode()).as("the same declaration again").isZero();
        run(where, "exchanges", "declare", "by-headers", "--type", "headers");

        assertThat(run(where, "exchanges", "bind", "orders-x", "billing", "--key", "orders.*.eu").out())
            .startsWith("bound billing key=orders.*.eu to exchange orders-x on ");
        assertThat(run(where, "exchanges", "bind", "fallback", "shipping").exitCode()).isZero();
        assertThat(run(where, "exchanges", "bind", "by-headers", "billing", "--header", "region=eu", "--header",
            "tier=gold", "--match", "any").exitCode()).isZero();

        assertThat(run(where, "exchanges", "list").out().lines()).containsExactly("by-headers", "fallback",
            "orders-x");
        assertThat(run(where, "exchanges", "describe", "orders-x").out().lines()).containsExactly(
            "exchange orders-x: topic, alternate exchange fallback, 1 binding(s)",
            "  -> billing key=orders.*.eu");
        assertThat(run(where, "exchanges", "describe", "by-headers").out().lines()).containsExactly(
            "exchange by-headers: headers, alternate exchange none, 1 binding(s)",
            "  -> billing match=any header=region=eu header=tier=gold");
        final JsonNode listed = JSON.readTree(run(where, "exchanges", "list", "--json").out());
        assertThat(listed.toString()).isEqualTo("[" +
            "{\"name\":\"by-headers\",\"type\":\"headers\",\"alternateExchange\":null,\"bindings\":[{\"subscription\":" +
            "\"billing\",\"key\":\"\",\"match\":\"any\",\"headers\":{\"region\":\"eu\",\"tier\":\"gold\"}}]}," +
            "{\"name\":\"fallback\",\"type\":\"fanout\",\"alternateExchange\":null,\"bindings\":[{\"subscription\":" +
            "\"shipping\",\"key\":\"\"}]}," +
            "{\"name\":\"orders-x\",\"type\":\"topic\",\"alternateExchange\":\"fallback\",\"bindings\":[{" +
            "\"subscription\":\"billing\",\"key\":\"orders.*.eu\"}]}]");

        assertThat(run(where, "exchanges", "unbind", "orders-x", "billing", "--key", "orders.*.eu").out())
            .startsWith("unbound billing key=orders.*.eu from exchange orders-x on ");
        assertOneLineFailure(run(where, "exchanges", "unbind", "orders-x", "billing", "--key", "orders.*.eu"), 1,
            "spool exchanges unbind: exchange orders-x has no binding billing key=orders.*.eu");
        assertOneLineFailure(run(where, "exchanges", "bind", "orders-x", "billing"), 2,
            "spool exchanges bind: a topic exchange binds by --key alone; see spool exchanges bind --help");
        assertOneLineFailure(run(where, "exchanges", "bind", "fallback", "billing", "--key", "x"), 2,
            "spool exchanges bind: a fanout exchange takes every message: bind it without --key or --header; see " +
                "spool exchanges bind --help");
        assertOneLineFailure(run(where, "exchanges", "bind", "by-headers", "billing"), 2,
            "spool exchanges bind: a headers exchange binds by --header NAME=VALUE (one or more), without --key; " +
                "see spool exchanges bind --help");
        assertOneLineFailure(run(where, "exchanges", "bind", "orders-x", "nope", "--key", "a"), 1,
            "spool exchanges bind: subscription 'nope' does not exist");
        assertOneLineFailure(run(where, "exchanges", "bind", "nope", "billing", "--key", "a"), 1,
            "spool exchanges bind: exchange 'nope' does not exist");
        assertOneLineFailure(run(where, "exchanges", "declare", "orders-x", "--type", "direct"), 1,
            "spool exchanges declare: ");
        assertOneLineFailure(run(where, "exchanges", "declare", "z", "--type", "shout"), 2,
            "spool exchanges declare: --type: 'shout' is not one of direct, topic, fanout, headers; see spool " +
                "exchanges declare --help");

        assertThat(run(where, "exchanges", "delete", "by-headers").out()).startsWith("deleted exchange by-headers on ");
        assertOneLineFailure(run(where, "exchanges", "delete", "by-headers"), 1,
            "spool exchanges delete: exchange 'by-headers' does not exist");
        assertThat(run(where, "exchanges", "list").out().lines()).containsExactly("fallback", "orders-x");
    }

    private static ClientConfig clientOf(final List<String> server)
    {
        final String address = server.get(1);
        return ClientConfig.builder().host("127.0.0.1").port(Integer.parseInt(address.substring(
            address.indexOf(':') + 1))).build();
    }

    /** Waits up to the bound for a condition that another thread makes true (a dead letter's store). */
    private static boolean awaitCondition(final ThrowingCondition condition) throws Exception
    {
        final long deadline = System.nanoTime() + CommandRunner.BOUND.toNanos();
        while (System.nanoTime() < deadline)
        {
            if (condition.holds())
            {
                return true;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
        return condition.holds();
    }

    @FunctionalInterface
    private interface ThrowingCondition
    {
        boolean holds() throws Exception;
    }
}
