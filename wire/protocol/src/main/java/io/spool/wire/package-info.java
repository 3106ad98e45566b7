/**
 * Spool's native protocol, shared by the client and the server: frame layout and op codes, the descriptors that
 * encode and decode each request and answer, error codes, handshake, heartbeats, TLS and transport choice.
 * <p>
 * API only in its exceptions ({@link io.spool.wire.ConnectionLostException},
 * {@link io.spool.wire.AuthenticationException}, ...), which reach applications through the client; the rest is for
 * the client and the server. Stateless codecs, safe from any thread.
 */
package io.spool.wire;
