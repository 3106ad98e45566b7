package io.spool.model;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The most actions a stateful property runs per sequence (its chain's {@code withMaxTransformations}), so that
 * {@link SeededRuns} can turn a soak's budget of actions into tries.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@interface ActionsPerSequence
{
    int value();
}
