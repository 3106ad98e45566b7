package io.spool.model;

import io.spool.api.log.LogConfig;
import io.spool.api.log.OffsetOutOfRangeException;
import io.spool.log.LogReader;
import io.spool.log.LogStore;
import io.spool.log.LogStoreConfig;
import io.spool.log.PartitionLog;
import io.spool.log.RecordBatch;
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
import org.agrona.concurrent.CachedEpochClock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Random sequences of appends, reads, seeks, rolls, retention, clean reopens and crashes with a torn tail, run
 * against the engine's log and against {@link LogModel}; after every step both must agree.
 */
class LogProperties
{
    /** Actions per sequence at most. */
    private static final int MAX_ACTIONS = 40;
    private static final String LOG = "p/0";
    private static final long RETENTION_MILLIS = 60_000;

    /** The engine and model of the sequence being run. */
    private LogSystem running;

    @Property
    @AddLifecycleHook(SeededRuns.class)
    @ActionsPerSequence(MAX_ACTIONS)
    void theLogAgreesWithItsModel(@ForAll("chains") final ActionChain<LogSystem> chain)
    {
        running = null;
        try
        {
            chain.withInvariant("offsets agree", LogSystem::checkOffsets).run();
        }
        finally
        {
            SeededRuns.ran(chain.transformations().size());
            if (running != null)
            {
                running.destroy();
            }
        }
        CoverageChecks.require(running != null && running.restarts > 0, List.of("append", "append batch", "read",
            "read out of range", "advance clock", "delete below", "retention", "reopen", "crash with torn tail",
            "offset for timestamp"));
    }

    /** Opens the engine of a sequence and keeps it, so that it is closed even if the sequence fails at once. */
    private LogSystem start()
    {
        running = new LogSystem();
        return running;
    }

    @Provide
    Arbitrary<ActionChain<LogSystem>> chains()
    {
        return ActionChain.startWith(this::start)
            .withAction(5, Action.just("append", Transformer.mutate("append", LogSystem::append)))
            .withAction(2, new AppendBatch())
            .withAction(4, new Read())
            .withAction(1, Action.just("read out of range", Transformer.mutate("read out of range", LogSystem::readOutOfRange)))
            .withAction(2, new AdvanceClock())
            .withAction(1, new DeleteBelow())
            .withAction(1, Action.just("retention", Transformer.mutate("retention", LogSystem::retention)))
            .withAction(1, Action.just("reopen", Transformer.mutate("reopen", LogSystem::reopen)))
            .withAction(1, Action.just("crash with torn tail", Transformer.mutate("crash with torn tail", LogSystem::crashWithTornTail)))
            .withAction(1, new OffsetForTimestamp())
            .withMaxTransformations(MAX_ACTIONS);
    }

    static final class AppendBatch implements Action.Independent<LogSystem>
    {
        @Override
        public Arbitrary<Transformer<LogSystem>> transformer()
        {
            return Arbitraries.integers().between(1, 40)
                .map(n -> Transformer.mutate("append batch of " + n, s -> s.appendBatch(n)));
        }
    }

    /**
     * Actions name offsets and times relative to the log's end and the clock, never read the state when generated,
     * so that jqwik can drop any steps while it shrinks a failing sequence.
     */
    static final class Read implements Action.Independent<LogSystem>
    {
        @Override
        public Arbitrary<Transformer<LogSystem>> transformer()
        {
            return Combinators.combine(Arbitraries.longs().between(0, 200), Arbitraries.integers().between(1, 200))
                .as((back, max) -> Transformer.mutate("read " + max + " from " + back + " before the end",
                    sys -> sys.read(sys.offsetBeforeEnd(back), max)));
        }
    }

    static final class AdvanceClock implements Action.Independent<LogSystem>
    {
        @Override
        public Arbitrary<Transformer<LogSystem>> transformer()
        {
            return Arbitraries.longs().between(1, 2 * RETENTION_MILLIS)
                .map(ms -> Transformer.mutate("advance clock " + ms + " ms", s -> s.advanceClock(ms)));
        }
    }

    static final class DeleteBelow implements Action.Independent<LogSystem>
    {
        @Override
        public Arbitrary<Transformer<LogSystem>> transformer()
        {
            return Arbitraries.longs().between(0, 200).map(back -> Transformer.mutate(
                "delete segments below " + back + " before the end",
                sys -> sys.deleteBelow(sys.offsetBeforeEnd(back))));
        }
    }

    static final class OffsetForTimestamp implements Action.Independent<LogSystem>
    {
        @Override
        public Arbitrary<Transformer<LogSystem>> transformer()
        {
            return Arbitraries.longs().between(-1, 3 * RETENTION_MILLIS).map(ago -> Transformer.mutate(
                "offset for timestamp " + ago + " ms ago", sys -> sys.offsetForTimestamp(sys.clock.time() - ago)));
        }
    }

    /**
     * The engine's log and the model side by side. Segments are tiny so that rolls and retention happen often.
     */
    static final class LogSystem
    {
        final Path dir;
        final CachedEpochClock clock = new CachedEpochClock();
        final LogModel model = new LogModel();
        final LogConfig config = LogConfig.builder().segmentBytes(2048).maxRecordBytes(512).indexIntervalBytes(128)
            .retentionMillis(RETENTION_MILLIS).build();
        LogStore store;
        PartitionLog log;
        int restarts;
        private long counter;

        LogSystem()
        {
            dir = Engines.temporaryDirectory("spool-log-property");
            clock.update(1_000_000);
            open();
        }

        private void open()
        {
            store = LogStore.open(dir, LogStoreConfig.builder().clock(clock).backgroundMaintenance(false)
                .ringSize(64).fileSync(Engines.FILE_SYNC).build());
            log = store.openLog(LOG, config);
        }

        /** The offset {@code back} records before the end, or the start if the log holds fewer. */
        long offsetBeforeEnd(final long back)
        {
            return Math.max(model.startOffset(), model.endOffset() - back);
        }

        void checkOffsets()
        {
            assertThat(log.startOffset()).as("start offset").isEqualTo(model.startOffset());
            assertThat(log.endOffset()).as("end offset").isEqualTo(model.endOffset());
        }

        private byte[] nextValue()
        {
            counter++;
            final int length = (int)(counter * 37 % 150);
            final byte[] value = new byte[length];
            for (int i = 0; i < length; i++)
            {
                value[i] = (byte)(counter + i);
            }
            return value;
        }

        private byte[] nextKey()
        {
            return counter % 3 == 0 ? null : ("k" + counter).getBytes();
        }

        void append()
        {
            CoverageChecks.ran("append");
            final byte[] value = nextValue();
            final byte[] key = nextKey();
            final long offset = store.newProducer().appendAndWait(log, key, null, value);
            assertThat(offset).isEqualTo(model.append(clock.time(), key, value));
        }

        void appendBatch(final int n)
        {
            CoverageChecks.ran("append batch");
            final RecordBatch batch = new RecordBatch();
            for (int i = 0; i < n; i++)
            {
                final byte[] value = nextValue();
                final byte[] key = nextKey();
                batch.add(key, null, value);
                model.append(clock.time(), key, value);
            }
            final java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(n);
            store.newProducer().publishBatch(log, batch, new io.spool.log.ConfirmListener()
            {
                @Override
                public void onConfirmed(final long correlation, final long offset)
                {
                    done.countDown();
                }

                @Override
                public void onFailed(final long correlation, final io.spool.api.SpoolException error)
                {
                    throw error;
                }
            }, 0);
            try
            {
                assertThat(done.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            }
            catch (final InterruptedException ex)
            {
                throw new IllegalStateException(ex);
            }
        }

        void read(final long from, final int max)
        {
            CoverageChecks.ran("read");
            final List<LogModel.Record> actual = new ArrayList<>();
            try (LogReader reader = log.newReader())
            {
                reader.seek(from);
                reader.poll(r -> actual.add(new LogModel.Record(r.offset(), r.timestamp(), r.keyBytes(), r.valueBytes())), max);
            }
            assertThat(actual).isEqualTo(model.read(from, max));
        }

        void readOutOfRange()
        {
            CoverageChecks.ran("read out of range");
            try (LogReader reader = log.newReader())
            {
                final long below = model.startOffset() - 1;
                if (below >= 0)
                {
                    assertThatThrownBy(() -> reader.seek(below)).isInstanceOf(OffsetOutOfRangeException.class)
                        .extracting(e -> ((OffsetOutOfRangeException)e).earliestOffset()).isEqualTo(model.startOffset());
                }
                assertThatThrownBy(() -> reader.seek(model.endOffset() + 1)).isInstanceOf(OffsetOutOfRangeException.class);
            }
        }

        void advanceClock(final long millis)
        {
            CoverageChecks.ran("advance clock");
            clock.advance(millis);
        }

        void deleteBelow(final long offset)
        {
            CoverageChecks.ran("delete below");
            final long before = log.startOffset();
            log.deleteSegmentsBelow(offset);
            assertThat(log.startOffset()).isBetween(before, Math.max(before, offset));
            model.dropBelow(log.startOffset());
        }

        void retention()
        {
            CoverageChecks.ran("retention");
            store.runMaintenance();
            final List<LogModel.Record> dropped = model.dropBelow(log.startOffset());
            for (final LogModel.Record record : dropped)
            {
                assertThat(clock.time() - record.timestamp).as("only expired records go").isGreaterThan(RETENTION_MILLIS);
            }
        }

        void reopen()
        {
            CoverageChecks.ran("reopen");
            restarts++;
            store.close();
            open();
            assertThat(log.recoveryReport().isClean()).as(log.recoveryReport().toString()).isTrue();
        }

        /**
         * A crash in which the newest record's bytes did not all reach the disk: its checksum no longer matches.
         */
        void crashWithTornTail()
        {
            CoverageChecks.ran("crash with torn tail");
            restarts++;
            store.close();
            final boolean torn = tearLastRecord();
            if (torn)
            {
                model.dropLast();
            }
            open();
            if (torn)
            {
                assertThat(log.recoveryReport().truncatedAtOffset()).isEqualTo(model.endOffset());
            }
        }

        private boolean tearLastRecord()
        {
            final Path logDir = dir.resolve(LOG);
            try (Stream<Path> files = Files.list(logDir))
            {
                final Path last = files.filter(p -> p.toString().endsWith(".log")).max(Comparator.naturalOrder()).orElseThrow();
                try (FileChannel channel = FileChannel.open(last, StandardOpenOption.READ, StandardOpenOption.WRITE))
                {
                    final ByteBuffer word = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
                    long position = 64;
                    long lastFrame = -1;
                    while (position + 4 <= channel.size())
                    {
                        word.clear();
                        channel.read(word, position);
                        final int length = word.getInt(0);
                        if (length <= 0)
                        {
                            break;
                        }
                        lastFrame = position;
                        position += (length + 7) & ~7;
                    }
                    if (lastFrame < 0)
                    {
                        return false;
                    }
                    word.clear();
                    channel.read(word, lastFrame + 4);
                    word.putInt(0, ~word.getInt(0)).rewind();
                    channel.write(word, lastFrame + 4);
                    return true;
                }
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }

        void offsetForTimestamp(final long timestamp)
        {
            CoverageChecks.ran("offset for timestamp");
            assertThat(log.offsetForTimestamp(timestamp)).isEqualTo(model.offsetForTimestamp(timestamp));
        }

        void destroy()
        {
            store.close();
            try (Stream<Path> paths = Files.walk(dir))
            {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }

        @Override
        public String toString()
        {
            return "LogSystem{start=" + model.startOffset() + ", end=" + model.endOffset() + "}";
        }
    }
}
