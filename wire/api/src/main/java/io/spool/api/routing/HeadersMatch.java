package io.spool.api.routing;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A headers-exchange binding: the header values a message must carry, all of them ({@code x-match=all}) or at
 * least one ({@code x-match=any}). A binding value of null asks only that the header be present. Two matches
 * are equal when their modes and their required headers are (names, and values byte for byte, in any order), so an
 * equal match, built afresh or read back after a restart, names the same binding. Immutable, thread-safe.
 */
public final class HeadersMatch
{
    /** Whether every binding header must match or any one is enough. */
    public enum Mode
    {
        ALL, ANY
    }

    private final Mode mode;
    private final Map<String, byte[]> required;

    public HeadersMatch(final Mode mode, final Map<String, byte[]> required)
    {
        if (required.isEmpty())
        {
            throw new InvalidRoutingException("a headers binding needs at least one header to match");
        }
        this.mode = mode;
        this.required = new LinkedHashMap<>(required);
    }

    public Mode mode()
    {
        return mode;
    }

    public Map<String, byte[]> required()
    {
        return java.util.Collections.unmodifiableMap(required);
    }

    public boolean matches(final Map<String, byte[]> headers)
    {
        for (final Map.Entry<String, byte[]> wanted : required.entrySet())
        {
            final boolean present = headers.containsKey(wanted.getKey());
            final boolean equal = present &&
                (wanted.getValue() == null || Arrays.equals(wanted.getValue(), headers.get(wanted.getKey())));
            if (mode == Mode.ANY && equal)
            {
                return true;
            }
            if (mode == Mode.ALL && !equal)
            {
                return false;
            }
        }
        return mode == Mode.ALL;
    }

    @Override
    public boolean equals(final Object other)
    {
        if (!(other instanceof HeadersMatch))
        {
            return false;
        }
        final HeadersMatch match = (HeadersMatch)other;
        if (mode != match.mode || required.size() != match.required.size())
        {
            return false;
        }
        for (final Map.Entry<String, byte[]> wanted : required.entrySet())
        {
            if (!match.required.containsKey(wanted.getKey()) ||
                !Arrays.equals(wanted.getValue(), match.required.get(wanted.getKey())))
            {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode()
    {
        int hash = mode.hashCode();
        for (final Map.Entry<String, byte[]> wanted : required.entrySet())
        {
            // A sum, as a map's hash is: the order the headers were given in does not count.
            hash += wanted.getKey().hashCode() ^ Arrays.hashCode(wanted.getValue());
        }
        return hash;
    }

    @Override
    public String toString()
    {
        return "HeadersMatch{" + mode + ' ' + required.keySet() + '}';
    }
}
