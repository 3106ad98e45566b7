package io.spool.log;

import io.spool.api.EngineClosedException;
import io.spool.api.SpoolException;
import io.spool.api.log.HeadersCodec;
import io.spool.api.log.LogConfig;
import io.spool.api.log.OffsetOutOfRangeException;
import io.spool.api.log.RecordTooLargeException;
import io.spool.api.log.RecordView;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.spool.log.LogFixture.bytes;
import static io.spool.log.LogFixture.readAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PartitionLogTest
{
    @TempDir
    Path dir;
    LogFixture fx;

    @BeforeEach
    void open()
    {
        fx = new LogFixture(dir);
    }

    @AfterEach
    void close()
    {
        fx.close();
    }

    @Test
    void appendsGetDenseOffsetsAndReadBackIntact()
    {
        final PartitionLog log = fx.store.openLog("t/0", LogConfig.DEFAULT);
        assertThat(fx.append(log, "k1", "v1")).isEqualTo(0);
        assertThat(fx.append(log, null, "v2")).isEqualTo(1);
        assertThat(fx.append(log, "k3", null)).isEqualTo(2);
        assertThat(log.endOffset()).isEqualTo(3);
        assertThat(readAll(log, 0)).containsExactly("0:k1:v1", "1:null:v2", "2:k3:null");
        assertThat(readAll(log, 2)).containsExactly("2:k3:null");
    }

    @Test
    void headersAndTimestampsRoundTrip()
    {
        final PartitionLog log = fx.store.openLog("t/0", LogConfig.DEFAULT);
        final byte[] headers = HeadersCodec.encode(new java.util.LinkedHashMap<>(Map.of("trace", bytes("abc"))));
        fx.store.newProducer().appendAndWait(log, bytes("k"), headers, bytes("v"));
        try (LogReader reader = log.newReader())
        {
            assertThat(reader.poll(r ->
            {
                assertThat(r.header("trace")).isEqualTo("abc");
                assertThat(r.header("missing")).isNull();
                assertThat(r.timestamp()).isEqualTo(fx.clock.time());
                assertThat(HeadersCodec.decode(r.buffer(), r.headersOffset(), r.headersLength())).containsOnlyKeys("trace");
            }, 10)).isEqualTo(1);
        }
    }

    @Test
    void rollsSegmentsAndReadsAcrossThem()
    {
        final PartitionLog log = fx.store.openLog("t/0", LogFixture.smallSegments(4096));
        for (int i = 0; i < 500; i++)
        {
            fx.append(log, "k" + i, "value-" + i);
        }
        assertThat(log.segmentCount()).isGreaterThan(5);
        final List<String> all = readAll(log, 0);
        assertThat(all).hasSize(500);
        assertThat(all.get(499)).isEqualTo("499:k499:value-499");
        assertThat(readAll(log, 321).get(0)).isEqualTo("321:k321:value-321");
    }

    @Test
    void skippingHeaderFreeRecordsStopsBeforeTheFirstWithHeadersAndAcrossSegments()
    {
        final PartitionLog log = fx.store.openLog("t/0", LogFixture.smallSegments(4096));
        final byte[] headers = HeadersCodec.encode(new java.util.LinkedHashMap<>(Map.of("h", bytes("x"))));
        final LogProducer producer = fx.store.newProducer();
        for (int i = 0; i < 200; i++)
        {
            producer.appendAndWait(log, null, i == 150 ? headers : null, bytes(("value-" + i + "-").repeat(5)));
        }
        assertThat(log.segmentCount()).as("the run crosses segments").isGreaterThan(3);
        try (LogReader reader = log.newReader())
        {
            assertThat(reader.skipHeaderFree(40)).as("bounded by the count asked for").isEqualTo(40);
            assertThat(reader.skipHeaderFree(1_000)).as("up to the record with headers").isEqualTo(110);
            assertThat(reader.skipHeaderFree(1_000)).as("a record with headers is not passed").isZero();
            final List<Long> read = new java.util.ArrayList<>();
            assertThat(reader.poll(r -> read.add(r.offset()), 1)).isEqualTo(1);
            assertThat(read).containsExactly(150L);
            assertThat(reader.skipHeaderFree(1_000)).as("up to the committed end").isEqualTo(49);
            assertThat(reader.skipHeaderFree(1_000)).isZero();
        }
        try (LogReader reader = log.newReader())
        {
            reader.seek(120);
            assertThat(reader.skipHeaderFree(1_000)).as("from a seek").isEqualTo(30);
        }
    }

    @Test
    void theLogKnowsWhereRecordsStopCarryingHeadersUntilItIsReopened()
    {
        PartitionLog log = fx.store.openLog("t/0", LogFixture.smallSegments(4096));
        final byte[] headers = HeadersCodec.encode(new java.util.LinkedHashMap<>(Map.of("h", bytes("x"))));
        final LogProducer producer = fx.store.newProducer();
        assertThat(log.headerFreeFrom()).as("an empty log").isZero();
        for (int i = 0; i < 60; i++)
        {
            producer.appendAndWait(log, null, i == 10 ? headers : null, bytes(("value-" + i + "-").repeat(5)));
        }
        assertThat(log.headerFreeFrom()).as("one past the record with headers").isEqualTo(11);
        try (LogReader reader = log.newReader())
        {
            reader.seek(11);
            assertThat(reader.skipHeaderFree(30)).as("passed without reading").isEqualTo(30);
            final List<Long> read = new java.util.ArrayList<>();
            assertThat(reader.poll(r -> read.add(r.offset()), 1)).isEqualTo(1);
            assertThat(read).as("the reader finds its place again after such a pass").containsExactly(41L);
            assertThat(reader.skipHeaderFree(1_000)).as("up to the committed end").isEqualTo(18);
        }
        fx.reopen();
        log = fx.store.openLog("t/0", LogFixture.smallSegments(4096));
        assertThat(log.headerFreeFrom()).as("what was appended before the opening is not known").isEqualTo(60);
        try (LogReader reader = log.newReader())
        {
            reader.seek(11);
            assertThat(reader.skipHeaderFree(1_000)).as("read, and still header-free").isEqualTo(49);
        }
    }

    @Test
    void nextReadsRecordsOneByOneAcrossSegmentsAndPicksUpLaterCommits()
    {
        final PartitionLog log = fx.store.openLog("t/0", LogFixture.smallSegments(4096));
        for (int i = 0; i < 150; i++)
        {
            fx.append(log, "k" + i, "value-" + i);
        }
        assertThat(log.segmentCount()).as("the records span segments").isGreaterThan(2);
        try (LogReader reader = log.newReader())
        {
            final List<String> read = new java.util.ArrayList<>();
            RecordView record;
            while ((record = reader.next()) != null)
            {
                read.add(record.offset() + ":" + string(record.keyBytes()) + ":" + string(record.valueBytes()));
            }
            assertThat(read).hasSize(150).startsWith("0:k0:value-0").endsWith("149:k149:value-149");
            assertThat(reader.next()).as("at the committed end").isNull();
            fx.append(log, "k150", "value-150");
            assertThat(reader.next()).as("committed since").isNotNull()
                .satisfies(r -> assertThat(r.offset()).isEqualTo(150));
            reader.seek(77);
            assertThat(reader.next().offset()).as("after a seek").isEqualTo(77);
            assertThat(reader.next().offset()).isEqualTo(78);
            assertThat(reader.skipHeaderFree(20)).as("passed without reading").isEqualTo(20);
            assertThat(reader.next().offset()).as("after a pass that read nothing").isEqualTo(99);
            final List<Long> polled = new java.util.ArrayList<>();
            reader.poll(r -> polled.add(r.offset()), 30);
            assertThat(polled).as("a poll goes on from there").startsWith(100L).endsWith(129L);
            assertThat(reader.next().offset()).as("and next after the poll").isEqualTo(130);
        }
    }

    @Test
    void readingOrPassingRecordsThatRetentionRemovedNamesTheRange()
    {
        final PartitionLog log = fx.store.openLog("t/0", LogFixture.smallSegments(4096));
        for (int i = 0; i < 300; i++)
        {
            fx.append(log, "k" + i, "value-" + i);
        }
        try (LogReader reading = log.newReader(); LogReader passing = log.newReader())
        {
            reading.seek(5);
            passing.seek(0);
            assertThat(log.deleteSegmentsBelow(200)).isPositive();
            assertThatThrownBy(reading::next).isInstanceOf(OffsetOutOfRangeException.class).hasMessageContaining("t/0");
            assertThatThrownBy(() -> passing.skipHeaderFree(10)).as("records known header-free, passed unread")
                .isInstanceOf(OffsetOutOfRangeException.class).hasMessageContaining("t/0");
        }
    }

    @Test
    void reopenKeepsEverythingAndContinuesOffsets()
    {
        PartitionLog log = fx.store.openLog("t/0", LogFixture.smallSegments(4096));
        for (int i = 0; i < 200; i++)
        {
            fx.append(log, "k" + i, "v" + i);
        }
        fx.reopen();
        log = fx.store.openLog("t/0", LogFixture.smallSegments(4096));
        assertThat(log.recoveryReport().isClean()).as(log.recoveryReport().toString()).isTrue();
        assertThat(log.endOffset()).isEqualTo(200);
        assertThat(fx.append(log, "k200", "v200")).isEqualTo(200);
        assertThat(readAll(log, 0)).hasSize(201).endsWith("200:k200:v200");
    }

    @Test
    void seekBelowStartOrPastEndNamesTheRange()
    {
        final PartitionLog log = fx.store.openLog("t/0", LogConfig.DEFAULT);
        fx.append(log, "k", "v");
        try (LogReader reader = log.newReader())
        {
            assertThatThrownBy(() -> reader.seek(5))
                .isInstanceOf(OffsetOutOfRangeException.class)
                .hasMessageContaining("offset 5 is out of range")
                .hasMessageContaining("earliest offset is 0");
            reader.seek(1);
            assertThat(reader.poll(r -> { }, 10)).isZero();
        }
    }

    @Test
    void oversizedRecordIsRefusedAndTheLogKeepsWorking()
    {
        final PartitionLog log = fx.store.openLog("t/0", LogConfig.builder().maxRecordBytes(1024).build());
        assertThatThrownBy(() -> fx.store.newProducer().appendAndWait(log, null, null, new byte[2000]))
            .isInstanceOf(RecordTooLargeException.class)
            .hasMessageContaining("exceeds maxRecordBytes 1024");
        assertThat(fx.append(log, "k", "v")).isEqualTo(0);
    }

    @Test
    void offsetForTimestampUsesTheTimeIndex()
    {
        final PartitionLog log = fx.store.openLog("t/0", LogFixture.smallSegments(4096));
        for (int i = 0; i < 300; i++)
        {
            fx.clock.update(10_000L + i * 10L);
            fx.append(log, null, "v" + i);
        }
        assertThat(log.offsetForTimestamp(0)).isEqualTo(0);
        assertThat(log.offsetForTimestamp(10_000L + 1234)).isEqualTo(124);
        assertThat(log.offsetForTimestamp(10_000L + 1240)).isEqualTo(124);
        assertThat(log.offsetForTimestamp(99_999_999L)).isEqualTo(300);
    }

    @Test
    void retentionBySizeAndAgeDropsWholeClosedSegments()
    {
        final LogConfig config = LogFixture.smallSegments(4096).toBuilder().retentionBytes(16 * 1024).build();
        final PartitionLog log = fx.store.openLog("t/0", config);
        for (int i = 0; i < 1000; i++)
        {
            fx.append(log, null, "value-" + i);
        }
        assertThat(fx.store.runMaintenance()).isPositive();
        assertThat(log.sizeInBytes()).isLessThan(16 * 1024 + 4096);
        assertThat(log.startOffset()).isPositive();
        try (LogReader reader = log.newReader())
        {
            assertThatThrownBy(() -> reader.seek(0))
                .isInstanceOf(OffsetOutOfRangeException.class)
                .hasMessageContaining("earliest offset is " + log.startOffset());
        }
        assertThat(readAll(log, log.startOffset())).hasSize((int)(1000 - log.startOffset()));

        final PartitionLog aged = fx.store.openLog("t/1",
            LogFixture.smallSegments(4096).toBuilder().retentionMillis(60_000).build());
        for (int i = 0; i < 300; i++)
        {
            fx.append(aged, null, "value-" + i);
        }
        fx.clock.advance(60_001);
        fx.append(aged, null, "fresh");
        fx.store.runMaintenance();
        assertThat(aged.segmentCount()).isEqualTo(1);
        assertThat(readAll(aged, aged.startOffset())).last().asString().endsWith("fresh");
    }

    @Test
    void deleteSegmentsBelowKeepsTheSegmentHoldingTheOffset()
    {
        final PartitionLog log = fx.store.openLog("t/0", LogFixture.smallSegments(4096));
        for (int i = 0; i < 500; i++)
        {
            fx.append(log, null, "value-" + i);
        }
        log.deleteSegmentsBelow(250);
        assertThat(log.startOffset()).isLessThanOrEqualTo(250).isGreaterThan(0);
        assertThat(readAll(log, 250).get(0)).startsWith("250:");
    }

    @Test
    void segmentRollsOnAge()
    {
        final PartitionLog log = fx.store.openLog("t/0", LogConfig.builder().segmentRollMillis(1000).build());
        fx.append(log, null, "a");
        fx.append(log, null, "b");
        assertThat(log.segmentCount()).isEqualTo(1);
        fx.clock.advance(1000);
        fx.append(log, null, "c");
        assertThat(log.segmentCount()).isEqualTo(2);
        assertThat(readAll(log, 0)).containsExactly("0:null:a", "1:null:b", "2:null:c");
    }

    @Test
    void deletedLogRefusesPublishesWithAClearError()
    {
        final PartitionLog log = fx.store.openLog("t/0", LogConfig.DEFAULT);
        fx.append(log, null, "a");
        fx.store.deleteLog("t/0");
        assertThatThrownBy(() -> fx.append(log, null, "b"))
            .isInstanceOf(EngineClosedException.class).hasMessageContaining("log t/0 is closed");
        assertThat(dir.resolve("t/0")).doesNotExist();
    }

    @Test
    void closedStoreRefusesWork()
    {
        final PartitionLog log = fx.store.openLog("t/0", LogConfig.DEFAULT);
        fx.store.close();
        assertThatThrownBy(() -> fx.append(log, null, "a")).isInstanceOf(EngineClosedException.class);
        assertThatThrownBy(() -> fx.store.openLog("t/1", LogConfig.DEFAULT)).isInstanceOf(EngineClosedException.class);
    }

    @Test
    void aReaderOfAClosedStoreIsRefused()
    {
        final PartitionLog log = fx.store.openLog("t/0", LogFixture.smallSegments(4096));
        for (int i = 0; i < 100; i++)
        {
            fx.append(log, null, "record-" + i);
        }
        final LogReader fresh = log.newReader();
        final LogReader reading = log.newReader();
        assertThat(reading.poll(record -> { }, 3)).isEqualTo(3);
        assertThat(reading.next()).isNotNull();
        fx.store.close();

        assertThatThrownBy(() -> fresh.poll(record -> { }, 10))
            .isInstanceOf(EngineClosedException.class).hasMessage("log t/0 is closed");
        assertThatThrownBy(() -> reading.poll(record -> { }, 10)).isInstanceOf(EngineClosedException.class);
        assertThatThrownBy(() -> reading.skipHeaderFree(10)).isInstanceOf(EngineClosedException.class);
        assertThatThrownBy(() -> reading.seek(0)).isInstanceOf(EngineClosedException.class);
        assertThatThrownBy(fresh::next).isInstanceOf(EngineClosedException.class);
        fresh.close();
        reading.close();
    }

    @Test
    void awaitEndAboveWakesOnAppendAndTimesOutWithoutData() throws Exception
    {
        final PartitionLog log = fx.store.openLog("t/0", LogConfig.DEFAULT);
        assertThat(log.awaitEndAbove(0, 1_000_000)).isFalse();
        final Thread appender = new Thread(() -> fx.append(log, null, "late"));
        appender.start();
        assertThat(log.awaitEndAbove(0, 10_000_000_000L)).isTrue();
        appender.join();
    }

    @Test
    void aSecondStoreOnTheSameDirectoryIsRefusedUntilTheFirstCloses()
    {
        assertThatThrownBy(() -> LogStore.open(dir, LogStoreConfig.defaults()))
            .isInstanceOf(SpoolException.class).hasMessageContaining("is already open in this process");
        fx.store.close();
        LogStore.open(dir, LogStoreConfig.builder().backgroundMaintenance(false).build()).close();
    }

    private static String string(final byte[] bytes)
    {
        return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
    }
}
