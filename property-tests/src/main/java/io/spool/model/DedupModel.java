package io.spool.model;

import java.util.HashMap;
import java.util.Map;

/**
 * Which publishes a topic stores and which it answers with an earlier message instead: a publish whose dedup id was
 * first stored less than the dedup window ago is a repeat, stores nothing and confirms where the first one went;
 * once the window has passed, the id is new again. The dedup id is the one the publish names, else, on a topic that
 * dedups by content, its key and value. Written for clarity, without any of the engine's code. Not thread-safe.
 */
public final class DedupModel
{
    /** Where and when the first publish of a dedup id was stored. */
    public record Stored(int partition, long offset, long at)
    {
    }

    private final long windowMillis;
    private final boolean byContent;
    private final Map<String, Stored> firstById = new HashMap<>();

    public DedupModel(final long windowMillis, final boolean byContent)
    {
        this.windowMillis = windowMillis;
        this.byContent = byContent;
    }

    /** The dedup id of a publish (its named one, or its content on a topic that dedups by it), or null if none. */
    public String idOf(final String namedId, final String key, final String value)
    {
        if (namedId != null)
        {
            return "id " + namedId;
        }
        return byContent ? "content " + key + "/" + value : null;
    }

    /** The first store of {@code id} if it is still inside the window at {@code now}, else null: store the publish. */
    public Stored repeatOf(final String id, final long now)
    {
        final Stored first = id == null ? null : firstById.get(id);
        return first != null && now < first.at() + windowMillis ? first : null;
    }

    /** A publish with {@code id} was stored at {@code now}; it opens a new window unless it had none. */
    public void stored(final String id, final int partition, final long offset, final long now)
    {
        if (id != null)
        {
            firstById.put(id, new Stored(partition, offset, now));
        }
    }
}
