package io.spool.model;

import io.spool.model.StreamModel.Partition;
import io.spool.stream.RangeAssignor;
import io.spool.stream.RoundRobinAssignor;
import io.spool.stream.StickyAssignor;
import io.spool.stream.StreamEngine;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.state.Transformer;

import java.util.List;


/**
 * Random sequences of publishes (by key, without a key, to a chosen partition), polls, seeks, commits, consumer
 * group joins and leaves, clock steps, expired sessions, and engine restarts and crashes, run against a
 * {@link StreamEngine} and against {@link StreamModel}; after every step end offsets, positions and committed offsets
 * of both agree.
 * <p>
 * Two kinds of reader: a consumer that assigned every partition by hand and keeps its offsets under group
 * {@value StreamSystem#REPLAY_GROUP}, and the members of group {@value StreamSystem#WORKERS_GROUP} sharing topic {@value StreamSystem#ORDERS}. After a
 * member joins or leaves, or every session expired, the members poll until the assignment stops moving, and it must
 * then hold every partition exactly once; a partition that changes hands continues at the group's committed offset.
 * A poll serves partitions in an order the engine picks, so the property checks what it may: every partition's
 * records continue exactly at the reader's position, and a poll that returned fewer than it could have left nothing
 * unread.
 */
class StreamProperties
{
    /** Actions per sequence at most. */
    private static final int MAX_ACTIONS = 60;
    private static final List<String> ACTIONS = List.of("publish by key", "publish without key",
        "publish to partition", "poll", "seek", "seek out of range", "seek to timestamp", "commit", "join", "leave",
        "member poll", "member commit", "advance clock", "sessions expire", "restart", "crash");

    /** The assignor of the sequence being run; a field so that shrinking a sequence keeps it. */
    private String assignor;

    /** The engine and model of the sequence being run. */
    private StreamSystem running;

    @Property
    @AddLifecycleHook(SeededRuns.class)
    @ActionsPerSequence(MAX_ACTIONS)
    void theStreamAgreesWithItsModel(@ForAll("assignors") final String assignor,
        @ForAll("chains") final ActionChain<StreamSystem> chain)
    {
        this.assignor = assignor;
        running = null;
        try
        {
            chain.withInvariant("end offsets, positions and committed offsets agree", StreamSystem::checkOffsets).run();
        }
        finally
        {
            SeededRuns.ran(chain.transformations().size());
            if (running != null)
            {
                running.destroy();
            }
        }
        CoverageChecks.require(running != null && running.restarts > 0, ACTIONS);
    }

    @Provide
    Arbitrary<String> assignors()
    {
        return Arbitraries.of(RangeAssignor.NAME, RoundRobinAssignor.NAME, StickyAssignor.NAME);
    }

    /** Opens the engine of a sequence and keeps it, so that it is closed even if the sequence fails at once. */
    private StreamSystem start()
    {
        running = new StreamSystem(assignor);
        return running;
    }

    @Provide
    Arbitrary<ActionChain<StreamSystem>> chains()
    {
        return ActionChain.startWith(this::start)
            .withAction(3, new PublishByKey())
            .withAction(1, new PublishWithoutKey())
            .withAction(1, new PublishToPartition())
            .withAction(3, new Poll())
            .withAction(1, new Seek())
            .withAction(1, new SeekToTimestamp())
            .withAction(1, Action.just("commit", Transformer.mutate("commit", StreamSystem::commit)))
            .withAction(2, Action.just("join", Transformer.mutate("join", StreamSystem::join)))
            .withAction(1, new Leave())
            .withAction(3, new MemberPoll())
            .withAction(1, new MemberCommit())
            .withAction(1, new AdvanceClock())
            .withAction(1, Action.just("sessions expire", Transformer.mutate("advance clock past the session timeout",
                StreamSystem::expireSessions)))
            .withAction(1, Action.just("restart", Transformer.mutate("restart", StreamSystem::restart)))
            .withAction(1, Action.just("crash", Transformer.mutate("crash", StreamSystem::crash)))
            .withMaxTransformations(MAX_ACTIONS);
    }

    static final class PublishByKey implements Action.Independent<StreamSystem>
    {
        @Override
        public Arbitrary<Transformer<StreamSystem>> transformer()
        {
            return Combinators.combine(Arbitraries.of(StreamSystem.ORDERS, StreamSystem.AUDIT), Arbitraries.integers().between(0, 20))
                .as((topic, key) -> Transformer.mutate("publish to " + topic + " with key k" + key,
                    s -> s.publishByKey(topic, "k" + key)));
        }
    }

    static final class PublishWithoutKey implements Action.Independent<StreamSystem>
    {
        @Override
        public Arbitrary<Transformer<StreamSystem>> transformer()
        {
            return Combinators.combine(Arbitraries.of(StreamSystem.ORDERS, StreamSystem.AUDIT), Arbitraries.integers().between(1, 4))
                .as((topic, n) -> Transformer.mutate("publish " + n + " to " + topic + " without key",
                    s -> s.publishWithoutKey(topic, n)));
        }
    }

    /** Every partition of both topics, in a fixed order, so that actions can name one without the state. */
    private static final List<Partition> PARTITIONS = List.of(new Partition(StreamSystem.AUDIT, 0), new Partition(StreamSystem.AUDIT, 1),
        new Partition(StreamSystem.ORDERS, 0), new Partition(StreamSystem.ORDERS, 1), new Partition(StreamSystem.ORDERS, 2));

    static final class PublishToPartition implements Action.Independent<StreamSystem>
    {
        @Override
        public Arbitrary<Transformer<StreamSystem>> transformer()
        {
            return Arbitraries.of(PARTITIONS)
                .map(p -> Transformer.mutate("publish to " + p, sys -> sys.publishToPartition(p)));
        }
    }

    static final class Poll implements Action.Independent<StreamSystem>
    {
        @Override
        public Arbitrary<Transformer<StreamSystem>> transformer()
        {
            return Arbitraries.integers().between(1, 6)
                .map(max -> Transformer.mutate("poll " + max, s -> s.poll(max)));
        }
    }

    /** Seeks to an offset that may lie past the partition's end, which must be refused. */
    static final class Seek implements Action.Independent<StreamSystem>
    {
        @Override
        public Arbitrary<Transformer<StreamSystem>> transformer()
        {
            return Combinators.combine(Arbitraries.of(PARTITIONS), Arbitraries.longs().between(0, 8))
                .as((p, offset) -> Transformer.mutate("seek " + p + " to " + offset, sys -> sys.seek(p, offset)));
        }
    }

    static final class SeekToTimestamp implements Action.Independent<StreamSystem>
    {
        @Override
        public Arbitrary<Transformer<StreamSystem>> transformer()
        {
            return Combinators.combine(Arbitraries.of(PARTITIONS), Arbitraries.longs().between(-10, 3_000))
                .as((p, t) -> Transformer.mutate("seek " + p + " to start time + " + t + " ms",
                    sys -> sys.seekToTimestamp(p, StreamSystem.START_TIME + t)));
        }
    }

    /**
     * Actions on a group member name it by its place among the live members in joining order, counting round, so
     * that they do not depend on the state; with no member they do nothing.
     */
    static final class Leave implements Action.Independent<StreamSystem>
    {
        @Override
        public Arbitrary<Transformer<StreamSystem>> transformer()
        {
            return Arbitraries.integers().between(0, 3)
                .map(m -> Transformer.mutate("member #" + m + " leaves", sys -> sys.leave(m)));
        }
    }

    static final class MemberPoll implements Action.Independent<StreamSystem>
    {
        @Override
        public Arbitrary<Transformer<StreamSystem>> transformer()
        {
            return Combinators.combine(Arbitraries.integers().between(0, 3), Arbitraries.integers().between(1, 6))
                .as((m, max) -> Transformer.mutate("member #" + m + " polls " + max, sys -> sys.memberPoll(m, max)));
        }
    }

    static final class MemberCommit implements Action.Independent<StreamSystem>
    {
        @Override
        public Arbitrary<Transformer<StreamSystem>> transformer()
        {
            return Arbitraries.integers().between(0, 3)
                .map(m -> Transformer.mutate("member #" + m + " commits", sys -> sys.memberCommit(m)));
        }
    }

    static final class AdvanceClock implements Action.Independent<StreamSystem>
    {
        @Override
        public Arbitrary<Transformer<StreamSystem>> transformer()
        {
            return Arbitraries.longs().between(1, 1_000)
                .map(ms -> Transformer.mutate("advance clock " + ms + " ms", s -> s.advanceClock(ms)));
        }
    }

}
