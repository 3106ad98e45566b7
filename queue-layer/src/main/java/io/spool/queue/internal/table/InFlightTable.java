package io.spool.queue.internal.table;

import java.util.Arrays;

/**
 * The held messages of one subscription partition (acquired or delayed): holder, deadline and timer links, in
 * pages of 1,024 offsets of parallel primitive arrays, 20 bytes per offset. A page exists only while it holds a
 * message, and up to 64 emptied pages are kept for reuse, so steady-state work allocates nothing. Not thread-safe:
 * owned by the subscription partition's thread.
 * <p>
 * Design note: a record is named by the low 30 bits of its offset. The window never spans 2^30 offsets, so the
 * name is unique, the full offset is the ack floor plus the distance of the name from the floor's low bits, and
 * pages are found from the name alone. Growing the page table therefore never renames a record, and the timer
 * links that hold names stay valid.
 */
public final class InFlightTable
{
    public static final int NIL = -1;
    /** Holder of a record that is delayed rather than held by a consumer. */
    public static final int DELAYED = -2;
    /** Bytes each offset of a page costs: holder, deadline, previous and next links. */
    static final int BYTES_PER_SLOT = 3 * Integer.BYTES + Long.BYTES;
    private static final int NAME_MASK = (1 << 30) - 1;
    private static final int PAGE_SHIFT = 10;
    private static final int PAGE_SIZE = 1 << PAGE_SHIFT;
    private static final int SLOT_MASK = PAGE_SIZE - 1;
    /** Holders are stored shifted so that the zero an array starts with means "no record". */
    private static final int HOLDER_BIAS = 3;
    private static final int REFERENCE_BYTES = 8;
    /** Emptied pages kept for reuse; past a burst, more would only hold memory. */
    private static final int MAX_SPARE_PAGES = 64;

    /** A page of records for offsets {@code base} to {@code base + 1023}. */
    private static final class Page
    {
        long base;
        int live;
        final int[] holder = new int[PAGE_SIZE];
        final long[] deadline = new long[PAGE_SIZE];
        final int[] previous = new int[PAGE_SIZE];
        final int[] next = new int[PAGE_SIZE];
    }

    private Page[] table = new Page[16];
    private final Page[] spare = new Page[MAX_SPARE_PAGES];
    private int spareCount;
    private int livePages;
    private int size;

    /** Records a held message at {@code offset}, unlinked; returns its name. */
    public int allocate(final long offset, final int holder)
    {
        final Page page = pageFor(offset);
        final int slot = (int)offset & SLOT_MASK;
        page.holder[slot] = holder + HOLDER_BIAS;
        page.previous[slot] = NIL;
        page.next[slot] = NIL;
        page.live++;
        size++;
        return (int)offset & NAME_MASK;
    }

    /**
     * Records held messages at the {@code count} offsets from {@code from} on, all for {@code holder} until
     * {@code deadline}, each with {@code previousLink} as its previous link and no next one: a page's slots at a time.
     */
    void allocateRun(final long from, final int count, final int holder, final long deadline, final int previousLink)
    {
        long offset = from;
        final long end = from + count;
        while (offset < end)
        {
            final Page page = pageFor(offset);
            final int slot = (int)offset & SLOT_MASK;
            final int slots = (int)Math.min(PAGE_SIZE - slot, end - offset);
            Arrays.fill(page.holder, slot, slot + slots, holder + HOLDER_BIAS);
            Arrays.fill(page.deadline, slot, slot + slots, deadline);
            Arrays.fill(page.previous, slot, slot + slots, previousLink);
            Arrays.fill(page.next, slot, slot + slots, NIL);
            page.live += slots;
            size += slots;
            offset += slots;
        }
    }

    /**
     * How many of the {@code max} offsets from {@code offset} on, up to the end of its page, hold a record of the
     * first one's holder with {@code previousLink} as its previous link and a deadline after {@code now}, counted
     * to the first that does not; 0 if the first does not.
     */
    int heldRunLength(final long offset, final int max, final int previousLink, final long now)
    {
        final Page page = table[(int)(offset >>> PAGE_SHIFT) & (table.length - 1)];
        if (page == null || page.base != (offset & ~(long)SLOT_MASK))
        {
            return 0;
        }
        final int first = (int)offset & SLOT_MASK;
        final int end = first + Math.min(max, PAGE_SIZE - first);
        final int holder = page.holder[first];
        if (holder == 0 || holder == DELAYED + HOLDER_BIAS)
        {
            return 0;
        }
        int slot = first;
        while (slot < end && page.holder[slot] == holder && page.previous[slot] == previousLink &&
            page.deadline[slot] > now)
        {
            slot++;
        }
        return slot - first;
    }

    /** Frees the {@code count} records from {@code offset} on, all in one page, clearing their links. */
    public void freeRun(final long offset, final int count)
    {
        final int index = (int)(offset >>> PAGE_SHIFT) & (table.length - 1);
        final Page page = table[index];
        final int slot = (int)offset & SLOT_MASK;
        Arrays.fill(page.holder, slot, slot + count, 0);
        Arrays.fill(page.previous, slot, slot + count, NIL);
        size -= count;
        page.live -= count;
        if (page.live == 0)
        {
            release(index, page);
        }
    }

    public void free(final int record)
    {
        final int index = (record >>> PAGE_SHIFT) & (table.length - 1);
        final Page page = table[index];
        page.holder[record & SLOT_MASK] = 0;
        size--;
        if (--page.live == 0)
        {
            release(index, page);
        }
    }

    private void release(final int index, final Page page)
    {
        table[index] = null;
        livePages--;
        if (spareCount < MAX_SPARE_PAGES)
        {
            spare[spareCount++] = page;
        }
    }

    /** The record held at {@code offset}, or {@link #NIL}. */
    public int recordAt(final long offset)
    {
        final Page page = table[(int)(offset >>> PAGE_SHIFT) & (table.length - 1)];
        return page != null && page.base == (offset & ~(long)SLOT_MASK) && page.holder[(int)offset & SLOT_MASK] != 0 ?
            (int)offset & NAME_MASK : NIL;
    }

    public int size()
    {
        return size;
    }

    /** Slots of the page table; {@link #recordInSlot} visits every record in {@code slots * 1024} steps. */
    public int tableSlots()
    {
        return table.length;
    }

    /** The record for the {@code i}-th offset of the page in table slot {@code slot}, or {@link #NIL}. */
    public int recordInSlot(final int slot, final int i)
    {
        final Page page = table[slot];
        return page == null || page.holder[i] == 0 ? NIL : (int)(page.base + i) & NAME_MASK;
    }

    public boolean hasPage(final int slot)
    {
        return table[slot] != null;
    }

    public static int pageSize()
    {
        return PAGE_SIZE;
    }

    public long offset(final int record, final long floor)
    {
        return floor + ((record - (int)floor) & NAME_MASK);
    }

    public int consumer(final int record)
    {
        return page(record).holder[record & SLOT_MASK] - HOLDER_BIAS;
    }

    public void consumer(final int record, final int holder)
    {
        page(record).holder[record & SLOT_MASK] = holder + HOLDER_BIAS;
    }

    public long deadline(final int record)
    {
        return page(record).deadline[record & SLOT_MASK];
    }

    public void deadline(final int record, final long deadlineMillis)
    {
        page(record).deadline[record & SLOT_MASK] = deadlineMillis;
    }

    int previous(final int record)
    {
        return page(record).previous[record & SLOT_MASK];
    }

    void previous(final int record, final int previousRecord)
    {
        page(record).previous[record & SLOT_MASK] = previousRecord;
    }

    int next(final int record)
    {
        return page(record).next[record & SLOT_MASK];
    }

    void next(final int record, final int nextRecord)
    {
        page(record).next[record & SLOT_MASK] = nextRecord;
    }

    public long footprintBytes()
    {
        return (long)(table.length + spare.length) * REFERENCE_BYTES +
            (long)(livePages + spareCount) * PAGE_SIZE * BYTES_PER_SLOT;
    }

    private Page page(final int record)
    {
        return table[(record >>> PAGE_SHIFT) & (table.length - 1)];
    }

    private Page pageFor(final long offset)
    {
        final long base = offset & ~(long)SLOT_MASK;
        while (true)
        {
            final int index = (int)(base >>> PAGE_SHIFT) & (table.length - 1);
            final Page page = table[index];
            if (page == null)
            {
                final Page fresh;
                if (spareCount > 0)
                {
                    fresh = spare[--spareCount];
                    spare[spareCount] = null;
                }
                else
                {
                    fresh = new Page();
                }
                fresh.base = base;
                fresh.live = 0;
                table[index] = fresh;
                livePages++;
                return fresh;
            }
            if (page.base == base)
            {
                return page;
            }
            growTable();
        }
    }

    /** Doubles the page table until every live page has a slot of its own; records keep their names. */
    private void growTable()
    {
        final Page[] old = table;
        int length = old.length << 1;
        while (!fits(old, length))
        {
            length <<= 1;
        }
        table = new Page[length];
        for (final Page page : old)
        {
            if (page != null)
            {
                table[(int)(page.base >>> PAGE_SHIFT) & (length - 1)] = page;
            }
        }
    }

    private static boolean fits(final Page[] pages, final int length)
    {
        final boolean[] taken = new boolean[length];
        for (final Page page : pages)
        {
            if (page != null)
            {
                final int index = (int)(page.base >>> PAGE_SHIFT) & (length - 1);
                if (taken[index])
                {
                    return false;
                }
                taken[index] = true;
            }
        }
        return true;
    }
}
