package io.spool.wire.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.spool.stream.Topic;
import io.spool.stream.TopicRegistry;

import java.nio.charset.StandardCharsets;

/**
 * The topics one connection used last, found by comparing the name's bytes in the frame, so a publish or fetch to a
 * known topic decodes no string. A topic that was deleted (its logs closed) is looked up again. Not thread-safe: one
 * per connection, used on its event loop.
 */
final class TopicCache
{
    private static final int CAPACITY = 16;

    private final TopicRegistry registry;
    private final ByteBuf[] names = new ByteBuf[CAPACITY];
    private final Topic[] topics = new Topic[CAPACITY];
    private int size;
    private int nextVictim;

    TopicCache(final TopicRegistry registry)
    {
        this.registry = registry;
    }

    /**
     * Reads a topic name field (uint16 length, UTF-8) at the reader index and returns its topic.
     *
     * @throws io.spool.api.stream.UnknownTopicException when there is no such topic.
     * @throws IndexOutOfBoundsException when the name runs past the frame.
     */
    Topic read(final ByteBuf body)
    {
        final int length = body.readUnsignedShortLE();
        final int index = body.readerIndex();
        if (length > body.readableBytes())
        {
            throw new IndexOutOfBoundsException("topic name of " + length + " bytes runs past the frame");
        }
        for (int i = 0; i < size; i++)
        {
            if (names[i].readableBytes() == length && ByteBufUtil.equals(body, index, names[i], 0, length) &&
                !topics[i].partition(0).isClosed())
            {
                body.skipBytes(length);
                return topics[i];
            }
        }
        final String name = body.toString(index, length, StandardCharsets.UTF_8);
        body.skipBytes(length);
        final Topic topic = registry.topic(name);
        remember(name, topic);
        return topic;
    }

    private void remember(final String name, final Topic topic)
    {
        final ByteBuf nameBytes = Unpooled.wrappedBuffer(name.getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < size; i++)
        {
            if (ByteBufUtil.equals(names[i], nameBytes))
            {
                topics[i] = topic;
                return;
            }
        }
        final int slot = size < CAPACITY ? size++ : nextVictim++ % CAPACITY;
        names[slot] = nameBytes;
        topics[slot] = topic;
    }
}
