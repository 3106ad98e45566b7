package io.spool.wire.kafka;

import io.spool.api.stream.ProducerRecord;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.RecordBatch;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A produced batch appended through its partition's group on a cluster node, with the batch's producer id, epoch and
 * base sequence, which the group's state machine checks as Kafka's partition leader would: a retry of a stored batch
 * completes with its first offset, and a gap, a fenced epoch or a forgotten retry fails with Kafka's error for it.
 * Stateless.
 */
final class ReplicatedProduce
{
    private ReplicatedProduce()
    {
    }

    static CompletableFuture<Long> append(final KafkaCluster cluster, final String topic, final int partition,
        final RecordBatch batch, final List<ProducerRecord> records)
    {
        final long producerId = batch.hasProducerId() ? batch.producerId() : -1;
        return cluster.append(topic, partition, producerId, batch.producerEpoch(), batch.baseSequence(), records)
            .thenApply(appended -> switch (appended.outcome())
            {
                case STORED, DUPLICATE -> appended.baseOffset();
                // Kafka's producer takes this as success whose offset is unknown, as a Kafka broker answers it
                case DUPLICATE_FORGOTTEN -> throw refused(Errors.DUPLICATE_SEQUENCE_NUMBER, appended.problem());
                case OUT_OF_ORDER_SEQUENCE -> throw refused(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER, appended.problem());
                case FENCED_EPOCH -> throw refused(Errors.INVALID_PRODUCER_EPOCH, appended.problem());
            });
    }

    private static CompletionException refused(final Errors error, final String problem)
    {
        return new CompletionException(error.exception(problem));
    }
}
