package io.spool.queue;

import io.spool.log.DurableFiles;
import io.spool.log.FileSync;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The durable list of subscriptions: name, topic, settings and receipt issuer, one line each, followed by a CRC32C
 * of the lines.
 * <pre>
 *   spool-subscriptions 1
 *   NAME TOPIC lock=MS limit=N dlq=TOPIC|- retention=WORK_QUEUE|NONE start=KIND:VALUE groups=MODE:SOURCE
 *     retry=MS,MS,...|- ttl=MS sac=true|false maxlen=N maxbytes=N overflow=POLICY issuer=HEX
 *   ...
 *   crc HEX
 * </pre>
 * The issuer is the random number every receipt of the subscription carries ({@link Receipt}), drawn when the
 * subscription is created and kept across restarts, so a receipt keeps its meaning (stale, already settled) after
 * one; an entry written without it draws one when read, which the owner then saves.
 * Replaced atomically on every change. Not thread-safe: its owner serialises changes.
 */
final class SubscriptionCatalog
{
    private static final String MAGIC = "spool-subscriptions 1";
    /** Draws the receipt issuers: unguessable, so that a receipt cannot be made up for a subscription. */
    private static final SecureRandom ISSUERS = new SecureRandom();

    private final Path file;
    private final FileSync sync;

    SubscriptionCatalog(final Path file, final FileSync sync)
    {
        this.file = file;
        this.sync = sync;
    }

    /** Stored subscriptions by name: topic and settings. */
    Map<String, Entry> load()
    {
        final Map<String, Entry> entries = new LinkedHashMap<>();
        final byte[] content = DurableFiles.read(file);
        if (content == null)
        {
            return entries;
        }
        final String text = new String(content, StandardCharsets.UTF_8);
        final int crcLine = text.lastIndexOf("crc ");
        if (!text.startsWith(MAGIC + "\n") || crcLine < 0 ||
            !Long.toHexString(crc(text.substring(0, crcLine))).equals(text.substring(crcLine + 4).trim()))
        {
            throw new CorruptStateException("subscription catalog " + file + " is damaged: bad header or checksum");
        }
        for (final String line : text.substring(MAGIC.length() + 1, crcLine).split("\n"))
        {
            if (!line.isEmpty())
            {
                final Entry entry = Entry.parse(line);
                entries.put(entry.name, entry);
            }
        }
        return entries;
    }

    void save(final Map<String, Entry> entries)
    {
        final StringBuilder text = new StringBuilder(MAGIC).append('\n');
        for (final Entry entry : entries.values())
        {
            text.append(entry.format()).append('\n');
        }
        final long crc = crc(text.toString());
        text.append("crc ").append(Long.toHexString(crc)).append('\n');
        DurableFiles.replace(sync, file, text.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static long crc(final String text)
    {
        final CRC32C crc = new CRC32C();
        crc.update(text.getBytes(StandardCharsets.UTF_8));
        return crc.getValue();
    }

    /**
     * One stored subscription. Immutable.
     */
    static final class Entry
    {
        final String name;
        final String topic;
        final SubscriptionSettings settings;
        final long issuer;
        /** Whether the issuer was drawn now, for an entry stored without one: the catalog is to be saved again. */
        final boolean issuerDrawn;

        /** A new subscription, with an issuer of its own. */
        Entry(final String name, final String topic, final SubscriptionSettings settings)
        {
            this(name, topic, settings, ISSUERS.nextLong(), true);
        }

        private Entry(final String name, final String topic, final SubscriptionSettings settings, final long issuer,
            final boolean issuerDrawn)
        {
            this.name = name;
            this.topic = topic;
            this.settings = settings;
            this.issuer = issuer;
            this.issuerDrawn = issuerDrawn;
        }

        String format()
        {
            final StartPosition start = settings.startPosition();
            return name + ' ' + topic + " lock=" + settings.lockTimeoutMillis() + " limit=" + settings.deliveryLimit() +
                " dlq=" + (settings.deadLetterTopic() == null ? "-" : settings.deadLetterTopic()) +
                " retention=" + settings.retentionMode() + " start=" + start.kind() + ':' + start.value() +
                " groups=" + settings.groupMode() + ':' + settings.groupKeySource() +
                " retry=" + settings.retryPolicy().format() + " ttl=" + settings.messageTtlMillis() +
                " sac=" + settings.singleActiveConsumer() + " maxlen=" + settings.maxLength() +
                " maxbytes=" + settings.maxBytes() + " overflow=" + settings.overflowPolicy() +
                " issuer=" + Long.toHexString(issuer);
        }

        static Entry parse(final String line)
        {
            final String[] fields = line.split(" ");
            final Map<String, String> values = new LinkedHashMap<>();
            for (int i = 2; i < fields.length; i++)
            {
                final int eq = fields[i].indexOf('=');
                values.put(fields[i].substring(0, eq), fields[i].substring(eq + 1));
            }
            final String[] start = values.get("start").split(":");
            final long startValue = Long.parseLong(start[1]);
            final StartPosition position;
            switch (StartPosition.Kind.valueOf(start[0]))
            {
                case LATEST:
                    position = StartPosition.latest();
                    break;
                case OFFSET:
                    position = StartPosition.offset(startValue);
                    break;
                case TIMESTAMP:
                    position = StartPosition.timestamp(startValue);
                    break;
                default:
                    position = StartPosition.earliest();
                    break;
            }
            final String dlq = values.get("dlq");
            final String[] groups = values.getOrDefault("groups", "NONE:HEADER").split(":");
            final String issuer = values.get("issuer");
            return new Entry(fields[0], fields[1], SubscriptionSettings.builder()
                .lockTimeoutMillis(Long.parseLong(values.get("lock")))
                .deliveryLimit(Integer.parseInt(values.get("limit")))
                .deadLetterTopic(dlq.equals("-") ? null : dlq)
                .retentionMode(RetentionMode.valueOf(values.get("retention")))
                .startPosition(position)
                .messageGroups(GroupMode.valueOf(groups[0]), GroupKeySource.valueOf(groups[1]))
                .retryPolicy(RetryPolicy.parse(values.get("retry")))
                .messageTtlMillis(Long.parseLong(values.getOrDefault("ttl", "0")))
                .singleActiveConsumer(Boolean.parseBoolean(values.get("sac")))
                .overflow(Long.parseLong(values.getOrDefault("maxlen", "-1")),
                    Long.parseLong(values.getOrDefault("maxbytes", "-1")),
                    OverflowPolicy.valueOf(values.getOrDefault("overflow", "DROP_HEAD")))
                .build(),
                issuer == null ? ISSUERS.nextLong() : Long.parseUnsignedLong(issuer, 16), issuer == null);
        }
    }
}
