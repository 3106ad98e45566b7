package io.spool.perf.report;

import java.util.Collection;
import java.util.Map;

/**
 * Writes one JSON object member by member (string, integer, number, object and array members), enough for a benchmark
 * result without a JSON library. Not thread-safe.
 */
public final class JsonObjectWriter
{
    private final StringBuilder json = new StringBuilder(256).append('{');
    private boolean firstMember = true;
    private boolean closed;

    public JsonObjectWriter member(final String name, final String value)
    {
        name(name);
        if (value == null)
        {
            json.append("null");
        }
        else
        {
            appendString(value);
        }
        return this;
    }

    public JsonObjectWriter member(final String name, final long value)
    {
        name(name);
        json.append(value);
        return this;
    }

    /** NaN and infinities have no JSON form and are written as {@code null}. */
    public JsonObjectWriter member(final String name, final double value)
    {
        name(name);
        JsonValues.appendNumber(json, value);
        return this;
    }

    /** A member whose value is an object, an array or any other value {@link JsonValues} writes. */
    public JsonObjectWriter member(final String name, final Map<String, ?> value)
    {
        name(name);
        JsonValues.append(json, value);
        return this;
    }

    /** A member whose value is an array of the values {@link JsonValues} writes. */
    public JsonObjectWriter member(final String name, final Collection<?> value)
    {
        name(name);
        JsonValues.append(json, value);
        return this;
    }

    /** Closes the object and returns it; no member may be added afterwards. */
    public String toJson()
    {
        if (!closed)
        {
            json.append('}');
            closed = true;
        }
        return json.toString();
    }

    private void name(final String name)
    {
        if (closed)
        {
            throw new IllegalStateException("the object is already closed, cannot add member " + name);
        }
        if (!firstMember)
        {
            json.append(',');
        }
        firstMember = false;
        appendString(name);
        json.append(':');
    }

    private void appendString(final String value)
    {
        JsonValues.appendString(json, value);
    }
}
