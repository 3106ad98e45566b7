package io.spool.wire.client;

import io.netty.buffer.ByteBuf;

/**
 * Receives the answer to one request on the connection's event loop. Implementations must not block.
 */
interface ResponseHandler
{
    /** The response body, readable from the reader index; valid only during the call. */
    void onResponse(ByteBuf body);

    /** The error reply, rebuilt as the engine's exception, or a {@link io.spool.wire.ConnectionLostException}. */
    void onError(RuntimeException error);
}
