package io.spool.wire;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;

import javax.net.ssl.SSLException;
import java.nio.file.Path;

/**
 * Builds the TLS contexts of both ends from PEM files, on the JDK's own TLS (no native library, no other
 * dependency): the server's from its certificate chain and unencrypted PKCS#8 private key, the client's from the
 * certificates it trusts. The client checks that the server's certificate names the host it connects to. Stateless,
 * thread-safe.
 */
public final class TlsContexts
{
    private TlsContexts()
    {
    }

    /**
     * @throws IllegalArgumentException when a file cannot be read or holds no usable certificate or key; the message
     *                                  names the files.
     */
    public static SslContext server(final Path certificateChain, final Path privateKey)
    {
        try
        {
            return SslContextBuilder.forServer(certificateChain.toFile(), privateKey.toFile())
                .sslProvider(SslProvider.JDK).build();
        }
        catch (final SSLException | IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("cannot serve TLS with the certificate chain " + certificateChain +
                " and the private key " + privateKey + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * @throws IllegalArgumentException when the file cannot be read or holds no certificate; the message names it.
     */
    public static SslContext client(final Path trustedCertificates)
    {
        try
        {
            return SslContextBuilder.forClient().trustManager(trustedCertificates.toFile())
                .endpointIdentificationAlgorithm("HTTPS").sslProvider(SslProvider.JDK).build();
        }
        catch (final SSLException | IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("cannot trust the certificates in " + trustedCertificates + ": " +
                ex.getMessage(), ex);
        }
    }
}
