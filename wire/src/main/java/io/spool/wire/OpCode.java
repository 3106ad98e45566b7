package io.spool.wire;

/**
 * The operations of protocol version {@link FrameDescriptor#VERSION}; each names the layout of its request and
 * response bodies. Immutable, thread-safe.
 */
public final class OpCode
{
    /** Handshake: protocol version and shared-secret token ({@link HelloDescriptor}); must come first. */
    public static final int HELLO = 0x01;
    /** Heartbeat, either way, empty body; the peer answers with an empty response. */
    public static final int PING = 0x02;

    /** Creates a topic ({@link TopicDescriptor#encodeConfig}). */
    public static final int CREATE_TOPIC = 0x10;
    /** Deletes a topic by name. */
    public static final int DELETE_TOPIC = 0x11;
    /** A topic's settings and each partition's offsets ({@link TopicDescriptor}). */
    public static final int DESCRIBE_TOPIC = 0x12;
    /** The names of every topic. */
    public static final int LIST_TOPICS = 0x13;

    /** One or more records to one partition, confirmed together ({@link PublishDescriptor}). */
    public static final int PUBLISH = 0x20;
    /** Records of one partition from an offset, with long poll ({@link FetchDescriptor}). */
    public static final int FETCH = 0x30;

    private static final String[] NAMES = new String[0x100];

    static
    {
        NAMES[HELLO] = "HELLO";
        NAMES[PING] = "PING";
        NAMES[CREATE_TOPIC] = "CREATE_TOPIC";
        NAMES[DELETE_TOPIC] = "DELETE_TOPIC";
        NAMES[DESCRIBE_TOPIC] = "DESCRIBE_TOPIC";
        NAMES[LIST_TOPICS] = "LIST_TOPICS";
        NAMES[PUBLISH] = "PUBLISH";
        NAMES[FETCH] = "FETCH";
    }

    private OpCode()
    {
    }

    public static boolean isKnown(final int opCode)
    {
        return opCode >= 0 && opCode < NAMES.length && NAMES[opCode] != null;
    }

    public static String name(final int opCode)
    {
        return isKnown(opCode) ? NAMES[opCode] : "0x" + Integer.toHexString(opCode);
    }
}
