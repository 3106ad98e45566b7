package io.spool.wire.sqs;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A request's parameters as both protocols give them once read (see {@link QueryForm}): names to strings, numbers,
 * booleans, lists and nested parameters. The getters check presence and type and refuse with the SQS error a client
 * expects. Not thread-safe; one per request.
 */
final class Params
{
    private final Map<String, Object> values;

    Params(final Map<String, Object> values)
    {
        this.values = values;
    }

    static Params of(final Object value, final String what)
    {
        if (!(value instanceof Map))
        {
            throw SqsError.INVALID_PARAMETER_VALUE.with(what + " must be an object");
        }
        @SuppressWarnings("unchecked")
        final Map<String, Object> map = (Map<String, Object>)value;
        return new Params(map);
    }

    boolean has(final String name)
    {
        return values.get(name) != null;
    }

    /** A string parameter, or null when absent. */
    String string(final String name)
    {
        final Object value = values.get(name);
        if (value == null || value instanceof String)
        {
            return (String)value;
        }
        if (value instanceof BigDecimal || value instanceof Boolean)
        {
            return value.toString();
        }
        throw SqsError.INVALID_PARAMETER_VALUE.with("parameter " + name + " must be a string");
    }

    String required(final String name)
    {
        final String value = string(name);
        if (value == null)
        {
            throw SqsError.MISSING_PARAMETER.with("The request must contain the parameter " + name + ".");
        }
        return value;
    }

    /** An integer parameter within {@code [min, max]}, or {@code absent}. */
    long integer(final String name, final long min, final long max, final long absent)
    {
        final Object value = values.get(name);
        if (value == null)
        {
            return absent;
        }
        final long parsed;
        try
        {
            parsed = value instanceof BigDecimal ? ((BigDecimal)value).longValueExact() :
                Long.parseLong(string(name).trim());
        }
        catch (final ArithmeticException | NumberFormatException ex)
        {
            throw outOfRange(name, value, min, max);
        }
        if (parsed < min || parsed > max)
        {
            throw outOfRange(name, value, min, max);
        }
        return parsed;
    }

    private static SqsException outOfRange(final String name, final Object value, final long min, final long max)
    {
        return SqsError.INVALID_PARAMETER_VALUE.with("Value " + value + " for parameter " + name +
            " is invalid. Reason: must be an integer between " + min + " and " + max + ".");
    }

    /** A list of strings, empty when absent. */
    List<String> strings(final String name)
    {
        final List<String> out = new ArrayList<>();
        for (final Object item : list(name))
        {
            if (!(item instanceof String))
            {
                throw SqsError.INVALID_PARAMETER_VALUE.with("parameter " + name + " must be a list of strings");
            }
            out.add((String)item);
        }
        return out;
    }

    /** A list, empty when absent. */
    List<Object> list(final String name)
    {
        final Object value = values.get(name);
        if (value == null)
        {
            return Collections.emptyList();
        }
        if (!(value instanceof List))
        {
            throw SqsError.INVALID_PARAMETER_VALUE.with("parameter " + name + " must be a list");
        }
        @SuppressWarnings("unchecked")
        final List<Object> list = (List<Object>)value;
        return list;
    }

    /** A map of strings to strings (queue attributes, tags), empty when absent. */
    Map<String, String> stringMap(final String name)
    {
        final Map<String, String> out = new LinkedHashMap<>();
        for (final Map.Entry<String, Object> entry : map(name).entrySet())
        {
            final Object value = entry.getValue();
            if (!(value instanceof String))
            {
                throw SqsError.INVALID_ATTRIBUTE_VALUE.with("the value of " + name + " " + entry.getKey() +
                    " must be a string");
            }
            out.put(entry.getKey(), (String)value);
        }
        return out;
    }

    /** A map of names to values, empty when absent. */
    Map<String, Object> map(final String name)
    {
        final Object value = values.get(name);
        if (value == null)
        {
            return Collections.emptyMap();
        }
        if (!(value instanceof Map))
        {
            throw SqsError.INVALID_PARAMETER_VALUE.with("parameter " + name + " must be a map");
        }
        @SuppressWarnings("unchecked")
        final Map<String, Object> map = (Map<String, Object>)value;
        return map;
    }
}
