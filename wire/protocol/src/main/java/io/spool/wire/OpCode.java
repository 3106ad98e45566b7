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
    /** The server's figures ({@link MetricsDescriptor}): partitions, subscriptions, groups, connections, requests. */
    public static final int METRICS = 0x14;
    /** Changes a live topic's retention by age and by size ({@link TopicDescriptor}). */
    public static final int ALTER_TOPIC_RETENTION = 0x15;

    /** One or more records to one partition, confirmed together ({@link PublishDescriptor}). */
    public static final int PUBLISH = 0x20;
    /**
     * A PUBLISH carrying its producer's id and sequence, which a cluster node stores once however often it is
     * retried ({@link SequencedPublishDescriptor}).
     */
    public static final int PUBLISH_SEQUENCED = 0x21;
    /** Records of one partition from an offset, with long poll ({@link FetchDescriptor}). */
    public static final int FETCH = 0x30;

    /** Joins a consumer group ({@link GroupDescriptor}); the answer is the member id. */
    public static final int GROUP_JOIN = 0x70;
    /** Keeps a member alive and tells it its partitions (or that they did not change). */
    public static final int GROUP_HEARTBEAT = 0x71;
    /** Leaves a group at once; its partitions go to the other members. */
    public static final int GROUP_LEAVE = 0x72;
    /** Commits offsets for a group, as a member (owned partitions only) or standalone (empty member id). */
    public static final int COMMIT_OFFSETS = 0x73;
    /** The offsets a group committed. */
    public static final int FETCH_COMMITTED = 0x74;
    /** The ids of the groups with live members or committed offsets ({@link GroupAdminDescriptor}). */
    public static final int LIST_GROUPS = 0x75;
    /** A group's members and, per partition, its committed offset, the log's start and end, and its lag. */
    public static final int DESCRIBE_GROUP = 0x76;
    /** Commits a group's offsets to the earliest, the latest, an offset or a time; refused while it has members. */
    public static final int RESET_OFFSETS = 0x77;
    /** Forgets a group's committed offsets; refused while it has members. */
    public static final int DELETE_GROUP = 0x78;

    /** Creates a subscription on a topic ({@link QueueDescriptor#encodeSettings}). */
    public static final int CREATE_SUBSCRIPTION = 0x40;
    /** Deletes a subscription by name. */
    public static final int DELETE_SUBSCRIPTION = 0x41;
    /** The names of every subscription. */
    public static final int LIST_SUBSCRIPTIONS = 0x42;
    /** A subscription's topic, settings and metrics ({@link SubscriptionDescriptor}). */
    public static final int DESCRIBE_SUBSCRIPTION = 0x43;
    /** Empties a subscription, which goes on from its topic's end; answers its metrics from just before. */
    public static final int PURGE_SUBSCRIPTION = 0x44;
    /** Moves the messages that died in a subscription back from its dead-letter topic. */
    public static final int REDRIVE = 0x45;
    /** Pull: up to N deliveries, locked for the lock timeout, with long poll ({@link QueueDescriptor}). */
    public static final int RECEIVE = 0x50;
    /** Settles pulled deliveries by receipt: ack, nack, nack with delay, reject, extend; answers per receipt. */
    public static final int SETTLE = 0x51;
    /** Push: starts a consumer with a prefetch; its deliveries arrive as {@link #DELIVERY} frames. */
    public static final int CONSUME = 0x60;
    /**
     * Settles a push consumer's deliveries by receipt (ack, nack, nack with delay, reject, extend); answered only
     * when refused as a whole.
     */
    public static final int CONSUMER_SETTLE = 0x61;
    /** Server to client: one pushed delivery; the correlation id is the consumer tag. */
    public static final int DELIVERY = 0x62;
    /** Server to client: a push settlement was refused (stale receipt, already settled). */
    public static final int SETTLEMENT_REFUSED = 0x63;
    /** Stops a push consumer; every delivery it held goes back to ready, redelivered. */
    public static final int CANCEL = 0x64;
    /** Server to client: a push consumer held a delivery past its lock; it went back to the subscription. */
    public static final int LOCK_EXPIRED = 0x65;

    /** Declares an exchange ({@link ExchangeDescriptor}); the same declaration again is a no-op. */
    public static final int DECLARE_EXCHANGE = 0x80;
    /** Deletes an exchange; answers whether it existed. */
    public static final int DELETE_EXCHANGE = 0x81;
    /** Binds a subscription to an exchange. */
    public static final int BIND = 0x82;
    /** Removes a binding; answers whether it existed. */
    public static final int UNBIND = 0x83;
    /** Every exchange with its bindings. */
    public static final int LIST_EXCHANGES = 0x84;
    /** Where a message with this routing key and these headers would go. */
    public static final int ROUTE = 0x85;

    private static final String[] NAMES = new String[0x100];

    static
    {
        NAMES[HELLO] = "HELLO";
        NAMES[PING] = "PING";
        NAMES[CREATE_TOPIC] = "CREATE_TOPIC";
        NAMES[DELETE_TOPIC] = "DELETE_TOPIC";
        NAMES[DESCRIBE_TOPIC] = "DESCRIBE_TOPIC";
        NAMES[LIST_TOPICS] = "LIST_TOPICS";
        NAMES[METRICS] = "METRICS";
        NAMES[ALTER_TOPIC_RETENTION] = "ALTER_TOPIC_RETENTION";
        NAMES[PUBLISH] = "PUBLISH";
        NAMES[PUBLISH_SEQUENCED] = "PUBLISH_SEQUENCED";
        NAMES[FETCH] = "FETCH";
        NAMES[GROUP_JOIN] = "GROUP_JOIN";
        NAMES[GROUP_HEARTBEAT] = "GROUP_HEARTBEAT";
        NAMES[GROUP_LEAVE] = "GROUP_LEAVE";
        NAMES[COMMIT_OFFSETS] = "COMMIT_OFFSETS";
        NAMES[FETCH_COMMITTED] = "FETCH_COMMITTED";
        NAMES[LIST_GROUPS] = "LIST_GROUPS";
        NAMES[DESCRIBE_GROUP] = "DESCRIBE_GROUP";
        NAMES[RESET_OFFSETS] = "RESET_OFFSETS";
        NAMES[DELETE_GROUP] = "DELETE_GROUP";
        NAMES[DECLARE_EXCHANGE] = "DECLARE_EXCHANGE";
        NAMES[DELETE_EXCHANGE] = "DELETE_EXCHANGE";
        NAMES[BIND] = "BIND";
        NAMES[UNBIND] = "UNBIND";
        NAMES[LIST_EXCHANGES] = "LIST_EXCHANGES";
        NAMES[ROUTE] = "ROUTE";
        NAMES[CREATE_SUBSCRIPTION] = "CREATE_SUBSCRIPTION";
        NAMES[DELETE_SUBSCRIPTION] = "DELETE_SUBSCRIPTION";
        NAMES[LIST_SUBSCRIPTIONS] = "LIST_SUBSCRIPTIONS";
        NAMES[DESCRIBE_SUBSCRIPTION] = "DESCRIBE_SUBSCRIPTION";
        NAMES[PURGE_SUBSCRIPTION] = "PURGE_SUBSCRIPTION";
        NAMES[REDRIVE] = "REDRIVE";
        NAMES[RECEIVE] = "RECEIVE";
        NAMES[SETTLE] = "SETTLE";
        NAMES[CONSUME] = "CONSUME";
        NAMES[CONSUMER_SETTLE] = "CONSUMER_SETTLE";
        NAMES[DELIVERY] = "DELIVERY";
        NAMES[SETTLEMENT_REFUSED] = "SETTLEMENT_REFUSED";
        NAMES[CANCEL] = "CANCEL";
        NAMES[LOCK_EXPIRED] = "LOCK_EXPIRED";
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
