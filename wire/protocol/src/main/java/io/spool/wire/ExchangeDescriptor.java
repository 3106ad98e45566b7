package io.spool.wire;

import io.netty.buffer.ByteBuf;
import io.spool.api.log.HeadersCodec;
import io.spool.api.routing.Binding;
import io.spool.api.routing.Exchange;
import io.spool.api.routing.ExchangeType;
import io.spool.api.routing.HeadersMatch;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Map;

/**
 * Bodies of the exchange operations. Strings are a uint16 byte count and UTF-8 bytes; headers are a byte field
 * (int32 length, bytes encoded by {@code HeadersCodec}).
 * <pre>
 *  Binding (read as its exchange's type)          DECLARE_EXCHANGE: Name, Type (int8: 0 direct, 1 topic,
 *  +-----------------------------------+            2 fanout, 3 headers), Alternate (string, "" = none)
 *  | Subscription (string)             |          DELETE_EXCHANGE: Name; response: Existed (int8)
 *  |                                   |          BIND: Exchange, Binding; response: empty
 *  | Key or Pattern (string)           |          UNBIND: Exchange, Binding; response: Existed (int8)
 *  | Headers Mode (int8: 0 all, 1 any) |          LIST_EXCHANGES: empty; response: Count (int32), then per
 *  | Required Headers (headers)        |            exchange: Name, Type, Alternate, Binding Count (int32),
 *  +-----------------------------------+            Bindings
 *                                                 ROUTE: Exchange, Routing Key (string), Headers; response:
 *                                                   Via Alternate (int8), Count (int32), Subscriptions
 * </pre>
 * <p>
 * Stateless, thread-safe.
 */
public final class ExchangeDescriptor
{
    private ExchangeDescriptor()
    {
    }

    public static ExchangeType decodeType(final ByteBuf in)
    {
        final int type = in.readUnsignedByte();
        if (type >= ExchangeType.values().length)
        {
            throw new IllegalArgumentException("unknown exchange type " + type);
        }
        return ExchangeType.values()[type];
    }

    public static void encodeBinding(final ByteBuf out, final Binding binding)
    {
        Fields.writeString(out, binding.subscription());
        Fields.writeString(out, binding.key());
        final HeadersMatch match = binding.headers();
        out.writeByte(match == null ? 0 : match.mode().ordinal());
        Fields.writeBytes(out, match == null ? new byte[0] : HeadersCodec.encode(match.required()));
    }

    /**
     * @throws IllegalArgumentException for a bad pattern, headers mode or header set.
     */
    public static Binding decodeBinding(final ByteBuf in, final ExchangeType kind)
    {
        final String subscription = Fields.readString(in);
        final String key = Fields.readString(in);
        final int mode = in.readUnsignedByte();
        final Map<String, byte[]> headers = decodeHeaders(in);
        switch (kind)
        {
            case DIRECT:
                return Binding.direct(subscription, key);
            case TOPIC:
                return Binding.topic(subscription, key);
            case FANOUT:
                return Binding.fanout(subscription);
            default:
                if (mode >= HeadersMatch.Mode.values().length)
                {
                    throw new IllegalArgumentException("unknown headers match mode " + mode);
                }
                return Binding.headers(subscription, new HeadersMatch(HeadersMatch.Mode.values()[mode], headers));
        }
    }

    public static void encodeExchange(final ByteBuf out, final Exchange exchange)
    {
        Fields.writeString(out, exchange.name());
        out.writeByte(exchange.type().ordinal());
        Fields.writeString(out, exchange.alternateExchange() == null ? "" : exchange.alternateExchange());
        out.writeIntLE(exchange.bindings().size());
        for (final Binding binding : exchange.bindings())
        {
            encodeBinding(out, binding);
        }
    }

    public static Exchange decodeExchange(final ByteBuf in)
    {
        final String name = Fields.readString(in);
        final ExchangeType type = decodeType(in);
        final String alternate = Fields.readString(in);
        final Exchange exchange = new Exchange(name, type, alternate.isEmpty() ? null : alternate);
        final int count = in.readIntLE();
        for (int i = 0; i < count; i++)
        {
            exchange.bind(decodeBinding(in, type));
        }
        return exchange;
    }

    public static Map<String, byte[]> decodeHeaders(final ByteBuf in)
    {
        final byte[] encoded = Fields.readBytes(in);
        return encoded == null || encoded.length == 0 ? Map.of() :
            HeadersCodec.decode(new UnsafeBuffer(encoded), 0, encoded.length);
    }
}
