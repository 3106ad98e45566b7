package io.spool.queue.internal.registry;

import io.spool.api.queue.GroupKeySource;
import io.spool.api.queue.GroupMode;
import io.spool.api.queue.OverflowPolicy;
import io.spool.api.queue.Receipt;
import io.spool.api.queue.RetentionMode;
import io.spool.api.queue.RetryPolicy;
import io.spool.api.queue.StartPosition;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.log.CopiedFile;
import io.spool.log.DurableFiles;
import io.spool.log.FileSync;
import io.spool.queue.CorruptStateException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * The durable list of subscriptions: name, topic, settings, receipt issuer and the id of the topic it reads, one
 * line each, followed by a CRC32C of the lines.
 * <pre>
 *   spool-subscriptions 1
 *   NAME TOPIC lock=MS limit=N dlq=TOPIC|- retention=WORK_QUEUE|NONE start=KIND:VALUE groups=MODE:SOURCE
 *     retry=MS,MS,...|- ttl=MS sac=true|false maxlen=N maxbytes=N overflow=POLICY issuer=HEX topic-id=ID
 *   ...
 *   crc HEX
 * </pre>
 * The issuer is the random number every receipt of the subscription carries ({@link Receipt}), drawn when the
 * subscription is created and kept across restarts, so a receipt keeps its meaning (stale, already settled) after
 * one; an entry written without it draws one when read, which the owner then saves. The topic id tells the topic
 * the state was kept for from a later topic of the same name; an entry written without it takes the topic's id.
 * <p>
 * Replaced atomically on every change and kept twice ({@link CopiedFile}). Each subscription's own line is also
 * kept in its state directory ({@value #ENTRY_FILE}, written when it is created or changed), so that when the
 * catalog and its copy are both damaged it is rebuilt from those. Not thread-safe: its owner serialises changes.
 */
public final class SubscriptionCatalog
{
    private static final String MAGIC = "spool-subscriptions 1";
    /** A subscription's own entry, in its state directory. */
    public static final String ENTRY_FILE = "subscription.entry";
    /** Draws the receipt issuers: unguessable, so that a receipt cannot be made up for a subscription. */
    private static final SecureRandom ISSUERS = new SecureRandom();

    private final Path file;
    private final FileSync sync;

    public SubscriptionCatalog(final Path file, final FileSync sync)
    {
        this.file = file;
        this.sync = sync;
    }

    /**
     * Stored subscriptions by name, from the catalog's copy when the catalog is damaged.
     *
     * @throws CorruptStateException when the catalog and its copy are both damaged.
     */
    CopiedFile.Loaded<Map<String, Entry>> load()
    {
        final CopiedFile.Loaded<Map<String, Entry>> loaded = CopiedFile.load(sync, file, content -> decode(file,
            content));
        return loaded.value() == null ? new CopiedFile.Loaded<>(new LinkedHashMap<>(), null) : loaded;
    }

    public void save(final Map<String, Entry> entries)
    {
        CopiedFile.save(sync, file, encode(entries.values()));
    }

    /** Keeps {@code entry}'s own line in its state directory {@code directory}, for a rebuild. */
    public void saveEntry(final Path directory, final Entry entry)
    {
        DurableFiles.replace(sync, directory.resolve(ENTRY_FILE), encode(java.util.List.of(entry)));
    }

    /** Whether {@code directory} keeps its subscription's own line. */
    public static boolean hasEntry(final Path directory)
    {
        return Files.exists(directory.resolve(ENTRY_FILE));
    }

    /** Checks the catalog and its copy without changing them. */
    CopiedFile.Inspection inspect()
    {
        return CopiedFile.inspect(file, content -> decode(file, content));
    }

    /** Moves the damaged catalog and its copy aside, for an operator to look at. */
    Path setAside()
    {
        return CopiedFile.setAside(file);
    }

    /**
     * Rebuilds the catalog from the entries kept in the subscriptions' state directories under {@code queueDirectory}.
     *
     * @param unreadable receives, by name, why a directory's entry could not be read.
     */
    static Map<String, Entry> rebuild(final Path queueDirectory, final Map<String, String> unreadable)
    {
        final Map<String, Entry> entries = new LinkedHashMap<>();
        if (!Files.isDirectory(queueDirectory))
        {
            return entries;
        }
        try (Stream<Path> directories = Files.list(queueDirectory))
        {
            for (final Path directory : directories.filter(Files::isDirectory).sorted().toList())
            {
                final String name = directory.getFileName().toString();
                final Path entryFile = directory.resolve(ENTRY_FILE);
                try
                {
                    final byte[] content = DurableFiles.read(entryFile);
                    if (content == null)
                    {
                        unreadable.put(name, "its state directory has no " + ENTRY_FILE);
                        continue;
                    }
                    decode(entryFile, content).values().forEach(entry -> entries.put(entry.name, entry));
                }
                catch (final RuntimeException damaged)
                {
                    unreadable.put(name, damaged.getMessage());
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot list subscription directories under " + queueDirectory, ex);
        }
        return entries;
    }

    private static Map<String, Entry> decode(final Path file, final byte[] content)
    {
        final Map<String, Entry> entries = new LinkedHashMap<>();
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

    private static byte[] encode(final Iterable<Entry> entries)
    {
        final StringBuilder text = new StringBuilder(MAGIC).append('\n');
        for (final Entry entry : entries)
        {
            text.append(entry.format()).append('\n');
        }
        final long crc = crc(text.toString());
        text.append("crc ").append(Long.toHexString(crc)).append('\n');
        return text.toString().getBytes(StandardCharsets.UTF_8);
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
    public static final class Entry
    {
        public final String name;
        public final String topic;
        public final SubscriptionSettings settings;
        public final long issuer;
        /** Whether the issuer was drawn now, for an entry stored without one: the catalog is to be saved again. */
        public final boolean issuerDrawn;
        /** The id of the topic the state was kept for; null for an entry stored before topics had ids. */
        public final String topicId;

        /** A new subscription on the topic of id {@code topicId}, with an issuer of its own. */
        public Entry(final String name, final String topic, final String topicId, final SubscriptionSettings settings)
        {
            this(name, topic, settings, ISSUERS.nextLong(), true, topicId);
        }

        private Entry(final String name, final String topic, final SubscriptionSettings settings, final long issuer,
            final boolean issuerDrawn, final String topicId)
        {
            this.name = name;
            this.topic = topic;
            this.settings = settings;
            this.issuer = issuer;
            this.issuerDrawn = issuerDrawn;
            this.topicId = topicId;
        }

        /** This subscription with other settings, the rest kept. */
        public Entry withSettings(final SubscriptionSettings newSettings)
        {
            return new Entry(name, topic, newSettings, issuer, false, topicId);
        }

        /** This subscription kept for the topic of id {@code id}, the rest kept. */
        public Entry withTopicId(final String id)
        {
            return new Entry(name, topic, settings, issuer, false, id);
        }

        public String format()
        {
            final StartPosition start = settings.startPosition();
            return name + ' ' + topic + " lock=" + settings.lockTimeoutMillis() + " limit=" + settings.deliveryLimit() +
                " dlq=" + (settings.deadLetterTopic() == null ? "-" : settings.deadLetterTopic()) +
                " retention=" + settings.retentionMode() + " start=" + start.kind() + ':' + start.value() +
                " groups=" + settings.groupMode() + ':' + settings.groupKeySource() +
                " retry=" + settings.retryPolicy().format() + " ttl=" + settings.messageTtlMillis() +
                " sac=" + settings.singleActiveConsumer() + " maxlen=" + settings.maxLength() +
                " maxbytes=" + settings.maxBytes() + " overflow=" + settings.overflowPolicy() +
                " issuer=" + Long.toHexString(issuer) + (topicId == null ? "" : " topic-id=" + topicId);
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
                issuer == null ? ISSUERS.nextLong() : Long.parseUnsignedLong(issuer, 16), issuer == null,
                values.get("topic-id"));
        }
    }
}
