package io.spool.wire.client;

import io.netty.buffer.ByteBuf;

/**
 * Receives the frames the server sends on its own for one consumer tag, on the connection's event loop.
 */
interface PushHandler
{
    /** A frame of {@code opCode} (DELIVERY, SETTLEMENT_REFUSED or LOCK_EXPIRED), valid only during the call. */
    void onPush(int opCode, ByteBuf body);
}
