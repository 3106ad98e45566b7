package io.spool.perf.report;

import java.util.Collection;
import java.util.Locale;
import java.util.Map;

/**
 * Writes plain values as JSON (RFC 8259): maps as objects (in their iteration order, keys as strings), collections
 * as arrays, strings, numbers, booleans and null. Enough for the command line's {@code --json} output without a
 * JSON library. Stateless, thread-safe.
 */
public final class JsonValues
{
    private JsonValues()
    {
    }

    /**
     * @throws IllegalArgumentException for a value of any other type.
     */
    public static String write(final Object value)
    {
        final StringBuilder json = new StringBuilder(256);
        append(json, value);
        return json.toString();
    }

    static void append(final StringBuilder json, final Object value)
    {
        if (value == null)
        {
            json.append("null");
        }
        else if (value instanceof String text)
        {
            appendString(json, text);
        }
        else if (value instanceof Double || value instanceof Float)
        {
            appendNumber(json, ((Number)value).doubleValue());
        }
        else if (value instanceof Number || value instanceof Boolean)
        {
            json.append(value);
        }
        else if (value instanceof Map<?, ?> map)
        {
            json.append('{');
            boolean first = true;
            for (final Map.Entry<?, ?> member : map.entrySet())
            {
                if (!first)
                {
                    json.append(',');
                }
                first = false;
                appendString(json, String.valueOf(member.getKey()));
                json.append(':');
                append(json, member.getValue());
            }
            json.append('}');
        }
        else if (value instanceof Collection<?> items)
        {
            json.append('[');
            boolean first = true;
            for (final Object item : items)
            {
                if (!first)
                {
                    json.append(',');
                }
                first = false;
                append(json, item);
            }
            json.append(']');
        }
        else
        {
            throw new IllegalArgumentException("no JSON form for a " + value.getClass().getName());
        }
    }

    /** NaN and infinities have no JSON form and are written as {@code null}. */
    static void appendNumber(final StringBuilder json, final double value)
    {
        if (Double.isNaN(value) || Double.isInfinite(value))
        {
            json.append("null");
        }
        else
        {
            json.append(value);
        }
    }

    static void appendString(final StringBuilder json, final String value)
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
                        json.append(String.format(Locale.ROOT, "\\u%04x", (int)c));
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
