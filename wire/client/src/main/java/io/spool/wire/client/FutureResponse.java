package io.spool.wire.client;

import io.netty.buffer.ByteBuf;

import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * A response decoded into a value by {@code decoder} on the event loop and handed over as a future. Thread-safe.
 */
final class FutureResponse<T> extends CompletableFuture<T> implements ResponseHandler
{
    private final Function<ByteBuf, T> decoder;

    FutureResponse(final Function<ByteBuf, T> decoder)
    {
        this.decoder = decoder;
    }

    @Override
    public void onResponse(final ByteBuf body)
    {
        try
        {
            complete(decoder.apply(body));
        }
        catch (final RuntimeException ex)
        {
            completeExceptionally(ex);
        }
    }

    @Override
    public void onError(final RuntimeException error)
    {
        completeExceptionally(error);
    }
}
