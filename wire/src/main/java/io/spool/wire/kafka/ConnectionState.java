package io.spool.wire.kafka;

import io.spool.Spool;
import io.spool.SpoolProducer;

/**
 * What one connection has established: whether SASL authentication succeeded (or was not needed), whether the
 * SASL handshake chose PLAIN, and the producer its produce requests publish through. Touched only on the
 * connection's event loop (the producer is one per publishing thread).
 */
final class ConnectionState
{
    private boolean authenticated;
    private boolean handshakeDone;
    private SpoolProducer producer;

    ConnectionState(final boolean authenticated)
    {
        this.authenticated = authenticated;
    }

    boolean isAuthenticated()
    {
        return authenticated;
    }

    void authenticated()
    {
        authenticated = true;
    }

    boolean handshakeDone()
    {
        return handshakeDone;
    }

    void handshakeDone(final boolean done)
    {
        handshakeDone = done;
    }

    SpoolProducer producer(final Spool engine)
    {
        if (producer == null)
        {
            producer = engine.newProducer();
        }
        return producer;
    }
}
