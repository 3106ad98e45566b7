package io.spool.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.spool.api.SpoolException;
import io.spool.api.stream.PublishListener;
import io.spool.api.stream.TopicPartition;
import io.spool.wire.client.ProducerConfig;
import io.spool.wire.client.RemoteProducer;
import io.spool.wire.client.RemoteStreamConsumer;
import io.spool.wire.client.SpoolClient;
import io.spool.wire.server.ServerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random and mutated frames thrown at a running server while a well-behaved client publishes and consumes: that
 * client must see every message, and the server must go on serving.
 */
class FuzzTest
{
    private static final int MESSAGES = 3_000;
    private static final int FUZZ_CONNECTIONS = 300;
    private static final long SEED = Long.getLong("spool.fuzz.seed", 20261130L);

    @TempDir
    Path dir;

    @Test
    void garbageFromSomeConnectionsHarmsNeitherTheServerNorAWellBehavedClient() throws Exception
    {
        try (WireFixture fixture = new WireFixture(dir, ServerConfig.builder().maxFrameLength(64 * 1024)))
        {
            final SpoolClient good = fixture.connect();
            good.admin().createTopic("orders", WireFixture.topic(1));
            good.admin().createTopic("fuzz", WireFixture.topic(1));
            good.admin().createSubscription("fuzz-sub", "fuzz", io.spool.api.queue.SubscriptionSettings.DEFAULT);

            final ConcurrentHashMap<Long, Long> confirmed = new ConcurrentHashMap<>();
            final CompletableFuture<Boolean> publishing = CompletableFuture.supplyAsync(() -> publish(good, confirmed));
            final CompletableFuture<List<String>> consuming = CompletableFuture.supplyAsync(() -> consume(good));

            final Random random = new Random(SEED);
            final List<byte[]> templates = validFrames();
            for (int i = 0; i < FUZZ_CONNECTIONS; i++)
            {
                try (RawConnection raw = new RawConnection(fixture.server().port()))
                {
                    if (random.nextInt(4) != 0)
                    {
                        raw.hello("");
                    }
                    for (int frames = 1 + random.nextInt(4); frames > 0; frames--)
                    {
                        if (!raw.send(random.nextInt(3) == 0 ? randomBytes(random) :
                            mutate(templates.get(random.nextInt(templates.size())), random)))
                        {
                            break;
                        }
                    }
                }
            }

            assertThat(publishing.get(60, TimeUnit.SECONDS)).as("producer confirmed everything (seed %d)", SEED)
                .isTrue();
            final List<String> seen = consuming.get(60, TimeUnit.SECONDS);
            assertThat(confirmed).hasSize(MESSAGES);
            for (long i = 0; i < MESSAGES; i++)
            {
                assertThat(confirmed.get(i)).isEqualTo(i);
            }
            assertThat(seen).hasSize(MESSAGES);
            for (int i = 0; i < MESSAGES; i++)
            {
                assertThat(seen.get(i)).isEqualTo("message-" + i);
            }

            final SpoolClient late = fixture.connect();
            assertThat(late.admin().listTopics()).contains("orders");
            assertThat(late.newProducer(ProducerConfig.defaults(), RoundTripTest.ignoringListener())
                .send("orders", null, RoundTripTest.bytes("after")).join().offset()).isEqualTo(MESSAGES);
            assertThat(WireFixture.await(() -> fixture.server().connectionCount() == 2, Duration.ofSeconds(10)))
                .as("fuzz connections are all closed").isTrue();
        }
    }

    private static boolean publish(final SpoolClient client, final ConcurrentHashMap<Long, Long> confirmed)
    {
        final RemoteProducer producer = client.newProducer(ProducerConfig.builder().batchBytes(2048).build(),
            new PublishListener()
            {
                @Override
                public void onPublished(final long correlation, final String topic, final int partition,
                    final long offset)
                {
                    confirmed.put(correlation, offset);
                }

                @Override
                public void onFailed(final long correlation, final String topic, final int partition,
                    final SpoolException error)
                {
                    confirmed.put(correlation, -1L);
                }
            });
        for (int i = 0; i < MESSAGES; i++)
        {
            producer.sendToPartition("orders", 0, null, null, ("message-" + i).getBytes(StandardCharsets.UTF_8), i);
        }
        return producer.awaitConfirms();
    }

    private static List<String> consume(final SpoolClient client)
    {
        final RemoteStreamConsumer consumer = client.newStreamReader();
        consumer.assign(List.of(new TopicPartition("orders", 0)));
        final List<String> values = new ArrayList<>();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (values.size() < MESSAGES && System.nanoTime() < deadline)
        {
            consumer.poll((topic, partition, record) -> values.add(new String(record.valueBytes(),
                StandardCharsets.UTF_8)), 500, 64 * 1024, Duration.ofMillis(200));
        }
        return values;
    }

    private static List<byte[]> validFrames()
    {
        final byte[] fuzz = "fuzz".getBytes(StandardCharsets.UTF_8);
        final List<byte[]> frames = new ArrayList<>();
        ByteBuf frame = Unpooled.buffer();
        final int count = PublishDescriptor.beginRequest(frame, 7, fuzz, 0);
        PublishDescriptor.appendRecord(frame, -1, 0, new byte[]{1, 2}, null, new byte[]{3, 4, 5});
        PublishDescriptor.appendRecord(frame, -1, 0, null, null, new byte[40]);
        PublishDescriptor.finishRequest(frame, count, 2);
        frames.add(bytes(frame));
        frame = Unpooled.buffer();
        FetchDescriptor.encodeRequest(frame, 8, fuzz, 0, 0, 10, 4096, 0);
        frames.add(bytes(frame));
        frame = Unpooled.buffer();
        FrameDescriptor.finish(frame, FrameDescriptor.begin(frame, OpCode.LIST_TOPICS, 0, 9));
        frames.add(bytes(frame));
        frame = Unpooled.buffer();
        FrameDescriptor.begin(frame, OpCode.RECEIVE, 0, 10);
        Fields.writeString(frame, "fuzz-sub");
        frame.writeIntLE(5).writeLongLE(0);
        FrameDescriptor.finish(frame, 0);
        frames.add(bytes(frame));
        frame = Unpooled.buffer();
        FrameDescriptor.begin(frame, OpCode.SETTLE, 0, 11);
        Fields.writeString(frame, "fuzz-sub");
        frame.writeByte(0).writeLongLE(0).writeIntLE(1);
        QueueDescriptor.encodeReceipt(frame, 0, 0, 0, 1);
        FrameDescriptor.finish(frame, 0);
        frames.add(bytes(frame));
        frame = Unpooled.buffer();
        FrameDescriptor.finish(frame, FrameDescriptor.begin(frame, OpCode.PING, 0, 12));
        frames.add(bytes(frame));
        frame = Unpooled.buffer();
        FrameDescriptor.begin(frame, OpCode.CONSUME, 0, 13);
        Fields.writeString(frame, "fuzz-sub");
        frame.writeIntLE(1).writeIntLE(2).writeByte(0);
        FrameDescriptor.finish(frame, 0);
        frames.add(bytes(frame));
        frame = Unpooled.buffer();
        FrameDescriptor.begin(frame, OpCode.CONSUMER_SETTLE, 0, 0);
        frame.writeIntLE(1).writeByte(QueueDescriptor.SettleKind.NACK_DELAYED.ordinal()).writeLongLE(1_000)
            .writeIntLE(1);
        QueueDescriptor.encodeReceipt(frame, 0, 0, 0, 1);
        FrameDescriptor.finish(frame, 0);
        frames.add(bytes(frame));
        return frames;
    }

    private static byte[] mutate(final byte[] template, final Random random)
    {
        final byte[] frame = template.clone();
        switch (random.nextInt(4))
        {
            case 0:
                for (int flips = 1 + random.nextInt(4); flips > 0; flips--)
                {
                    frame[random.nextInt(frame.length)] = (byte)random.nextInt(256);
                }
                break;
            case 1:
                return java.util.Arrays.copyOf(frame, 1 + random.nextInt(frame.length));
            case 2:
                final int length = random.nextBoolean() ? random.nextInt() : template.length + random.nextInt(64) - 32;
                java.nio.ByteBuffer.wrap(frame).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(0, length);
                break;
            default:
                frame[FrameDescriptor.OP_CODE_OFFSET] = (byte)random.nextInt(256);
                break;
        }
        final int opCode = (frame.length > FrameDescriptor.OP_CODE_OFFSET + 1) ?
            (frame[FrameDescriptor.OP_CODE_OFFSET] & 0xFF) | (frame[FrameDescriptor.OP_CODE_OFFSET + 1] & 0xFF) << 8 : 0;
        if (opCode == OpCode.CREATE_TOPIC || opCode == OpCode.CREATE_SUBSCRIPTION)
        {
            // a garbage topic config could ask for gigabytes of segments; abuse of admin rights is not this test's
            frame[FrameDescriptor.OP_CODE_OFFSET] = (byte)OpCode.PING;
        }
        return frame;
    }

    private static byte[] randomBytes(final Random random)
    {
        final byte[] bytes = new byte[1 + random.nextInt(200)];
        random.nextBytes(bytes);
        return bytes;
    }

    private static byte[] bytes(final ByteBuf frame)
    {
        final byte[] bytes = new byte[frame.readableBytes()];
        frame.readBytes(bytes);
        frame.release();
        return bytes;
    }
}
