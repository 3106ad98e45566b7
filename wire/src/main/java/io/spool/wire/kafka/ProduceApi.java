package io.spool.wire.kafka;

import io.spool.Spool;
import io.spool.SpoolProducer;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.PublishResult;
import io.spool.api.stream.TopicPartition;
import io.spool.stream.ProducerSequences;
import io.spool.stream.SequencedAppend;
import io.spool.stream.Topic;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.CorruptRecordException;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.RecordBatch;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Produce and InitProducerId. Each partition's batch is checked (record batch v2, its CRC, one batch per partition
 * as Kafka requires), its records are copied into Spool records with the same key, value, headers and timestamp,
 * and published through the engine's producer with the subscriptions' overflow limits in force. A batch with a
 * producer id goes through {@link ProducerSequences}: a retry is answered with its first offset, a gap refused.
 * Runs on the connection's event loop.
 */
final class ProduceApi
{
    private final Spool engine;
    private final TopicIds topicIds;
    private final PartitionLeaders leaders;

    ProduceApi(final Spool engine, final TopicIds topicIds, final PartitionLeaders leaders)
    {
        this.engine = engine;
        this.topicIds = topicIds;
        this.leaders = leaders;
    }

    void initProducerId(final KafkaRequest request)
    {
        final InitProducerIdRequestData body = request.body();
        final InitProducerIdResponseData response = new InitProducerIdResponseData();
        if (body.transactionalId() != null)
        {
            request.respond(response.setErrorCode(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code()));
            return;
        }
        if (leaders.isCluster())
        {
            try
            {
                // as Kafka's brokers do for a producer without a transactional id: a fresh id, never a bumped epoch
                response.setProducerId(leaders.cluster().newProducerId()).setProducerEpoch((short)0);
            }
            catch (final RuntimeException noBlock)
            {
                // the cluster could not commit a new block of ids in time; the client retries this error
                response.setErrorCode(Errors.COORDINATOR_LOAD_IN_PROGRESS.code());
            }
            request.respond(response);
            return;
        }
        final boolean bump = body.producerId() >= 0;
        final long producerId = bump ? body.producerId() : engine.streams().producerSequences().newProducerId();
        final short epoch = bump ? (short)(body.producerEpoch() + 1) : 0;
        request.respond(response.setProducerId(producerId).setProducerEpoch(epoch));
    }

    void produce(final KafkaRequest request)
    {
        final ProduceRequestData body = request.body();
        final ProduceResponseData response = new ProduceResponseData();
        final List<CompletableFuture<?>> appends = new ArrayList<>();
        final SpoolProducer producer = request.connection().state().producer(engine);
        for (final ProduceRequestData.TopicProduceData topicData : body.topicData())
        {
            final boolean byId = topicData.name() == null || topicData.name().isEmpty();
            final String name = byId ? topicIds.nameOf(topicData.topicId()) : topicData.name();
            final ProduceResponseData.TopicProduceResponse topicResponse = new ProduceResponseData.TopicProduceResponse()
                .setName(byId ? "" : name).setTopicId(byId ? topicData.topicId() : Uuid.ZERO_UUID);
            response.responses().add(topicResponse);
            final Topic topic = name == null ? null : engine.streams().topics().topicOrNull(name);
            for (final ProduceRequestData.PartitionProduceData partitionData : topicData.partitionData())
            {
                final ProduceResponseData.PartitionProduceResponse partitionResponse =
                    new ProduceResponseData.PartitionProduceResponse().setIndex(partitionData.index());
                topicResponse.partitionResponses().add(partitionResponse);
                if (topic == null || partitionData.index() < 0 || partitionData.index() >= topic.partitionCount())
                {
                    partitionResponse.setErrorCode((byId && topic == null ? Errors.UNKNOWN_TOPIC_ID :
                        Errors.UNKNOWN_TOPIC_OR_PARTITION).code());
                    continue;
                }
                final CompletableFuture<?> append = append(producer, topic, partitionData, partitionResponse,
                    new Answering(request, response, body.timeoutMs()));
                if (append != null)
                {
                    appends.add(append);
                }
            }
        }
        if (body.acks() == 0)
        {
            request.completeSilently();
            return;
        }
        CompletableFuture.allOf(appends.toArray(CompletableFuture[]::new))
            .whenComplete((done, failure) -> request.respond(response));
    }

    /** The request a partition's answer belongs to, and how long its replicated append may take. */
    private record Answering(KafkaRequest request, ProduceResponseData response, int timeoutMillis)
    {
    }

    /** Publishes one partition's batch and fills in its answer when stored; null when refused at once. */
    private CompletableFuture<?> append(final SpoolProducer producer, final Topic topic,
        final ProduceRequestData.PartitionProduceData partitionData,
        final ProduceResponseData.PartitionProduceResponse answer, final Answering answering)
    {
        final int partition = partitionData.index();
        final RecordBatch batch;
        final List<ProducerRecord> records;
        try
        {
            batch = singleBatch((MemoryRecords)partitionData.records());
            records = KafkaRecords.toSpool(topic.name(), partition, batch);
        }
        catch (final CorruptRecordException | InvalidRecordException ex)
        {
            answer.setErrorCode(Errors.forException(ex).code()).setErrorMessage(ex.getMessage());
            return null;
        }
        catch (final RuntimeException ex)
        {
            answer.setErrorCode(Errors.CORRUPT_MESSAGE.code())
                .setErrorMessage("the record batch cannot be read: " + KafkaErrors.message(ex));
            return null;
        }
        if (records.isEmpty())
        {
            answer.setErrorCode(Errors.INVALID_RECORD.code()).setErrorMessage("the record batch holds no record");
            return null;
        }
        final CompletableFuture<Long> baseOffset;
        try
        {
            if (leaders.isCluster())
            {
                final KafkaCluster.Placement placement = leaders.placement(topic.name(), partition);
                if (!placement.ledHere())
                {
                    answer.setErrorCode(Errors.NOT_LEADER_OR_FOLLOWER.code()).setErrorMessage("node " +
                        leaders.cluster().nodeId() + " does not lead " + topic.name() + "-" + partition +
                        (placement.leader() < 0 ? "; its group is electing a leader" :
                        "; node " + placement.leader() + " does"));
                    LeaderHints.produce(leaders, placement, answering.request().version(), answer,
                        answering.response());
                    return null;
                }
                baseOffset = ReplicatedProduce.append(leaders.cluster(), topic.name(), partition, batch, records)
                    .orTimeout(Math.max(1, answering.timeoutMillis()), TimeUnit.MILLISECONDS);
            }
            else if (batch.hasProducerId())
            {
                final SequencedAppend sequenced = engine.streams().producerSequences().append(
                    new TopicPartition(topic.name(), partition), batch.producerId(), batch.producerEpoch(),
                    batch.baseSequence(), records, from -> publish(producer, from == 0 ? records :
                        records.subList(from, records.size())));
                baseOffset = switch (sequenced.outcome())
                {
                    case APPENDED, DUPLICATE -> sequenced.baseOffset();
                    case OUT_OF_ORDER_SEQUENCE ->
                        CompletableFuture.failedFuture(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER.exception(sequenced.problem()));
                    case FENCED_EPOCH ->
                        CompletableFuture.failedFuture(Errors.INVALID_PRODUCER_EPOCH.exception(sequenced.problem()));
                };
            }
            else
            {
                baseOffset = publish(producer, records);
            }
        }
        catch (final RuntimeException ex)
        {
            answer.setErrorCode(KafkaErrors.of(ex).code()).setErrorMessage(KafkaErrors.message(ex));
            return null;
        }
        final boolean logAppendTime = topic.config().log().logAppendTime();
        return baseOffset.handle((offset, failure) ->
        {
            if (failure != null)
            {
                final Throwable cause = KafkaErrors.unwrap(failure);
                final Errors error = cause instanceof org.apache.kafka.common.errors.ApiException ?
                    Errors.forException(cause) : KafkaErrors.of(cause);
                answer.setErrorCode(error.code()).setErrorMessage(KafkaErrors.message(cause)).setBaseOffset(-1);
            }
            else
            {
                answer.setBaseOffset(offset)
                    .setLogStartOffset(topic.partition(partition).startOffset())
                    .setLogAppendTimeMs(logAppendTime ? appendTime(topic, partition, offset) : -1);
            }
            return null;
        });
    }

    private static CompletableFuture<Long> publish(final SpoolProducer producer, final List<ProducerRecord> records)
    {
        return producer.sendBatch(records).thenApply(placed ->
        {
            long first = Long.MAX_VALUE;
            for (final PublishResult result : placed)
            {
                first = Math.min(first, result.offset());
            }
            return first;
        });
    }

    private static long appendTime(final Topic topic, final int partition, final long offset)
    {
        try (io.spool.log.LogReader reader = topic.partition(partition).newReader())
        {
            reader.seek(offset);
            final io.spool.api.log.RecordView view = reader.next();
            return view == null ? -1 : view.timestamp();
        }
    }

    /**
     * The one batch of a partition's records, checked: Kafka's producers send one per partition since record
     * batch v2, the only format this listener takes.
     */
    private static RecordBatch singleBatch(final MemoryRecords records)
    {
        RecordBatch only = null;
        for (final MutableRecordBatch batch : records.batches())
        {
            if (only != null)
            {
                throw new InvalidRecordException("a produce request carries one record batch per partition");
            }
            if (batch.magic() != RecordBatch.MAGIC_VALUE_V2)
            {
                throw new InvalidRecordException("record batch format v" + batch.magic() +
                    " is not supported; Spool takes v2, which Kafka clients since 0.11 send");
            }
            batch.ensureValid();
            if (batch.isTransactional() || batch.isControlBatch())
            {
                throw new InvalidRecordException("transactions are not supported by Spool's Kafka listener");
            }
            only = batch;
        }
        if (only == null)
        {
            throw new InvalidRecordException("the produce request carries no record batch for the partition");
        }
        if (records.validBytes() != records.sizeInBytes())
        {
            throw new CorruptRecordException("the record batch is truncated: " + records.validBytes() + " of " +
                records.sizeInBytes() + " bytes form whole batches");
        }
        return only;
    }
}
