package io.spool.stream.internal.topic;

import io.spool.api.stream.InvalidGroupException;
import io.spool.api.stream.InvalidTopicException;

/**
 * Kafka's topic naming rules, which Spool also applies to consumer group ids: 1 to 249 characters from
 * {@code [a-zA-Z0-9._-]}, and neither {@code "."} nor {@code ".."} (they would name directories that escape
 * the data directory). Stateless, thread-safe.
 */
public final class TopicNames
{
    public static final int MAX_LENGTH = 249;

    private TopicNames()
    {
    }

    /** Throws {@link InvalidTopicException} saying what is wrong with {@code name}, or returns it unchanged. */
    public static String validateTopic(final String name)
    {
        final String problem = problemWith(name);
        if (problem != null)
        {
            throw new InvalidTopicException("invalid topic name " + quoted(name) + ": " + problem);
        }
        return name;
    }

    /** Whether {@code name} follows the rules. */
    public static boolean isValidTopic(final String name)
    {
        return problemWith(name) == null;
    }

    /** Throws {@link InvalidGroupException} saying what is wrong with {@code groupId}, or returns it unchanged. */
    public static String validateGroup(final String groupId)
    {
        final String problem = problemWith(groupId);
        if (problem != null)
        {
            throw new InvalidGroupException("invalid group id " + quoted(groupId) + ": " + problem);
        }
        return groupId;
    }

    private static String problemWith(final String name)
    {
        if (name == null || name.isEmpty())
        {
            return "must not be empty";
        }
        if (name.length() > MAX_LENGTH)
        {
            return "is " + name.length() + " characters, longer than " + MAX_LENGTH;
        }
        if (name.equals(".") || name.equals(".."))
        {
            return "'.' and '..' are reserved";
        }
        for (int i = 0; i < name.length(); i++)
        {
            final char c = name.charAt(i);
            if (!isLegal(c))
            {
                return "character '" + c + "' at index " + i + " is not one of [a-zA-Z0-9._-]";
            }
        }
        return null;
    }

    private static boolean isLegal(final char c)
    {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            c == '.' || c == '_' || c == '-';
    }

    private static String quoted(final String name)
    {
        if (name == null)
        {
            return "null";
        }
        return name.length() > 60 ? "\"" + name.substring(0, 60) + "...\"" : "\"" + name + "\"";
    }
}
