package io.spool.model;

import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs a stateful property under the seed of {@code -Djqwik.seed=...} when one is given, so that any seed a run
 * printed replays with one command; under {@code -Dspool.soak.actions=N} (the {@code soak} profile) runs enough
 * tries for at least N actions, by the property's {@link ActionsPerSequence}; and prints how many sequences and
 * actions the property ran, how long it took, and the seed to replay it with. Properties run one at a time, so the
 * counts are plain statics.
 */
final class SeededRuns implements AroundPropertyHook
{
    static final String SEED_PROPERTY = "jqwik.seed";
    static final String SOAK_ACTIONS_PROPERTY = "spool.soak.actions";

    private static final AtomicLong SEQUENCES = new AtomicLong();
    private static final AtomicLong ACTIONS = new AtomicLong();

    /** Counts one sequence that ran {@code actions} actions (shrinking runs included). */
    static void ran(final int actions)
    {
        SEQUENCES.incrementAndGet();
        ACTIONS.addAndGet(actions);
    }

    @Override
    public PropertyExecutionResult aroundProperty(final PropertyLifecycleContext context,
        final PropertyExecutor property)
    {
        final String seed = System.getProperty(SEED_PROPERTY, "").trim();
        if (!seed.isEmpty())
        {
            context.attributes().setSeed(seed);
        }
        final long soakActions = Long.getLong(SOAK_ACTIONS_PROPERTY, 0);
        if (soakActions > 0)
        {
            final int perSequence = context.findAnnotation(ActionsPerSequence.class).orElseThrow(() ->
                new IllegalStateException(context.label() + " has no @ActionsPerSequence, so a soak cannot size it"))
                .value();
            context.attributes().setTries(Math.toIntExact((soakActions + perSequence - 1) / perSequence));
        }
        SEQUENCES.set(0);
        ACTIONS.set(0);
        final long start = System.nanoTime();
        final PropertyExecutionResult result = property.execute();
        System.out.printf("%s: %,d actions in %,d sequences in %,d s, seed %s (replay: -D%s=%s)%n",
            context.label(), ACTIONS.get(), SEQUENCES.get(), (System.nanoTime() - start) / 1_000_000_000L,
            result.seed().orElse("?"), SEED_PROPERTY, result.seed().orElse("?"));
        return result;
    }
}
