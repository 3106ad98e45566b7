package io.spool.cluster;

import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.apache.kafka.common.requests.RequestHeader;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * One Produce request (acks=all) sent to one chosen node over a bare socket ({@link RawKafka}), which no stock
 * client does: it follows the leader by itself. Built and read with kafka-clients' own request classes.
 */
final class RawProduce
{
    /** A partition's answer: its error's name, and the leader and its address the answer names (-1 and null if none). */
    record Answer(String error, int currentLeader, String leaderAddress)
    {
    }

    private RawProduce()
    {
    }

    static Answer send(final String address, final String topic, final int partition, final byte[] value)
        throws IOException
    {
        final ProduceRequestData body = new ProduceRequestData().setAcks((short)-1).setTimeoutMs(10_000);
        final ProduceRequestData.TopicProduceData topicData = new ProduceRequestData.TopicProduceData().setName(topic);
        topicData.partitionData().add(new ProduceRequestData.PartitionProduceData().setIndex(partition)
            .setRecords(MemoryRecords.withRecords(Compression.NONE, new SimpleRecord(value))));
        body.topicData().add(topicData);
        // v12 names topics, v13 and later only by id
        final short version = 12;
        final RequestHeader header = new RequestHeader(ApiKeys.PRODUCE, version, "raw-produce", 1);
        final ByteBuffer request = ProduceRequest.builder(body).build(version).serializeWithHeader(header);
        final ProduceResponseData response = ((ProduceResponse)AbstractResponse.parseResponse(
            RawKafka.exchange(address, request), header)).data();
        final ProduceResponseData.PartitionProduceResponse answer =
            response.responses().iterator().next().partitionResponses().get(0);
        final int leader = answer.currentLeader().leaderId();
        final List<ProduceResponseData.NodeEndpoint> endpoints = response.nodeEndpoints().findAll(leader);
        return new Answer(Errors.forCode(answer.errorCode()).name(), leader,
            endpoints.isEmpty() ? null : endpoints.get(0).host() + ":" + endpoints.get(0).port());
    }
}
