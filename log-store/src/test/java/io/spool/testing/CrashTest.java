package io.spool.testing;

import org.junit.jupiter.api.Tag;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a test that forks a child JVM and kills it: the crash tier, which the fast build ({@code -Pfast}) leaves out
 * because every fork pays a JVM start and the child's own warm-up.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag(TestTiers.CRASH)
public @interface CrashTest
{
}
