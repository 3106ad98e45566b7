package io.spool.model;

import java.util.Arrays;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs a queue property sequence from the step names jqwik printed for it (a failing run's shrunk or original
 * sequence), checking what the property checks after every step, so that a failure can be replayed as a test
 * whatever the property's generators have become since. Each name is matched whole against the names
 * {@link QueueProperties} gives its actions.
 */
final class QueueSteps
{
    private record Step(Pattern name, BiConsumer<QueueSystem, Matcher> run)
    {
    }

    private static final List<Step> STEPS = List.of(
        step("publish with keys \\[(.*)\\]", (s, m) -> s.publishByKey(
            Arrays.stream(m.group(1).split(", ")).map(Integer::valueOf).toList())),
        step("publish to partition (\\d+) living (\\d+) ms", (s, m) ->
            s.publishWithTimeToLive(number(m, 1), Long.parseLong(m.group(2)))),
        step("publish to partition (\\d+)", (s, m) -> s.publishToPartition(number(m, 1))),
        step("publish with dedup id (\\S+)", (s, m) -> s.publishWithDedupId(m.group(1))),
        step("publish in group (\\S+)", (s, m) -> s.publishInGroup(m.group(1))),
        step("repeat the publish (\\d+) back", (s, m) -> s.repeatPublish(number(m, 1))),
        step("receive (\\d+)", (s, m) -> s.consumers.receive(number(m, 1))),
        step("ack receipt (\\d+) back with the next delivery number", (s, m) -> s.consumers.ackForged(number(m, 1))),
        step("ack receipt (\\d+) back of the (audit subscription through the first|first subscription through the audit)",
            (s, m) -> s.consumers.ackOtherSubscriptionsReceipt(
                2 * number(m, 1) + (m.group(2).startsWith("audit") ? 0 : 1))),
        step("ack receipt (\\d+) back through the push consumer", (s, m) -> s.consumers.ackAnyThroughPush(number(m, 1))),
        step("reject receipt (\\d+) back and crash at once", (s, m) -> s.consumers.rejectAndCrash(number(m, 1))),
        step("(ack|nack with delay|nack|reject|extend) receipt (\\d+) back(?: (\\d+) ms)?", (s, m) ->
            s.consumers.settle(m.group(1), number(m, 2), m.group(3) == null ? 0 : Long.parseLong(m.group(3)))),
        step("ack in a batch what the pull consumer holds and the (\\d+) newest receipts",
            (s, m) -> s.consumers.ackInBatch(number(m, 1))),
        step("advance clock (\\d+) ms", (s, m) -> s.advanceClock(Long.parseLong(m.group(1)))),
        step("open a push consumer with prefetch (\\d+), or close the open one",
            (s, m) -> s.consumers.openOrClosePushConsumer(number(m, 1))),
        step("ack push delivery (\\d+) back through the push consumer", (s, m) -> s.consumers.ackThroughPush(number(m, 1))),
        step("audit receives (\\d+)", (s, m) -> s.consumers.auditReceive(number(m, 1))),
        step("audit ack|audit acks everything it holds", (s, m) -> s.consumers.auditAck()),
        step("run maintenance", (s, m) -> s.runMaintenance()),
        step("restart", (s, m) -> s.restart()),
        step("crash", (s, m) -> s.crash()));

    private QueueSteps()
    {
    }

    /** Runs {@code steps} on a fresh engine and model under {@code settings}, checked after each. */
    static void replay(final QueueSystem.Settings settings, final List<String> steps)
    {
        final QueueSystem system = new QueueSystem(settings);
        try
        {
            system.checkObservableState();
            for (int i = 0; i < steps.size(); i++)
            {
                try
                {
                    run(system, steps.get(i).trim());
                    system.checkObservableState();
                }
                catch (final AssertionError ex)
                {
                    throw new AssertionError("step " + (i + 1) + " of " + steps.size() + ", \"" + steps.get(i) +
                        "\": " + ex.getMessage() + "\n" + system, ex);
                }
            }
        }
        finally
        {
            system.destroy();
        }
    }

    private static void run(final QueueSystem system, final String name)
    {
        for (final Step step : STEPS)
        {
            final Matcher matcher = step.name.matcher(name);
            if (matcher.matches())
            {
                step.run.accept(system, matcher);
                return;
            }
        }
        throw new IllegalArgumentException("no queue property action is named \"" + name + "\"");
    }

    private static Step step(final String name, final BiConsumer<QueueSystem, Matcher> run)
    {
        return new Step(Pattern.compile(name), run);
    }

    private static int number(final Matcher matcher, final int group)
    {
        return Integer.parseInt(matcher.group(group));
    }
}
