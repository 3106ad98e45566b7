package io.spool.perf.cli;

import io.spool.api.Admin;
import io.spool.api.stream.PublishResult;
import io.spool.api.stream.StreamRecordHandler;
import io.spool.api.stream.TopicPartition;

import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.CompletableFuture;

/**
 * What the operator commands need from Spool, whether they reach it through a running server or open a data
 * directory themselves. Not thread-safe: one command uses it from one thread.
 */
interface Endpoint extends AutoCloseable
{
    /** Where the commands act, for messages: {@code server 127.0.0.1:7420} or {@code data directory spool-data}. */
    String where();

    /** Topics and subscriptions. */
    Admin admin();

    /** Consumer groups, exchanges and bindings. */
    GroupsAndExchanges groupsAndExchanges();

    /** Opens a producer; closing it waits for the confirms of everything sent. */
    Sender newSender();

    /** Opens a stream reader with no partition assigned. */
    Reader newReader();

    @Override
    void close();

    /** Publishes records one by one. Not thread-safe. */
    interface Sender extends AutoCloseable
    {
        /** Publishes by key (spread when the key is null); the result completes when the record is stored. */
        CompletableFuture<PublishResult> send(String topic, byte[] key, byte[] value);

        @Override
        void close();
    }

    /** Reads partitions as a stream from the positions it is given. Not thread-safe. */
    interface Reader extends AutoCloseable
    {
        void assign(Collection<TopicPartition> partitions);

        void seek(TopicPartition partition, long offset);

        /**
         * Hands up to {@code maxRecords} records to {@code handler}, waiting up to {@code timeout} for the first.
         *
         * @return how many records were handed over; 0 when the timeout passed first.
         */
        int poll(StreamRecordHandler handler, int maxRecords, Duration timeout);

        @Override
        void close();
    }
}
