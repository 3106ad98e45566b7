package io.spool.wire.sqs;

import io.netty.handler.codec.http.QueryStringDecoder;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the query protocol's form (the body of a POST, or the URL's query of a GET) into the parameters the JSON
 * protocol would carry for the same request, so that each action reads one shape. The query protocol flattens lists
 * and maps into numbered names: {@code AttributeName.1=All}, {@code Attribute.1.Name=DelaySeconds} with
 * {@code Attribute.1.Value=5}, {@code MessageAttribute.1.Value.StringValue=x},
 * {@code SendMessageBatchRequestEntry.2.MessageBody=y}; each flattened name becomes the JSON member it stands for.
 * Stateless and thread-safe.
 */
final class QueryForm
{
    /** A flattened list of values: the numbered name and the JSON member. */
    private static final Map<String, String> LISTS = Map.of(
        "AttributeName", "AttributeNames",
        "MessageAttributeName", "MessageAttributeNames",
        "MessageSystemAttributeName", "MessageSystemAttributeNames",
        "TagKey", "TagKeys");
    /** A flattened list of entries, each a nested set of parameters. */
    private static final Map<String, String> ENTRIES = Map.of(
        "SendMessageBatchRequestEntry", "Entries",
        "DeleteMessageBatchRequestEntry", "Entries",
        "ChangeMessageVisibilityBatchRequestEntry", "Entries");
    /** A flattened map: the numbered name, the JSON member, and the names of each entry's key and value. */
    private static final Map<String, String[]> MAPS = Map.of(
        "Attribute", new String[] {"Attributes", "Name", "Value"},
        "Tag", new String[] {"Tags", "Key", "Value"},
        "Tags", new String[] {"Tags", "Key", "Value"},
        "MessageAttribute", new String[] {"MessageAttributes", "Name", "Value"},
        "MessageSystemAttribute", new String[] {"MessageSystemAttributes", "Name", "Value"});
    /** Entries of a batch hold at most this many parameters' nesting. */
    private static final int MAX_PARAMETERS = 10_000;

    private QueryForm()
    {
    }

    /**
     * @param form the form's text ({@code a=1&b=2}, percent-encoded)
     * @throws SqsException when the form cannot be decoded or holds too many parameters.
     */
    static Map<String, Object> read(final String form)
    {
        final Map<String, List<String>> decoded;
        try
        {
            decoded = new QueryStringDecoder(form, StandardCharsets.UTF_8, false, MAX_PARAMETERS).parameters();
        }
        catch (final IllegalArgumentException ex)
        {
            throw SqsError.MALFORMED_REQUEST.with("the form cannot be decoded: " + ex.getMessage());
        }
        final Map<String, String> flat = new LinkedHashMap<>();
        for (final Map.Entry<String, List<String>> parameter : decoded.entrySet())
        {
            if (parameter.getValue().size() > 1)
            {
                throw SqsError.INVALID_PARAMETER_VALUE.with("parameter " + parameter.getKey() + " is given " +
                    parameter.getValue().size() + " times");
            }
            flat.put(parameter.getKey(), parameter.getValue().get(0));
        }
        return unflatten(flat);
    }

    /** Nests the flattened names of one level ({@code A.1.B}) and turns each group into the JSON member it names. */
    private static Map<String, Object> unflatten(final Map<String, String> flat)
    {
        final Map<String, Object> out = new LinkedHashMap<>();
        final Map<String, Map<String, String>> groups = new LinkedHashMap<>();
        for (final Map.Entry<String, String> parameter : flat.entrySet())
        {
            final String name = parameter.getKey();
            final int dot = name.indexOf('.');
            if (dot < 0)
            {
                out.put(name, parameter.getValue());
            }
            else
            {
                groups.computeIfAbsent(name.substring(0, dot), g -> new LinkedHashMap<>())
                    .put(name.substring(dot + 1), parameter.getValue());
            }
        }
        for (final Map.Entry<String, Map<String, String>> group : groups.entrySet())
        {
            final String name = group.getKey();
            if (LISTS.containsKey(name))
            {
                final List<Object> values = new ArrayList<>();
                numbered(name, group.getValue()).values().forEach(values::add);
                out.put(LISTS.get(name), values);
            }
            else if (ENTRIES.containsKey(name))
            {
                final List<Object> entries = new ArrayList<>();
                for (final Map<String, String> entry : numberedGroups(name, group.getValue()).values())
                {
                    entries.add(unflatten(entry));
                }
                out.put(ENTRIES.get(name), entries);
            }
            else if (MAPS.containsKey(name))
            {
                final String[] shape = MAPS.get(name);
                final Map<String, Object> map = new LinkedHashMap<>();
                for (final Map<String, String> entry : numberedGroups(name, group.getValue()).values())
                {
                    final Map<String, Object> nested = unflatten(entry);
                    final Object key = nested.get(shape[1]);
                    if (!(key instanceof String))
                    {
                        throw SqsError.MISSING_PARAMETER.with("every " + name + " entry needs its " + shape[1]);
                    }
                    map.put((String)key, nested.get(shape[2]));
                }
                out.put(shape[0], map);
            }
            else if (!group.getValue().isEmpty())
            {
                out.put(name, unflatten(group.getValue()));
            }
        }
        return out;
    }

    /** {@code 1=a, 2=b} in the order of their numbers. */
    private static TreeMap<Integer, String> numbered(final String name, final Map<String, String> members)
    {
        final TreeMap<Integer, String> out = new TreeMap<>();
        for (final Map.Entry<String, String> member : members.entrySet())
        {
            out.put(index(name, member.getKey()), member.getValue());
        }
        return out;
    }

    /** {@code 1.Name=a, 1.Value=b, 2.Name=c} as one group of members per number, in the order of the numbers. */
    private static TreeMap<Integer, Map<String, String>> numberedGroups(final String name,
        final Map<String, String> members)
    {
        final TreeMap<Integer, Map<String, String>> out = new TreeMap<>();
        for (final Map.Entry<String, String> member : members.entrySet())
        {
            final String key = member.getKey();
            final int dot = key.indexOf('.');
            if (dot < 0)
            {
                throw SqsError.INVALID_PARAMETER_VALUE.with("parameter " + name + "." + key +
                    " needs a member after its number, as in " + name + ".1.Name");
            }
            out.computeIfAbsent(index(name, key.substring(0, dot)), i -> new LinkedHashMap<>())
                .put(key.substring(dot + 1), member.getValue());
        }
        return out;
    }

    private static int index(final String name, final String number)
    {
        try
        {
            final int index = Integer.parseInt(number);
            if (index >= 1)
            {
                return index;
            }
        }
        catch (final NumberFormatException ignored)
        {
            // refused below
        }
        throw SqsError.INVALID_PARAMETER_VALUE.with("parameter " + name + "." + number +
            " needs a number from 1 after " + name);
    }
}
