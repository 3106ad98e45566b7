package io.spool.testing;

import org.junit.jupiter.api.Tag;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a test that takes seconds rather than milliseconds (real Kafka clients and their rebalances, forked JVMs that
 * are not killed, many rounds against real files): the slow tier, which the fast build ({@code -Pfast}) leaves out.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag(TestTiers.SLOW)
public @interface SlowTest
{
}
