package io.spool.wire.sqs;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON the AWS JSON 1.0 protocol carries, read into plain values (objects as ordered maps, arrays as lists,
 * strings, {@link BigDecimal} numbers, booleans and null) and written from them. Strict: anything that is not one
 * JSON value (RFC 8259), or nests deeper than {@link #MAX_DEPTH}, is refused with {@link SqsError#MALFORMED_REQUEST}.
 * Stateless and thread-safe.
 */
final class Json
{
    static final int MAX_DEPTH = 32;

    private final String text;
    private int at;

    private Json(final String text)
    {
        this.text = text;
    }

    /**
     * @throws SqsException naming where the text stops being JSON.
     */
    static Object parse(final String text)
    {
        final Json reader = new Json(text);
        reader.skipSpace();
        final Object value = reader.value(0);
        reader.skipSpace();
        if (reader.at != text.length())
        {
            throw reader.malformed("text after the JSON value");
        }
        return value;
    }

    private Object value(final int depth)
    {
        if (depth > MAX_DEPTH)
        {
            throw malformed("nesting deeper than " + MAX_DEPTH);
        }
        if (at >= text.length())
        {
            throw malformed("the body ends where a value was expected");
        }
        final char c = text.charAt(at);
        switch (c)
        {
            case '{':
                return object(depth);
            case '[':
                return array(depth);
            case '"':
                return string();
            case 't':
                return word("true", Boolean.TRUE);
            case 'f':
                return word("false", Boolean.FALSE);
            case 'n':
                return word("null", null);
            default:
                if (c == '-' || c >= '0' && c <= '9')
                {
                    return number();
                }
                throw malformed("unexpected '" + c + "'");
        }
    }

    private Map<String, Object> object(final int depth)
    {
        final Map<String, Object> members = new LinkedHashMap<>();
        at++;
        skipSpace();
        if (peek() == '}')
        {
            at++;
            return members;
        }
        while (true)
        {
            skipSpace();
            if (peek() != '"')
            {
                throw malformed("a member name must be a string");
            }
            final String name = string();
            skipSpace();
            expect(':');
            skipSpace();
            if (members.put(name, value(depth + 1)) != null)
            {
                throw malformed("member \"" + name + "\" appears twice");
            }
            skipSpace();
            if (peek() == ',')
            {
                at++;
                continue;
            }
            expect('}');
            return members;
        }
    }

    private List<Object> array(final int depth)
    {
        final List<Object> items = new ArrayList<>();
        at++;
        skipSpace();
        if (peek() == ']')
        {
            at++;
            return items;
        }
        while (true)
        {
            skipSpace();
            items.add(value(depth + 1));
            skipSpace();
            if (peek() == ',')
            {
                at++;
                continue;
            }
            expect(']');
            return items;
        }
    }

    private String string()
    {
        at++;
        final StringBuilder out = new StringBuilder();
        while (true)
        {
            if (at >= text.length())
            {
                throw malformed("a string is not closed");
            }
            final char c = text.charAt(at++);
            if (c == '"')
            {
                return out.toString();
            }
            if (c < 0x20)
            {
                throw malformed("a control character inside a string");
            }
            if (c != '\\')
            {
                out.append(c);
                continue;
            }
            if (at >= text.length())
            {
                throw malformed("a string ends in an escape");
            }
            final char escaped = text.charAt(at++);
            switch (escaped)
            {
                case '"', '\\', '/' -> out.append(escaped);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> out.append(unicodeEscape());
                default -> throw malformed("unknown escape \\" + escaped);
            }
        }
    }

    private char unicodeEscape()
    {
        if (at + 4 > text.length())
        {
            throw malformed("a \\u escape needs four hex digits");
        }
        int value = 0;
        for (int i = 0; i < 4; i++)
        {
            final int digit = Character.digit(text.charAt(at++), 16);
            if (digit < 0)
            {
                throw malformed("a \\u escape needs four hex digits");
            }
            value = value * 16 + digit;
        }
        return (char)value;
    }

    private BigDecimal number()
    {
        final int start = at;
        if (peek() == '-')
        {
            at++;
        }
        if (!digits())
        {
            throw malformed("a number needs digits");
        }
        if (peek() == '.')
        {
            at++;
            if (!digits())
            {
                throw malformed("a fraction needs digits");
            }
        }
        if (peek() == 'e' || peek() == 'E')
        {
            at++;
            if (peek() == '+' || peek() == '-')
            {
                at++;
            }
            if (!digits())
            {
                throw malformed("an exponent needs digits");
            }
        }
        try
        {
            return new BigDecimal(text.substring(start, at));
        }
        catch (final NumberFormatException ex)
        {
            throw malformed("a number out of range");
        }
    }

    private boolean digits()
    {
        final int start = at;
        while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9')
        {
            at++;
        }
        return at > start;
    }

    private Object word(final String word, final Object value)
    {
        if (!text.startsWith(word, at))
        {
            throw malformed("unexpected '" + text.charAt(at) + "'");
        }
        at += word.length();
        return value;
    }

    private char peek()
    {
        return at < text.length() ? text.charAt(at) : '\0';
    }

    private void expect(final char c)
    {
        if (peek() != c)
        {
            throw malformed("expected '" + c + "'");
        }
        at++;
    }

    private void skipSpace()
    {
        while (at < text.length())
        {
            final char c = text.charAt(at);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            {
                return;
            }
            at++;
        }
    }

    private SqsException malformed(final String why)
    {
        return SqsError.MALFORMED_REQUEST.with("the request body is not valid JSON: " + why + " at character " + at);
    }

    /** Appends {@code value} as a JSON string. */
    static void writeString(final StringBuilder out, final String value)
    {
        out.append('"');
        for (int i = 0; i < value.length(); i++)
        {
            final char c = value.charAt(i);
            switch (c)
            {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default ->
                {
                    if (c < 0x20)
                    {
                        out.append(String.format("\\u%04x", (int)c));
                    }
                    else
                    {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
