package io.spool.queue.internal.state;

import io.spool.queue.DeadReason;

import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The dead messages whose copy the dead-letter topic has not confirmed yet: journaled as due with their death, kept
 * until the copy is confirmed stored, and replayed by the next open when a crash came first. Each is sent at most
 * once per run of the engine; the open checks the dead-letter topic before sending again, so a copy that was stored
 * but not yet confirmed is not stored twice. Dead letters are few and rare next to deliveries, so a sorted map
 * serves. Not thread-safe: owned by the subscription partition's thread.
 */
public final class DueDeadLetters
{
    /** One dead message's copy owed to the dead-letter topic. */
    public static final class Letter
    {
        public final long offset;
        public final DeadReason reason;
        public final int deliveries;
        public final long timeMillis;
        boolean sent;

        Letter(final long offset, final DeadReason reason, final int deliveries, final long timeMillis)
        {
            this.offset = offset;
            this.reason = reason;
            this.deliveries = deliveries;
            this.timeMillis = timeMillis;
        }
    }

    private final TreeMap<Long, Letter> byOffset = new TreeMap<>();
    /** Letters not sent in this run; a pass that killed nothing looks no further than this count. */
    private int unsent;

    public void due(final long offset, final DeadReason reason, final int deliveries, final long timeMillis)
    {
        final Letter previous = byOffset.put(offset, new Letter(offset, reason, deliveries, timeMillis));
        if (previous == null || previous.sent)
        {
            unsent++;
        }
    }

    /** The copy is stored, or will never be: nothing more is owed for that offset. */
    public void stored(final long offset)
    {
        final Letter letter = byOffset.remove(offset);
        if (letter != null && !letter.sent)
        {
            unsent--;
        }
    }

    boolean isDue(final long offset)
    {
        return byOffset.containsKey(offset);
    }

    public boolean isEmpty()
    {
        return byOffset.isEmpty();
    }

    int size()
    {
        return byOffset.size();
    }

    /** The lowest offset whose copy is owed, which retention must keep; {@code Long.MAX_VALUE} if none. */
    public long lowestOffset()
    {
        return byOffset.isEmpty() ? Long.MAX_VALUE : byOffset.firstKey();
    }

    /** Hands each letter not yet sent in this run to {@code send}, lowest offset first, and counts it sent. */
    public int sendUnsent(final Consumer<Letter> send)
    {
        if (unsent == 0)
        {
            return 0;
        }
        int sent = 0;
        for (final Letter letter : byOffset.values())
        {
            if (!letter.sent)
            {
                letter.sent = true;
                unsent--;
                send.accept(letter);
                sent++;
            }
        }
        return sent;
    }

    /** Every letter still owed, lowest offset first: for a new journal generation to owe them too. */
    public void forEach(final Consumer<Letter> action)
    {
        byOffset.values().forEach(action);
    }
}
