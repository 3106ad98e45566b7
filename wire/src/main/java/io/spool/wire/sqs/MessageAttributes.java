package io.spool.wire.sqs;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A message's SQS attributes, kept as headers of its record so that a stream reader (or a consumer over the native
 * protocol) sees them as headers and a message published with headers shows them as attributes: an attribute's
 * header is its name, holding the value's bytes (UTF-8 text for String and Number, the bytes themselves for
 * Binary); the data types other than plain {@code String} are listed in the {@link #TYPES_HEADER} header. Header
 * names beginning with {@code x-} are Spool's own and are neither shown as attributes nor accepted as their names.
 * Also the MD5 digests SQS answers with, computed as SQS computes them. Stateless and thread-safe.
 */
final class MessageAttributes
{
    /** Data types other than {@code String}, as {@code name:type} pairs joined by commas. */
    static final String TYPES_HEADER = "x-sqs-types";
    static final int MAX_ATTRIBUTES = 10;
    private static final int MAX_NAME_LENGTH = 256;
    private static final int MAX_TYPE_LENGTH = 256;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]+");
    private static final Pattern TYPE = Pattern.compile("(String|Number|Binary)(\\..+)?");
    private static final byte STRING_TRANSPORT = 1;
    private static final byte BINARY_TRANSPORT = 2;

    /** One attribute: its data type and value, text or bytes. */
    record Value(String dataType, String text, byte[] bytes)
    {
        boolean isBinary()
        {
            return dataType.startsWith("Binary");
        }

        byte[] valueBytes()
        {
            return isBinary() ? bytes : text.getBytes(StandardCharsets.UTF_8);
        }

        /** What the attribute adds to the message's size, as SQS counts it: name, type and value. */
        int size(final String name)
        {
            return name.getBytes(StandardCharsets.UTF_8).length + dataType.length() + valueBytes().length;
        }

        Answer answer()
        {
            final Answer answer = new Answer().put("DataType", dataType);
            return isBinary() ? answer.put("BinaryValue", Base64.getEncoder().encodeToString(bytes)) :
                answer.put("StringValue", text);
        }
    }

    private MessageAttributes()
    {
    }

    /**
     * Reads and checks the attributes of a send.
     *
     * @param what the parameter, for errors ({@code MessageAttributes} or {@code MessageSystemAttributes})
     * @throws SqsException naming the first attribute that is not valid.
     */
    static Map<String, Value> read(final Map<String, Object> given, final String what)
    {
        if (given.size() > MAX_ATTRIBUTES)
        {
            throw SqsError.INVALID_PARAMETER_VALUE.with("Number of message attributes [" + given.size() +
                "] exceeds the allowed maximum [" + MAX_ATTRIBUTES + "].");
        }
        final Map<String, Value> out = new LinkedHashMap<>();
        for (final Map.Entry<String, Object> entry : given.entrySet())
        {
            final String name = entry.getKey();
            checkName(name);
            final Params value = Params.of(entry.getValue(), what + " " + name);
            final String type = value.string("DataType");
            if (type == null || type.isEmpty())
            {
                throw SqsError.INVALID_PARAMETER_VALUE.with("The message attribute '" + name +
                    "' must contain non-empty message attribute type.");
            }
            if (type.length() > MAX_TYPE_LENGTH || !TYPE.matcher(type).matches())
            {
                throw SqsError.INVALID_PARAMETER_VALUE.with("The type of message attribute '" + name +
                    "' is invalid: " + type + " (String, Number or Binary, with an optional .label)");
            }
            if (value.has("StringListValues") || value.has("BinaryListValues"))
            {
                throw SqsError.INVALID_PARAMETER_VALUE.with("Message attribute list values are not supported " +
                    "(attribute '" + name + "'), as in SQS.");
            }
            out.put(name, type.startsWith("Binary") ? binary(name, type, value) : text(name, type, value));
        }
        return out;
    }

    private static void checkName(final String name)
    {
        final String lower = name.toLowerCase(Locale.ROOT);
        if (name.isEmpty() || name.length() > MAX_NAME_LENGTH || !NAME.matcher(name).matches() ||
            name.startsWith(".") || name.endsWith(".") || name.contains(".."))
        {
            throw SqsError.INVALID_PARAMETER_VALUE.with("Message attribute name '" + name + "' is invalid: 1 to " +
                MAX_NAME_LENGTH + " of A-Z a-z 0-9 _ - . (no leading, trailing or doubled period).");
        }
        if (lower.startsWith("aws.") || lower.startsWith("amazon."))
        {
            throw SqsError.INVALID_PARAMETER_VALUE.with("Message attribute name '" + name +
                "' is reserved for use by Amazon.");
        }
        if (lower.startsWith("x-"))
        {
            throw SqsError.INVALID_PARAMETER_VALUE.with("Message attribute name '" + name +
                "' is reserved: Spool keeps its own headers under names beginning with x-.");
        }
    }

    private static Value text(final String name, final String type, final Params value)
    {
        final String text = value.string("StringValue");
        if (text == null || text.isEmpty())
        {
            throw SqsError.INVALID_PARAMETER_VALUE.with("The message attribute '" + name +
                "' must contain non-empty message attribute value for message attribute type '" + type + "'.");
        }
        if (type.startsWith("Number"))
        {
            try
            {
                new BigDecimal(text.trim());
            }
            catch (final NumberFormatException ex)
            {
                throw SqsError.INVALID_PARAMETER_VALUE.with("Can't cast the value of message (user) attribute '" +
                    name + "' to a number.");
            }
        }
        SendChecks.checkCharacters(text, "message attribute '" + name + "'");
        return new Value(type, text, null);
    }

    private static Value binary(final String name, final String type, final Params value)
    {
        final String encoded = value.string("BinaryValue");
        if (encoded == null || encoded.isEmpty())
        {
            throw SqsError.INVALID_PARAMETER_VALUE.with("The message attribute '" + name +
                "' must contain non-empty message attribute value for message attribute type '" + type + "'.");
        }
        try
        {
            return new Value(type, null, Base64.getDecoder().decode(encoded));
        }
        catch (final IllegalArgumentException ex)
        {
            throw SqsError.INVALID_PARAMETER_VALUE.with("The binary value of message attribute '" + name +
                "' is not base64: " + ex.getMessage());
        }
    }

    /** Adds the attributes as headers. */
    static void toHeaders(final Map<String, Value> attributes, final Map<String, byte[]> headers)
    {
        final StringBuilder types = new StringBuilder();
        for (final Map.Entry<String, Value> attribute : attributes.entrySet())
        {
            headers.put(attribute.getKey(), attribute.getValue().valueBytes());
            if (!attribute.getValue().dataType().equals("String"))
            {
                types.append(types.length() == 0 ? "" : ",").append(attribute.getKey()).append(':')
                    .append(attribute.getValue().dataType());
            }
        }
        if (types.length() > 0)
        {
            headers.put(TYPES_HEADER, types.toString().getBytes(StandardCharsets.UTF_8));
        }
    }

    /** The attributes a record's headers hold: every header not named {@code x-...}. */
    static Map<String, Value> fromHeaders(final Map<String, byte[]> headers)
    {
        final Map<String, String> types = new TreeMap<>();
        final byte[] listed = headers.get(TYPES_HEADER);
        if (listed != null)
        {
            for (final String pair : new String(listed, StandardCharsets.UTF_8).split(","))
            {
                final int colon = pair.indexOf(':');
                if (colon > 0)
                {
                    types.put(pair.substring(0, colon), pair.substring(colon + 1));
                }
            }
        }
        final Map<String, Value> out = new LinkedHashMap<>();
        for (final Map.Entry<String, byte[]> header : headers.entrySet())
        {
            final String name = header.getKey();
            if (name.length() >= 2 && name.regionMatches(true, 0, "x-", 0, 2))
            {
                continue;
            }
            final String type = types.get(name);
            final byte[] bytes = header.getValue();
            final String text = type != null && type.startsWith("Binary") ? null : utf8(bytes);
            if (text == null)
            {
                out.put(name, new Value(type != null ? type : "Binary", null, bytes));
            }
            else
            {
                out.put(name, new Value(type != null ? type : "String", text, null));
            }
        }
        return out;
    }

    /** The bytes as UTF-8 text, or null when they are not. */
    private static String utf8(final byte[] bytes)
    {
        try
        {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        }
        catch (final CharacterCodingException ex)
        {
            return null;
        }
    }

    /**
     * SQS's MD5OfMessageAttributes: over the attributes sorted by name, each as its name, its data type (each a
     * 4-byte big-endian length and UTF-8 bytes), a transport byte (1 text, 2 binary) and its value (length and
     * bytes); null when there are none.
     */
    static String md5(final Map<String, Value> attributes)
    {
        if (attributes.isEmpty())
        {
            return null;
        }
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (final Map.Entry<String, Value> attribute : new TreeMap<>(attributes).entrySet())
        {
            final Value value = attribute.getValue();
            lengthAndBytes(out, attribute.getKey().getBytes(StandardCharsets.UTF_8));
            lengthAndBytes(out, value.dataType().getBytes(StandardCharsets.UTF_8));
            out.write(value.isBinary() ? BINARY_TRANSPORT : STRING_TRANSPORT);
            lengthAndBytes(out, value.valueBytes());
        }
        return md5Hex(out.toByteArray());
    }

    private static void lengthAndBytes(final ByteArrayOutputStream out, final byte[] bytes)
    {
        out.write(bytes.length >>> 24);
        out.write(bytes.length >>> 16);
        out.write(bytes.length >>> 8);
        out.write(bytes.length);
        out.writeBytes(bytes);
    }

    /** The lower-case hex MD5 of the bytes, as MD5OfMessageBody is. */
    static String md5Hex(final byte[] bytes)
    {
        try
        {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(bytes));
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("this JVM has no MD5, which every Java platform must have", ex);
        }
    }
}
