package io.spool.wire.client;

import io.netty.buffer.ByteBuf;
import io.spool.api.log.HeadersCodec;
import io.spool.api.routing.Binding;
import io.spool.api.routing.Exchange;
import io.spool.api.routing.ExchangeType;
import io.spool.wire.ExchangeDescriptor;
import io.spool.wire.Fields;
import io.spool.wire.FrameDescriptor;
import io.spool.wire.OpCode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The server's exchanges, with the embedded {@code Exchanges}' calls and exceptions. Thread-safe.
 */
public final class RemoteExchanges
{
    private final ClientConnection connection;

    RemoteExchanges(final ClientConnection connection)
    {
        this.connection = connection;
    }

    /** Declares an exchange; the same declaration again is a no-op, a different one is refused. */
    public void declare(final String name, final ExchangeType type, final String alternateExchange)
    {
        final ByteBuf out = begin(OpCode.DECLARE_EXCHANGE);
        Fields.writeString(out, name);
        out.writeByte(type.ordinal());
        Fields.writeString(out, alternateExchange == null ? "" : alternateExchange);
        call(out, body -> null);
    }

    /** @return whether the exchange existed. */
    public boolean delete(final String name)
    {
        final ByteBuf out = begin(OpCode.DELETE_EXCHANGE);
        Fields.writeString(out, name);
        return call(out, body -> body.readUnsignedByte() != 0);
    }

    /** Binds; the binding is read as the exchange's type (a direct key, a topic pattern, headers). */
    public void bind(final String exchange, final Binding binding)
    {
        final ByteBuf out = begin(OpCode.BIND);
        Fields.writeString(out, exchange);
        ExchangeDescriptor.encodeBinding(out, binding);
        call(out, body -> null);
    }

    /** @return whether the binding existed. */
    public boolean unbind(final String exchange, final Binding binding)
    {
        final ByteBuf out = begin(OpCode.UNBIND);
        Fields.writeString(out, exchange);
        ExchangeDescriptor.encodeBinding(out, binding);
        return call(out, body -> body.readUnsignedByte() != 0);
    }

    /** Copies of every exchange with its bindings. */
    public List<Exchange> list()
    {
        return call(begin(OpCode.LIST_EXCHANGES), body ->
        {
            final int count = body.readIntLE();
            final List<Exchange> exchanges = new ArrayList<>(Math.max(0, count));
            for (int i = 0; i < count; i++)
            {
                exchanges.add(ExchangeDescriptor.decodeExchange(body));
            }
            return exchanges;
        });
    }

    /** Where a message with this routing key and these headers would go (alternate exchanges included). */
    public Route route(final String exchange, final String routingKey, final Map<String, byte[]> headers)
    {
        final ByteBuf out = begin(OpCode.ROUTE);
        Fields.writeString(out, exchange);
        Fields.writeString(out, routingKey);
        Fields.writeBytes(out, headers.isEmpty() ? new byte[0] : HeadersCodec.encode(headers));
        return call(out, body ->
        {
            final boolean viaAlternate = body.readUnsignedByte() != 0;
            final int count = body.readIntLE();
            final List<String> subscriptions = new ArrayList<>(Math.max(0, count));
            for (int i = 0; i < count; i++)
            {
                subscriptions.add(Fields.readString(body));
            }
            return new Route(List.copyOf(subscriptions), viaAlternate);
        });
    }

    private ByteBuf begin(final int opCode)
    {
        final ByteBuf out = connection.alloc().ioBuffer(128);
        FrameDescriptor.begin(out, opCode, 0, 0);
        return out;
    }

    private <T> T call(final ByteBuf frame, final java.util.function.Function<ByteBuf, T> decoder)
    {
        FrameDescriptor.finish(frame, 0);
        return connection.call(frame, decoder, 0);
    }

    /**
     * The subscriptions a message would reach, and whether an alternate exchange took it; no subscription means
     * unroutable. Immutable, thread-safe.
     */
    public record Route(List<String> subscriptions, boolean viaAlternate)
    {
        public boolean isUnroutable()
        {
            return subscriptions.isEmpty();
        }
    }
}
