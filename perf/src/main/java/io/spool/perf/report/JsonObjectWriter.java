package io.spool.perf.report;

/**
 * Writes one flat JSON object (string, integer and number members), enough for a benchmark result without a JSON
 * library. Not thread-safe.
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
        if (Double.isNaN(value) || Double.isInfinite(value))
        {
            json.append("null");
        }
        else
        {
            json.append(value);
        }
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
        json.append('"');
        for (int i = 0; i < value.length(); i++)
        {
            final char c = value.charAt(i);
            switch (c)
            {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                case '\b' -> json.append("\\b");
                case '\f' -> json.append("\\f");
                default ->
                {
                    if (c < 0x20)
                    {
                        json.append(String.format("\\u%04x", (int)c));
                    }
                    else
                    {
                        json.append(c);
                    }
                }
            }
        }
        json.append('"');
    }
}
