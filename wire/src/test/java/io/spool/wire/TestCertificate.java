package io.spool.wire;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.util.Base64;

/**
 * A self-signed certificate and its private key for a test, made by the JDK's own {@code keytool} (so no library
 * and no committed key is needed) and written as PEM, the form the server and client read. Shared with the
 * command-line tests through wire's test jar.
 */
public record TestCertificate(Path certificate, Path privateKey)
{
    private static final String PASSWORD = "test-only";

    /**
     * @param subjectAlternativeNames the hosts the certificate names, as keytool takes them, for example
     *                                {@code ip:127.0.0.1,dns:localhost}.
     */
    public static TestCertificate generate(final Path directory, final String name, final String subjectAlternativeNames)
        throws Exception
    {
        final Path store = directory.resolve(name + ".p12");
        final Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
            "-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-sigalg", "SHA256withECDSA",
            "-dname", "CN=" + name, "-ext", "san=" + subjectAlternativeNames, "-validity", "2",
            "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD)
            .redirectErrorStream(true).start();
        final String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (keytool.waitFor() != 0)
        {
            throw new IllegalStateException("keytool failed: " + output);
        }
        final KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store))
        {
            keys.load(in, PASSWORD.toCharArray());
        }
        final Path certificate = directory.resolve(name + ".crt");
        final Path privateKey = directory.resolve(name + ".key");
        Files.writeString(certificate, pem("CERTIFICATE", keys.getCertificate(name).getEncoded()));
        Files.writeString(privateKey, pem("PRIVATE KEY", ((PrivateKey)keys.getKey(name, PASSWORD.toCharArray()))
            .getEncoded()));
        return new TestCertificate(certificate, privateKey);
    }

    private static String pem(final String type, final byte[] der)
    {
        return "-----BEGIN " + type + "-----\n" +
            Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der) +
            "\n-----END " + type + "-----\n";
    }
}
