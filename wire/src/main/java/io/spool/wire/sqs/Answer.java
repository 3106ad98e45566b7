package io.spool.wire.sqs;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The result of an action, built once and written in either protocol: as the JSON object the AWS JSON 1.0 protocol
 * answers with, or as the elements inside the query protocol's {@code <ActionResult>}. The two name and nest some
 * members differently (a JSON list of queue URLs is a flattened run of {@code <QueueUrl>} elements; a JSON map of
 * attributes is a run of {@code <Attribute><Name/><Value/></Attribute>}), so each member carries both names. Not
 * thread-safe.
 */
final class Answer
{
    private enum Kind
    {
        TEXT, NUMBER, BOOLEAN, TEXTS, OBJECTS, TEXT_MAP, OBJECT_MAP
    }

    private record Member(Kind kind, String name, String xmlName, String keyTag, String valueTag, Object value)
    {
    }

    private final List<Member> members = new ArrayList<>();

    /** A text member; a null value leaves it out. */
    Answer put(final String name, final String value)
    {
        if (value != null)
        {
            members.add(new Member(Kind.TEXT, name, name, null, null, value));
        }
        return this;
    }

    Answer put(final String name, final long value)
    {
        members.add(new Member(Kind.NUMBER, name, name, null, null, value));
        return this;
    }

    Answer put(final String name, final boolean value)
    {
        members.add(new Member(Kind.BOOLEAN, name, name, null, null, value));
        return this;
    }

    /** A list of texts: a JSON array, or one {@code xmlName} element per item. */
    Answer texts(final String name, final String xmlName, final List<String> values)
    {
        members.add(new Member(Kind.TEXTS, name, xmlName, null, null, values));
        return this;
    }

    /** A list of objects: a JSON array, or one {@code xmlName} element per item. */
    Answer objects(final String name, final String xmlName, final List<Answer> values)
    {
        members.add(new Member(Kind.OBJECTS, name, xmlName, null, null, values));
        return this;
    }

    /** A map of texts: a JSON object, or one {@code <xmlName><keyTag/><valueTag/></xmlName>} per entry. */
    Answer textMap(final String name, final String xmlName, final String keyTag, final String valueTag,
        final Map<String, String> values)
    {
        if (!values.isEmpty())
        {
            members.add(new Member(Kind.TEXT_MAP, name, xmlName, keyTag, valueTag, values));
        }
        return this;
    }

    /** A map of objects, written as {@link #textMap} writes its texts. */
    Answer objectMap(final String name, final String xmlName, final String keyTag, final String valueTag,
        final Map<String, Answer> values)
    {
        if (!values.isEmpty())
        {
            members.add(new Member(Kind.OBJECT_MAP, name, xmlName, keyTag, valueTag, values));
        }
        return this;
    }

    @SuppressWarnings("unchecked")
    void writeJson(final StringBuilder out)
    {
        out.append('{');
        for (int i = 0; i < members.size(); i++)
        {
            final Member member = members.get(i);
            if (i > 0)
            {
                out.append(',');
            }
            Json.writeString(out, member.name);
            out.append(':');
            switch (member.kind)
            {
                case TEXT -> Json.writeString(out, (String)member.value);
                case NUMBER, BOOLEAN -> out.append(member.value);
                case TEXTS ->
                {
                    out.append('[');
                    final List<String> values = (List<String>)member.value;
                    for (int v = 0; v < values.size(); v++)
                    {
                        out.append(v > 0 ? "," : "");
                        Json.writeString(out, values.get(v));
                    }
                    out.append(']');
                }
                case OBJECTS ->
                {
                    out.append('[');
                    final List<Answer> values = (List<Answer>)member.value;
                    for (int v = 0; v < values.size(); v++)
                    {
                        out.append(v > 0 ? "," : "");
                        values.get(v).writeJson(out);
                    }
                    out.append(']');
                }
                case TEXT_MAP, OBJECT_MAP ->
                {
                    out.append('{');
                    boolean first = true;
                    for (final Map.Entry<String, ?> entry : ((Map<String, ?>)member.value).entrySet())
                    {
                        out.append(first ? "" : ",");
                        first = false;
                        Json.writeString(out, entry.getKey());
                        out.append(':');
                        if (member.kind == Kind.TEXT_MAP)
                        {
                            Json.writeString(out, (String)entry.getValue());
                        }
                        else
                        {
                            ((Answer)entry.getValue()).writeJson(out);
                        }
                    }
                    out.append('}');
                }
                default -> throw new IllegalStateException("unknown member kind " + member.kind);
            }
        }
        out.append('}');
    }

    @SuppressWarnings("unchecked")
    void writeXml(final StringBuilder out)
    {
        for (final Member member : members)
        {
            switch (member.kind)
            {
                case TEXT, NUMBER, BOOLEAN -> element(out, member.xmlName, String.valueOf(member.value));
                case TEXTS -> ((List<String>)member.value).forEach(value -> element(out, member.xmlName, value));
                case OBJECTS ->
                {
                    for (final Answer value : (List<Answer>)member.value)
                    {
                        out.append('<').append(member.xmlName).append('>');
                        value.writeXml(out);
                        out.append("</").append(member.xmlName).append('>');
                    }
                }
                case TEXT_MAP, OBJECT_MAP ->
                {
                    for (final Map.Entry<String, ?> entry : ((Map<String, ?>)member.value).entrySet())
                    {
                        out.append('<').append(member.xmlName).append('>');
                        element(out, member.keyTag, entry.getKey());
                        if (member.kind == Kind.TEXT_MAP)
                        {
                            element(out, member.valueTag, (String)entry.getValue());
                        }
                        else
                        {
                            out.append('<').append(member.valueTag).append('>');
                            ((Answer)entry.getValue()).writeXml(out);
                            out.append("</").append(member.valueTag).append('>');
                        }
                        out.append("</").append(member.xmlName).append('>');
                    }
                }
                default -> throw new IllegalStateException("unknown member kind " + member.kind);
            }
        }
    }

    static void element(final StringBuilder out, final String name, final String text)
    {
        out.append('<').append(name).append('>');
        escapeXml(out, text);
        out.append("</").append(name).append('>');
    }

    /** Escapes text for XML, carriage returns too: a parser would turn a bare one into a line feed. */
    static void escapeXml(final StringBuilder out, final String text)
    {
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            switch (c)
            {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&apos;");
                case '\r' -> out.append("&#xD;");
                default -> out.append(c);
            }
        }
    }
}
