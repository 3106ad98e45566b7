package io.spool.cluster;

import io.spool.Spool;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicPartition;
import io.spool.stream.StreamEngine;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Batches a node applies while its log is still being repaired from a snapshot wait for the repair, and then reach
 * the log in the order their entries were applied, at the offsets those entries gave them.
 */
class RepairOrderTest
{
    private static final String TOPIC = "orders";
    private static final TopicPartition WHERE = new TopicPartition(TOPIC, 0);
    private static final int BATCHES = 20;

    @TempDir
    Path dir;

    private Spool engine;
    private final DeadLetterSender deadLetters = new DeadLetterSender(null);

    @BeforeEach
    void start()
    {
        engine = Spool.open(dir.resolve("log"));
        engine.streams().createTopic(TOPIC, TopicConfig.of(1));
    }

    @AfterEach
    void stop()
    {
        deadLetters.close();
        engine.close();
    }

    @Test
    void batchesAppliedDuringARepairAreStoredInEntryOrderOnceItEnds() throws Exception
    {
        final StreamEngine streams = engine.streams();
        final CommittedRecords records = new CommittedRecords(WHERE, streams.topics().topic(TOPIC).partition(0),
            streams.newProducer(), streams.groups(), dir.resolve("log"),
            new PartitionGroupExit(new BaseStateMachine(), null, WHERE));
        final PartitionEntryApplier applier = new PartitionEntryApplier(TOPIC, 0, records,
            new ReplicatedSubscriptions(TOPIC, 0), new PartitionLeaderDuties(new BaseStateMachine(), WHERE,
            streams.topics().topic(TOPIC).partition(0), deadLetters));
        final CompletableFuture<Void> repair = new CompletableFuture<>();
        records.restore(0, Map.of(), repair);

        final List<CompletableFuture<Message>> applied = new ArrayList<>();
        final List<String> sent = new ArrayList<>();
        for (int batch = 0; batch < BATCHES; batch++)
        {
            final String value = "batch-" + batch;
            sent.add(value);
            applied.add(applier.apply(ClusterEntryDescriptor.publish(1, batch, ClusterProducer.stamped(List.of(
                ProducerRecord.toPartition(TOPIC, 0, null, value.getBytes(StandardCharsets.UTF_8))))).getContent()));
        }
        assertThat(applied).noneMatch(CompletableFuture::isDone);

        repair.complete(null);
        for (final CompletableFuture<Message> entry : applied)
        {
            entry.get(10, TimeUnit.SECONDS);
        }
        assertThat(StoredFrames.records(engine, TOPIC, 0)).extracting(StoredFrames.Stored::value)
            .containsExactlyElementsOf(sent);
    }
}
