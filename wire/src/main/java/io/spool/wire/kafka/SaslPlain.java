package io.spool.wire.kafka;

import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslAuthenticateResponseData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.message.SaslHandshakeResponseData;
import org.apache.kafka.common.protocol.Errors;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;

/**
 * SASL/PLAIN carrying the listener's token as the password (any user name), the Kafka way of presenting a shared
 * secret: {@code security.protocol=SASL_PLAINTEXT} (or {@code SASL_SSL} with TLS) and {@code sasl.mechanism=PLAIN}.
 * A wrong token is answered with SASL_AUTHENTICATION_FAILED and the connection is closed. Stateless apart from the
 * token; thread-safe.
 */
final class SaslPlain
{
    static final String MECHANISM = "PLAIN";

    private final byte[] token;

    SaslPlain(final String token)
    {
        this.token = token == null ? null : token.getBytes(StandardCharsets.UTF_8);
    }

    void handshake(final KafkaRequest request)
    {
        final SaslHandshakeRequestData body = request.body();
        final SaslHandshakeResponseData response = new SaslHandshakeResponseData().setMechanisms(List.of(MECHANISM));
        if (!MECHANISM.equals(body.mechanism()))
        {
            request.respond(response.setErrorCode(Errors.UNSUPPORTED_SASL_MECHANISM.code()));
            return;
        }
        request.connection().state().handshakeDone(true);
        request.respond(response);
    }

    void authenticate(final KafkaRequest request)
    {
        final SaslAuthenticateRequestData body = request.body();
        final ConnectionState state = request.connection().state();
        if (!state.handshakeDone())
        {
            request.connection().close("SaslAuthenticate without a SaslHandshake");
            request.completeSilently();
            return;
        }
        if (token == null || passwordMatches(body.authBytes()))
        {
            state.authenticated();
            request.respond(new SaslAuthenticateResponseData().setAuthBytes(new byte[0]));
            return;
        }
        request.connection().closeAfterAnswers("a client presented a wrong token over SASL/PLAIN");
        request.respond(new SaslAuthenticateResponseData().setErrorCode(Errors.SASL_AUTHENTICATION_FAILED.code())
            .setErrorMessage("the password is not this listener's token"));
    }

    /** PLAIN's message is {@code authzid NUL authcid NUL password}; only the password is checked. */
    private boolean passwordMatches(final byte[] message)
    {
        int separator = -1;
        for (int i = message.length - 1; i >= 0; i--)
        {
            if (message[i] == 0)
            {
                separator = i;
                break;
            }
        }
        if (separator < 0)
        {
            return false;
        }
        final byte[] password = java.util.Arrays.copyOfRange(message, separator + 1, message.length);
        return MessageDigest.isEqual(password, token);
    }
}
