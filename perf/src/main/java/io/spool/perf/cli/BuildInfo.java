package io.spool.perf.cli;

import picocli.CommandLine.IVersionProvider;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

/**
 * The version and git commit this build of Spool was made from, as the build wrote them into the jar; {@code
 * unknown} for either when the build could not tell. Immutable, thread-safe.
 */
record BuildInfo(String version, String commit)
{
    private static final String UNKNOWN = "unknown";

    /** This build's. */
    static BuildInfo current()
    {
        final Properties build = new Properties();
        String commit = UNKNOWN;
        try (InputStream properties = BuildInfo.class.getResourceAsStream("build.properties");
             InputStream commitFile = BuildInfo.class.getResourceAsStream("commit.txt"))
        {
            if (properties != null)
            {
                build.load(properties);
            }
            if (commitFile != null)
            {
                final String written = new String(commitFile.readAllBytes(), StandardCharsets.UTF_8).strip();
                commit = written.isEmpty() ? UNKNOWN : written;
            }
        }
        catch (final IOException ex)
        {
            // a jar that cannot be read here could not have started this class: report what is known
        }
        return new BuildInfo(build.getProperty("version", UNKNOWN), commit);
    }

    /** {@code spool --version}: the version, the commit and the Java it runs on. */
    static final class Provider implements IVersionProvider
    {
        @Override
        public String[] getVersion()
        {
            final BuildInfo build = current();
            return new String[]{"spool " + build.version() + " (commit " + build.commit() + ")",
                "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + "), " +
                    System.getProperty("os.name") + " " + System.getProperty("os.arch")};
        }
    }
}
