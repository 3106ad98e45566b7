package io.spool.testing;

/**
 * The JUnit tags of the test tiers. The root pom's {@code fast} profile excludes both by name, so a new tier is
 * added here and there together.
 */
public final class TestTiers
{
    /** Forks a child JVM and kills it ({@link CrashTest}). */
    public static final String CRASH = "crash";
    /** Takes seconds ({@link SlowTest}). */
    public static final String SLOW = "slow";

    private TestTiers()
    {
    }
}
