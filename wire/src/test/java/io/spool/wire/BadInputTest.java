package io.spool.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.spool.api.SpoolException;
import io.spool.api.log.BackPressureException;
import io.spool.api.log.RecordTooLargeException;
import io.spool.log.ConfirmListener;
import io.spool.log.PartitionLog;
import io.spool.wire.client.ClientConfig;
import io.spool.wire.client.ProducerConfig;
import io.spool.wire.client.RemoteProducer;
import io.spool.wire.client.SpoolClient;
import io.spool.wire.server.ServerConfig;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static io.spool.wire.RoundTripTest.bytes;
import static io.spool.wire.RoundTripTest.ignoringListener;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BadInputTest
{
    private static final int MAX_FRAME = 64 * 1024;

    @TempDir
    Path dir;
    private WireFixture fixture;

    @AfterEach
    void stop()
    {
        if (fixture != null)
        {
            fixture.close();
        }
    }

    private void startServer(final ServerConfig.Builder config)
    {
        fixture = new WireFixture(dir, config);
    }

    @Test
    void aWrongTokenIsRefusedAndClosedWhileTheRightOneWorks() throws Exception
    {
        startServer(ServerConfig.builder().token("s3cret"));
        assertThatThrownBy(() -> fixture.connect(fixture.clientConfig().token("guess")))
            .isInstanceOf(AuthenticationException.class).hasMessageContaining("token");
        assertThatThrownBy(() -> fixture.connect(fixture.clientConfig()))
            .isInstanceOf(AuthenticationException.class);

        try (RawConnection raw = new RawConnection(fixture.server().port()))
        {
            final ByteBuf hello = Unpooled.buffer();
            HelloDescriptor.encodeRequest(hello, 1, "nope", "raw");
            raw.send(hello);
            assertThat(raw.readErrorCode()).isEqualTo(ErrorCode.AUTHENTICATION_FAILED);
            assertThat(raw.closedByServer()).isTrue();
        }
        final SpoolClient good = fixture.connect(fixture.clientConfig().token("s3cret"));
        good.admin().createTopic("fine", WireFixture.topic(1));
        assertThat(good.admin().listTopics()).containsExactly("fine");
    }

    @Test
    void anOperationBeforeTheHandshakeClosesTheConnection() throws Exception
    {
        startServer(ServerConfig.builder());
        try (RawConnection raw = new RawConnection(fixture.server().port()))
        {
            final ByteBuf list = RawConnection.frame(OpCode.LIST_TOPICS, 5);
            FrameDescriptor.finish(list, 0);
            raw.send(list);
            assertThat(raw.readErrorCode()).isEqualTo(ErrorCode.NOT_AUTHENTICATED);
            assertThat(raw.closedByServer()).isTrue();
        }
    }

    @Test
    void anOversizedFrameIsRefusedAndClosedWithoutHarmingOthers() throws Exception
    {
        startServer(ServerConfig.builder().maxFrameLength(MAX_FRAME));
        final SpoolClient bystander = fixture.connect();
        bystander.admin().createTopic("t", WireFixture.topic(1));
        try (RawConnection raw = new RawConnection(fixture.server().port()).hello(""))
        {
            final ByteBuf huge = Unpooled.buffer();
            huge.writeIntLE(MAX_FRAME + 1).writeByte(FrameDescriptor.VERSION).writeByte(0).writeShortLE(OpCode.PUBLISH)
                .writeLongLE(9).writeZero(1024);
            raw.send(huge);
            assertThat(raw.readErrorCode()).isEqualTo(ErrorCode.FRAME_TOO_LARGE);
            assertThat(raw.closedByServer()).isTrue();
        }
        final SpoolClient client = fixture.connect();
        final RemoteProducer producer = client.newProducer(ProducerConfig.defaults(), ignoringListener());
        assertThatThrownBy(() -> producer.send("t", null, new byte[MAX_FRAME])).isInstanceOf(RecordTooLargeException.class)
            .hasMessageContaining("frame limit of " + MAX_FRAME + " bytes").hasMessageContaining("topic \"t\"");
        assertThatThrownBy(() -> producer.send("t", null, null, new byte[MAX_FRAME], 7))
            .isInstanceOf(RecordTooLargeException.class);
        assertThat(producer.send("t", null, bytes("small")).join().offset()).isZero();
        assertThat(bystander.admin().describeTopic("t").partitions().get(0).endOffset()).isEqualTo(1);
    }

    @Test
    void framesThatBreakTheFramingAreAnsweredAndClosed() throws Exception
    {
        startServer(ServerConfig.builder());
        try (RawConnection raw = new RawConnection(fixture.server().port()).hello(""))
        {
            raw.send(Unpooled.buffer().writeIntLE(8).writeIntLE(0));
            assertThat(raw.readErrorCode()).isEqualTo(ErrorCode.MALFORMED_FRAME);
            assertThat(raw.closedByServer()).isTrue();
        }
        try (RawConnection raw = new RawConnection(fixture.server().port()).hello(""))
        {
            raw.send(Unpooled.buffer().writeIntLE(-5).writeIntLE(0));
            assertThat(raw.readErrorCode()).as("a negative length reads as one above the limit")
                .isEqualTo(ErrorCode.FRAME_TOO_LARGE);
            assertThat(raw.closedByServer()).isTrue();
        }
        try (RawConnection raw = new RawConnection(fixture.server().port()).hello(""))
        {
            final ByteBuf future = RawConnection.frame(OpCode.PING, 3);
            future.setByte(FrameDescriptor.VERSION_OFFSET, 9);
            FrameDescriptor.finish(future, 0);
            raw.send(future);
            assertThat(raw.readErrorCode()).isEqualTo(ErrorCode.UNSUPPORTED_VERSION);
            assertThat(raw.closedByServer()).isTrue();
        }
    }

    @Test
    void aBadBodyOrUnknownOperationGetsAnErrorAndTheConnectionGoesOn() throws Exception
    {
        startServer(ServerConfig.builder());
        fixture.connect().admin().createTopic("t", WireFixture.topic(1));
        try (RawConnection raw = new RawConnection(fixture.server().port()).hello(""))
        {
            final ByteBuf unknown = RawConnection.frame(0x7F, 11);
            FrameDescriptor.finish(unknown, 0);
            raw.send(unknown);
            assertThat(raw.readErrorCode()).isEqualTo(ErrorCode.UNKNOWN_OPERATION);

            final ByteBuf publish = RawConnection.frame(OpCode.PUBLISH, 12);
            Fields.writeString(publish, "t");
            publish.writeIntLE(0).writeIntLE(1).writeLongLE(-1).writeIntLE(0).writeIntLE(-1).writeIntLE(0)
                .writeIntLE(1_000_000);
            FrameDescriptor.finish(publish, 0);
            raw.send(publish);
            assertThat(raw.readErrorCode()).isEqualTo(ErrorCode.MALFORMED_FRAME);

            final ByteBuf list = RawConnection.frame(OpCode.LIST_TOPICS, 13);
            list.writeByte(1);
            FrameDescriptor.finish(list, 0);
            raw.send(list);
            assertThat(raw.readErrorCode()).isEqualTo(ErrorCode.MALFORMED_FRAME);

            final ByteBuf fetch = RawConnection.frame(OpCode.FETCH, 14);
            Fields.writeString(fetch, "t");
            fetch.writeIntLE(0).writeLongLE(0).writeIntLE(0).writeIntLE(100).writeIntLE(0);
            FrameDescriptor.finish(fetch, 0);
            raw.send(fetch);
            assertThat(raw.readErrorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT);

            final ByteBuf ping = RawConnection.frame(OpCode.PING, 15);
            FrameDescriptor.finish(ping, 0);
            raw.send(ping);
            final ByteBuffer pong = raw.readFrame();
            assertThat(pong.getShort(FrameDescriptor.OP_CODE_OFFSET)).isEqualTo((short)OpCode.PING);
            assertThat(pong.getLong(FrameDescriptor.CORRELATION_ID_OFFSET)).isEqualTo(15);
        }
        assertThat(fixture.spool().streams().describeTopic("t").partitions().get(0).endOffset()).isZero();
    }

    @Test
    void badRecordsInPublishFramesAreRefusedAndLaterPublishesStillConfirm()
    {
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(60), () ->
        {
            startServer(ServerConfig.builder());
            final SpoolClient client = fixture.connect();
            client.admin().createTopic("t", io.spool.api.stream.TopicConfig.of(2).withLog(
                io.spool.api.log.LogConfig.builder().segmentBytes(1 << 20).maxRecordBytes(1024).build()));
            try (RawConnection raw = new RawConnection(fixture.server().port()).hello(""))
            {
                raw.send(publishFrame(21, 0, 0, 3, 0, 2, 2));
                assertThat(raw.readErrorCode()).as("a key running past the frame").isEqualTo(ErrorCode.MALFORMED_FRAME);
                raw.send(publishFrame(22, 0, 0, -2, 0, 0, 0));
                assertThat(raw.readErrorCode()).as("a negative key length").isEqualTo(ErrorCode.MALFORMED_FRAME);
                raw.send(publishFrame(23, 1, 0, -1, 0, 2_000, 2_000));
                assertThat(raw.readErrorCode()).as("a record over maxRecordBytes")
                    .isEqualTo(ErrorCode.RECORD_TOO_LARGE);
                raw.send(publishFrame(24, 1, 0x40, -1, 0, 1, 1));
                assertThat(raw.readErrorCode()).as("unknown attributes").isEqualTo(ErrorCode.INVALID_ARGUMENT);
                raw.send(publishFrame(25, 5, 0, -1, 0, 1, 1));
                assertThat(raw.readErrorCode()).as("no such partition").isEqualTo(ErrorCode.UNKNOWN_PARTITION);
            }
            final RemoteProducer producer = client.newProducer(ProducerConfig.defaults(), ignoringListener());
            assertThat(producer.send("t", null, bytes("after")).get(30, TimeUnit.SECONDS).offset()).isZero();
            assertThat(producer.send("t", null, bytes("after")).get(30, TimeUnit.SECONDS).offset()).isZero();
            assertThat(fixture.spool().streams().describeTopic("t").partitions())
                .allSatisfy(partition -> assertThat(partition.endOffset()).isEqualTo(1));
            fixture.close();
            fixture = null;
        });
    }

    /**
     * A PUBLISH of one record to topic "t" whose length fields say what the arguments say and whose body holds
     * {@code bodyBytes} bytes, whatever the lengths claim.
     */
    private static ByteBuf publishFrame(final long correlationId, final int partition, final int attributes, final int keyLength, final int headersLength, final int valueLength, final int bodyBytes)
    {
        final ByteBuf publish = RawConnection.frame(OpCode.PUBLISH, correlationId);
        Fields.writeString(publish, "t");
        publish.writeIntLE(partition).writeIntLE(1).writeLongLE(-1).writeIntLE(attributes)
            .writeIntLE(keyLength).writeIntLE(headersLength).writeIntLE(valueLength).writeZero(bodyBytes);
        FrameDescriptor.finish(publish, 0);
        return publish;
    }

    @Test
    void connectionsAboveTheLimitAreRefused() throws Exception
    {
        startServer(ServerConfig.builder().maxConnections(2));
        fixture.connect();
        fixture.connect();
        try (RawConnection third = new RawConnection(fixture.server().port()))
        {
            final ByteBuf hello = Unpooled.buffer();
            HelloDescriptor.encodeRequest(hello, 1, "", "raw");
            third.send(hello);
            assertThat(third.readErrorCode()).isEqualTo(ErrorCode.TOO_MANY_CONNECTIONS);
            assertThat(third.closedByServer()).isTrue();
        }
        assertThatThrownBy(fixture::connect).isInstanceOf(ProtocolException.class)
            .hasMessage("the server holds its limit of 2 connections");
    }

    @Test
    void connectionsFromOneAddressAboveItsLimitAreRefusedWhileTheTotalHasRoom() throws Exception
    {
        startServer(ServerConfig.builder().maxConnections(10).maxConnectionsPerAddress(2));
        fixture.connect();
        final SpoolClient second = fixture.connect();
        assertThatThrownBy(fixture::connect).isInstanceOf(ProtocolException.class)
            .hasMessage("the server holds its limit of 2 connections from 127.0.0.1");
        second.close();
        assertThat(WireFixture.await(() -> fixture.server().connectionCount() == 1, Duration.ofSeconds(10))).isTrue();
        fixture.connect().admin().createTopic("room-again", WireFixture.topic(1));
        assertThatThrownBy(() -> ServerConfig.builder().maxConnections(4).maxConnectionsPerAddress(5).build())
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxConnectionsPerAddress");
    }

    @Test
    void aClientThatDoesNotReadItsAnswersIsNoLongerReadWhileOthersGoOn() throws Exception
    {
        startServer(ServerConfig.builder());
        final SpoolClient good = fixture.connect();
        good.admin().createTopic("big", WireFixture.topic(1));
        final RemoteProducer producer = good.newProducer(ProducerConfig.defaults(), ignoringListener());
        for (int i = 0; i < 200; i++)
        {
            producer.send("big", null, null, new byte[8 * 1024], i);
        }
        assertThat(producer.awaitConfirms()).isTrue();
        final RawConnection slow = new RawConnection(fixture.server().port()).hello("");
        final java.util.concurrent.CompletableFuture<Void> sending = java.util.concurrent.CompletableFuture.runAsync(
            () ->
            {
                for (int sent = 0; ; sent++)
                {
                    final ByteBuf fetch = Unpooled.buffer();
                    FetchDescriptor.encodeRequest(fetch, sent, "big".getBytes(StandardCharsets.UTF_8), 0, 0, 1000,
                        1 << 20, 0);
                    if (!slow.send(fetch))
                    {
                        return;
                    }
                }
            });

        assertThat(WireFixture.await(() -> fixture.server().pausedConnectionCount() == 1, Duration.ofSeconds(20)))
            .as("the server stopped reading the connection whose answers pile up").isTrue();
        producer.send("big", null, bytes("still served")).join();
        assertThat(good.admin().describeTopic("big").partitions().get(0).endOffset()).isEqualTo(201);

        slow.close();
        sending.get(20, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(WireFixture.await(() -> fixture.server().connectionCount() == 1 &&
            fixture.server().pausedConnectionCount() == 0, Duration.ofSeconds(10))).isTrue();
    }

    @Test
    void aProducerKeepsToTheServersBoundOnUnconfirmedPublishes()
    {
        startServer(ServerConfig.builder().maxUnconfirmedPublishes(8));
        final SpoolClient client = fixture.connect();
        assertThat(client.serverLimits().maxUnconfirmedPublishes()).isEqualTo(8);
        client.admin().createTopic("bounded", WireFixture.topic(1));
        final RemoteProducer producer = client.newProducer(ProducerConfig.builder().lingerMillis(1).build(),
            ignoringListener());
        for (int i = 0; i < 2_000; i++)
        {
            producer.send("bounded", null, null, ("r" + i).getBytes(StandardCharsets.UTF_8), i);
            assertThat(producer.unconfirmed()).isLessThanOrEqualTo(8);
        }
        assertThat(producer.awaitConfirms()).isTrue();
        assertThat(WireFixture.await(() -> fixture.spool().streams().describeTopic("bounded").partitions().get(0)
            .endOffset() == 2_000, Duration.ofSeconds(5))).isTrue();
    }

    @Test
    void aClientBeyondTheServersBoundOnUnconfirmedPublishesIsNotReadUntilConfirmsCatchUp() throws Exception
    {
        startServer(ServerConfig.builder().maxUnconfirmedPublishes(4));
        fixture.spool().createTopic("stalled", WireFixture.topic(1));
        final PartitionLog log = fixture.spool().streams().topics().topic("stalled").partition(0);
        final CountDownLatch release = stallConfirms(log);
        try (RawConnection raw = new RawConnection(fixture.server().port()).hello(""))
        {
            for (int i = 0; i < 10; i++)
            {
                final ByteBuf publish = Unpooled.buffer();
                final int count = PublishDescriptor.beginRequest(publish, 100 + i,
                    "stalled".getBytes(StandardCharsets.UTF_8), 0);
                PublishDescriptor.appendRecord(publish, -1, 0, null, null, bytes("r" + i));
                PublishDescriptor.finishRequest(publish, count, 1);
                assertThat(raw.send(publish)).isTrue();
            }
            assertThat(WireFixture.await(() -> fixture.server().pausedConnectionCount() == 1, Duration.ofSeconds(10)))
                .as("four unconfirmed records stop the server reading the connection").isTrue();

            release.countDown();
            for (int i = 0; i < 10; i++)
            {
                final ByteBuffer answer = raw.readFrame();
                assertThat(answer.get(FrameDescriptor.FLAGS_OFFSET)).isEqualTo((byte)FrameDescriptor.FLAG_RESPONSE);
            }
            assertThat(WireFixture.await(() -> fixture.server().pausedConnectionCount() == 0, Duration.ofSeconds(10)))
                .isTrue();
            assertThat(log.endOffset()).isEqualTo(11);
        }
        finally
        {
            release.countDown();
        }
    }

    @Test
    void aProducerThatFindsNoRoomWithinItsBlockTimeSaysBackPressure() throws Exception
    {
        startServer(ServerConfig.builder());
        fixture.spool().createTopic("stalled", WireFixture.topic(1));
        final CountDownLatch release = stallConfirms(fixture.spool().streams().topics().topic("stalled").partition(0));
        try
        {
            final CachedNanoClock clock = new CachedNanoClock();
            final RemoteProducer producer = fixture.connect().newProducer(ProducerConfig.builder().maxUnconfirmed(4)
                .lingerMillis(0).maxBlockMillis(60_000).clock(clock).build(), ignoringListener());
            for (int i = 0; i < 4; i++)
            {
                producer.send("stalled", null, null, bytes("r" + i), i);
            }
            final AtomicReference<Throwable> outcome = new AtomicReference<>();
            final Thread fifth = new Thread(() ->
            {
                try
                {
                    producer.send("stalled", null, null, bytes("r4"), 4);
                }
                catch (final RuntimeException ex)
                {
                    outcome.set(ex);
                }
            });
            fifth.start();
            assertThat(WireFixture.await(() -> LockSupport.getBlocker(fifth) == producer, Duration.ofSeconds(10)))
                .as("the fifth send waits for room").isTrue();

            clock.advance(TimeUnit.MILLISECONDS.toNanos(60_000));
            fifth.join(10_000);
            assertThat(outcome.get()).isInstanceOf(BackPressureException.class)
                .hasMessageContaining("4 records are unconfirmed, the bound is 4");
            release.countDown();
            assertThat(producer.awaitConfirms()).isTrue();
        }
        finally
        {
            release.countDown();
        }
    }

    /**
     * Holds up every confirm of {@code log}'s pipeline until the returned latch is released: the confirm listener
     * of a record published first blocks the pipeline's publish stage.
     */
    private CountDownLatch stallConfirms(final PartitionLog log)
    {
        final CountDownLatch release = new CountDownLatch(1);
        final UnsafeBuffer stall = new UnsafeBuffer(bytes("stall"));
        fixture.spool().streams().logStore().newProducer().publish(log, -1, stall, 0, -1, stall, 0, 0, stall, 0,
            stall.capacity(), new ConfirmListener()
            {
                @Override
                public void onConfirmed(final long correlation, final long offset)
                {
                    awaitQuietly(release);
                }

                @Override
                public void onFailed(final long correlation, final SpoolException error)
                {
                    awaitQuietly(release);
                }
            }, 0);
        return release;
    }

    private static void awaitQuietly(final CountDownLatch latch)
    {
        try
        {
            latch.await();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void aClientThatCannotReachTheServerSaysSo()
    {
        startServer(ServerConfig.builder());
        final int port = fixture.server().port();
        fixture.close();
        fixture = null;
        assertThatThrownBy(() -> SpoolClient.connect(ClientConfig.builder().port(port).connectTimeoutMillis(2_000)
            .build())).isInstanceOf(ConnectionLostException.class).hasMessageContaining("cannot connect");
    }
}
