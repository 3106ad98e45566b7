package io.spool.queue.internal.delivery;

import io.spool.api.log.HeadersCodec;
import io.spool.api.log.OffsetOutOfRangeException;
import io.spool.api.log.RecordView;
import io.spool.api.queue.GroupKeySource;
import io.spool.api.queue.GroupMode;
import io.spool.api.queue.QueueHeaders;
import io.spool.api.queue.RetryPolicy;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.log.LogReader;
import io.spool.log.RecordHandler;
import io.spool.queue.internal.state.MessageInspector;
import io.spool.queue.internal.state.MessageTraits;
import org.agrona.DirectBuffer;

import java.nio.charset.StandardCharsets;

/**
 * Reads a message's traits from its log record: whether an exchange routed it here
 * ({@link QueueHeaders#ROUTED_TO}), the group from the {@link QueueHeaders#GROUP_ID} header or the
 * record key, the delivery time from {@link QueueHeaders#DELAY} or {@link QueueHeaders#DELIVER_AT}, and the expiry
 * from {@link QueueHeaders#TTL} and the subscription's message TTL, whichever ends first. Allocates nothing. Not
 * thread-safe: owned by the subscription's agent thread.
 * <p>
 * Design note: it has a reader of its own because the read cursor meets messages in offset order, so its reads
 * stay sequential while the delivery reader serves redeliveries anywhere in the window; and when asked for the
 * offset after the last one it read, it reads the traits of the next {@link #BATCH} records at once, since a
 * record at a time costs a seek and a poll each. The read-ahead for expiry has an inspector of its own, so the two
 * sequences do not take each other's batch away.
 */
final class RecordInspector implements MessageInspector, RecordHandler
{
    /** Records read at once when asked for the offset after the last one read. */
    static final int BATCH = 64;
    private static final byte[] ROUTED_TO_BYTES = QueueHeaders.ROUTED_TO.getBytes(StandardCharsets.UTF_8);
    private static final byte[] GROUP_ID_BYTES = QueueHeaders.GROUP_ID.getBytes(StandardCharsets.UTF_8);
    private static final byte[] DELAY_BYTES = QueueHeaders.DELAY.getBytes(StandardCharsets.UTF_8);
    private static final byte[] DELIVER_AT_BYTES = QueueHeaders.DELIVER_AT.getBytes(StandardCharsets.UTF_8);
    private static final byte[] TTL_BYTES = QueueHeaders.TTL.getBytes(StandardCharsets.UTF_8);

    /** What {@link #parseMillis} returns for a value that is not a non-negative decimal number. */
    private static final long NOT_A_NUMBER = -1;

    private final LogReader reader;
    private final boolean groupsFromKey;
    private final boolean readsGroups;
    private final long subscriptionTtlMillis;
    /** Whether a record without headers is plain: no subscription TTL and no groups taken from record keys. */
    private final boolean headerFreeIsPlain;
    private final byte[] subscriptionName;
    private final MessageTraits target = new MessageTraits();
    private final boolean[] routed = new boolean[BATCH];
    private final int[] group = new int[BATCH];
    private final int[] size = new int[BATCH];
    private final long[] deliverAt = new long[BATCH];
    private final long[] expireAt = new long[BATCH];
    private final boolean[] plain = new boolean[BATCH];
    /** The traits of offsets {@code [cachedFrom, cachedFrom + cachedCount)} are in the arrays. */
    private long cachedFrom = -1;
    private int cachedCount;

    RecordInspector(final LogReader reader, final String subscription, final SubscriptionSettings settings)
    {
        this.subscriptionName = subscription.getBytes(StandardCharsets.UTF_8);
        this.reader = reader;
        this.readsGroups = settings.groupMode() != GroupMode.NONE;
        this.groupsFromKey = settings.groupKeySource() == GroupKeySource.RECORD_KEY;
        this.subscriptionTtlMillis = settings.messageTtlMillis();
        this.headerFreeIsPlain = subscriptionTtlMillis == SubscriptionSettings.NO_TTL && !(readsGroups && groupsFromKey);
    }

    @Override
    public void inspect(final long offset, final MessageTraits traits)
    {
        traits.clear();
        if (offset < cachedFrom || offset >= cachedFrom + cachedCount)
        {
            load(offset, offset == cachedFrom + cachedCount ? BATCH : 1);
        }
        final int i = (int)(offset - cachedFrom);
        if (i < 0 || i >= cachedCount)
        {
            // Retention removed the record: it is delivered as plain, and the delivery finds it gone.
            return;
        }
        traits.size = size[i];
        if (plain[i])
        {
            return;
        }
        traits.routed = routed[i];
        traits.group = group[i];
        traits.deliverAt = deliverAt[i];
        traits.expireAt = expireAt[i];
    }

    /** Answers from the batch of traits read, reading the next batch when the run reaches its end. */
    @Override
    public int plainRun(final long offset, final int max, final MessageTraits scratch)
    {
        int run = 0;
        while (run < max)
        {
            if (headerFreeIsPlain && offset + run == cachedFrom + cachedCount)
            {
                run += skipHeaderFree(offset + run, max - run);
                if (run == max)
                {
                    break;
                }
            }
            final long next = offset + run;
            if (next < cachedFrom || next >= cachedFrom + cachedCount)
            {
                load(next, next == cachedFrom + cachedCount ? BATCH : 1);
            }
            final int from = (int)(next - cachedFrom);
            if (from < 0 || from >= cachedCount)
            {
                // Retention removed the record: inspect() reads it as plain, and so does the run.
                run++;
                continue;
            }
            final int end = Math.min(cachedCount, from + max - run);
            int i = from;
            while (i < end && plain[i])
            {
                i++;
            }
            run += i - from;
            if (i < end)
            {
                break;
            }
        }
        return run;
    }

    /**
     * Passes the header-free records from {@code offset} on, up to {@code max}, without reading their traits: they
     * are plain. The cache then starts, empty, after them, where the next batch is read.
     *
     * @return the number of records passed.
     */
    private int skipHeaderFree(final long offset, final int max)
    {
        int passed;
        try
        {
            reader.seek(offset);
            passed = reader.skipHeaderFree(max);
        }
        catch (final OffsetOutOfRangeException ex)
        {
            passed = 0;
        }
        cachedFrom = offset + passed;
        cachedCount = 0;
        return passed;
    }

    /** Reads the traits of up to {@code count} records from {@code offset}: many when reading in order. */
    private void load(final long offset, final int count)
    {
        cachedFrom = offset;
        cachedCount = 0;
        try
        {
            reader.seek(offset);
            reader.poll(this, count);
        }
        catch (final OffsetOutOfRangeException ex)
        {
            cachedCount = 0;
        }
    }

    /**
     * Keeps the record's traits for {@link #inspect} and {@link #plainRun}. A plain message keeps only its size: its
     * other traits are those of {@link MessageTraits#clear()}. Most messages of most topics carry no headers, and
     * without a subscription TTL or groups read from keys such a message is plain without more reading.
     */
    @Override
    public void onRecord(final RecordView record)
    {
        while (cachedFrom + cachedCount < record.offset() && cachedCount < BATCH)
        {
            // An offset in a hole of the log holds no record: plain and of no size, like one retention removed,
            // and its delivery finds it gone.
            size[cachedCount] = 0;
            plain[cachedCount++] = true;
        }
        if (cachedCount == BATCH)
        {
            return;
        }
        final int i = cachedCount++;
        if (headerFreeIsPlain && record.headersLength() == 0)
        {
            size[i] = record.frameLength();
            plain[i] = true;
            return;
        }
        read(record);
        size[i] = target.size;
        plain[i] = target.isPlain();
        if (!plain[i])
        {
            routed[i] = target.routed;
            group[i] = target.group;
            deliverAt[i] = target.deliverAt;
            expireAt[i] = target.expireAt;
        }
    }

    private void read(final RecordView record)
    {
        target.clear();
        final long published = record.timestamp();
        target.size = record.frameLength();
        if (subscriptionTtlMillis != SubscriptionSettings.NO_TTL)
        {
            target.expireAt = published + subscriptionTtlMillis;
        }
        if (readsGroups && groupsFromKey && record.keyLength() >= 0)
        {
            target.group = groupHash(record.buffer(), record.keyOffset(), record.keyLength());
        }
        final int headersLength = record.headersLength();
        if (headersLength == 0)
        {
            return;
        }
        final DirectBuffer buffer = record.buffer();
        final int headersAt = record.headersOffset();
        final long routedTo = HeadersCodec.locate(buffer, headersAt, headersLength, ROUTED_TO_BYTES);
        if (routedTo >= 0 && (int)routedTo >= 0)
        {
            target.routed = listsName(buffer, (int)(routedTo >>> 32), (int)routedTo, subscriptionName);
        }
        if (readsGroups && !groupsFromKey)
        {
            final long found = HeadersCodec.locate(buffer, headersAt, headersLength, GROUP_ID_BYTES);
            if (found >= 0 && (int)found >= 0)
            {
                target.group = groupHash(buffer, (int)(found >>> 32), (int)found);
            }
        }
        final long delay = millisHeader(buffer, headersAt, headersLength, DELAY_BYTES);
        if (delay > 0)
        {
            target.deliverAt = published + Math.min(delay, RetryPolicy.MAX_DELAY_MILLIS);
        }
        final long deliverAt = millisHeader(buffer, headersAt, headersLength, DELIVER_AT_BYTES);
        if (deliverAt > 0)
        {
            target.deliverAt = Math.min(deliverAt, published + RetryPolicy.MAX_DELAY_MILLIS);
        }
        final long ttl = millisHeader(buffer, headersAt, headersLength, TTL_BYTES);
        if (ttl >= 0)
        {
            target.expireAt = Math.min(target.expireAt, published + ttl);
        }
    }

    private static long millisHeader(final DirectBuffer buffer, final int at, final int length, final byte[] name)
    {
        final long found = HeadersCodec.locate(buffer, at, length, name);
        return found < 0 || (int)found < 0 ? NOT_A_NUMBER :
            parseMillis(buffer, (int)(found >>> 32), (int)found);
    }

    /** Whether a comma-separated list of names holds {@code name}, compared byte by byte. */
    static boolean listsName(final DirectBuffer buffer, final int at, final int length, final byte[] name)
    {
        int start = at;
        final int end = at + length;
        while (start <= end)
        {
            int stop = start;
            while (stop < end && buffer.getByte(stop) != ',')
            {
                stop++;
            }
            if (stop - start == name.length)
            {
                int i = 0;
                while (i < name.length && buffer.getByte(start + i) == name[i])
                {
                    i++;
                }
                if (i == name.length)
                {
                    return true;
                }
            }
            start = stop + 1;
        }
        return false;
    }

    /** A 32-bit FNV-1a hash, never {@link MessageTraits#NO_GROUP}; keys that collide share their order. */
    static int groupHash(final DirectBuffer buffer, final int at, final int length)
    {
        int hash = 0x811C9DC5;
        for (int i = 0; i < length; i++)
        {
            hash ^= buffer.getByte(at + i) & 0xFF;
            hash *= 0x01000193;
        }
        return hash == MessageTraits.NO_GROUP ? 1 : hash;
    }

    void close()
    {
        reader.close();
    }

    /**
     * Reads a non-negative decimal number without allocating; a malformed value reads as {@link #NOT_A_NUMBER}, so a
     * bad header never stops delivery.
     */
    private static long parseMillis(final DirectBuffer buffer, final int at, final int length)
    {
        if (length < 1 || length > 18)
        {
            return NOT_A_NUMBER;
        }
        long value = 0;
        for (int i = 0; i < length; i++)
        {
            final int digit = buffer.getByte(at + i) - '0';
            if (digit < 0 || digit > 9)
            {
                return NOT_A_NUMBER;
            }
            value = value * 10 + digit;
        }
        return value;
    }
}
