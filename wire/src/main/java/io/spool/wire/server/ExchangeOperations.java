package io.spool.wire.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.spool.api.routing.Exchange;
import io.spool.api.routing.ExchangeType;
import io.spool.queue.Router;
import io.spool.queue.routing.Exchanges;
import io.spool.wire.ExchangeDescriptor;
import io.spool.wire.Fields;
import io.spool.wire.OpCode;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * The exchange operations: declare, delete, bind, unbind, list and route, answered from the admin executor.
 * Thread-safe.
 */
final class ExchangeOperations
{
    private final Router router;
    private final Executor executor;

    ExchangeOperations(final Router router, final Executor executor)
    {
        this.router = router;
        this.executor = executor;
    }

    static boolean handles(final int opCode)
    {
        return opCode >= OpCode.DECLARE_EXCHANGE && opCode <= OpCode.ROUTE;
    }

    void handle(final Channel channel, final int opCode, final long correlationId, final ByteBuf body)
    {
        switch (opCode)
        {
            case OpCode.DECLARE_EXCHANGE:
            {
                final String name = Fields.readString(body);
                final ExchangeType type = ExchangeDescriptor.decodeType(body);
                final String alternate = Fields.readString(body);
                Fields.expectEnd(body);
                answer(channel, opCode, correlationId,
                    out -> router.declare(name, type, alternate.isEmpty() ? null : alternate));
                break;
            }
            case OpCode.DELETE_EXCHANGE:
            {
                final String name = Fields.readString(body);
                Fields.expectEnd(body);
                answer(channel, opCode, correlationId, out -> out.writeByte(router.delete(name) ? 1 : 0));
                break;
            }
            case OpCode.BIND:
            case OpCode.UNBIND:
            {
                final Exchange exchange = router.exchange(Fields.readString(body));
                final io.spool.api.routing.Binding binding = ExchangeDescriptor.decodeBinding(body, exchange.type());
                Fields.expectEnd(body);
                answer(channel, opCode, correlationId, out ->
                {
                    if (opCode == OpCode.BIND)
                    {
                        router.bind(exchange.name(), binding);
                    }
                    else
                    {
                        out.writeByte(router.unbind(exchange.name(), binding) ? 1 : 0);
                    }
                });
                break;
            }
            case OpCode.LIST_EXCHANGES:
            {
                Fields.expectEnd(body);
                answer(channel, opCode, correlationId, out ->
                {
                    final Collection<Exchange> all = router.exchanges().all();
                    out.writeIntLE(all.size());
                    all.forEach(exchange -> ExchangeDescriptor.encodeExchange(out, exchange));
                });
                break;
            }
            default:
            {
                final String exchange = Fields.readString(body);
                final String routingKey = Fields.readString(body);
                final Map<String, byte[]> headers = ExchangeDescriptor.decodeHeaders(body);
                Fields.expectEnd(body);
                answer(channel, opCode, correlationId, out ->
                {
                    final Exchanges.RouteResult route = router.exchanges().route(exchange, routingKey, headers);
                    out.writeByte(route.viaAlternate() ? 1 : 0);
                    out.writeIntLE(route.subscriptions().size());
                    route.subscriptions().forEach(name -> Fields.writeString(out, name));
                });
                break;
            }
        }
    }

    private void answer(final Channel channel, final int opCode, final long correlationId,
        final java.util.function.Consumer<ByteBuf> work)
    {
        executor.execute(() ->
            channel.writeAndFlush(AdminOperations.respond(channel, opCode, correlationId, work), channel.voidPromise()));
    }
}
