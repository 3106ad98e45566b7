package io.spool.wire.kafka;

import io.netty.channel.EventLoopGroup;
import io.spool.Spool;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.message.ListGroupsResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;


/**
 * The listener's view of the engine: routes each request to the part that answers it. Requests that touch files
 * or wait (topic and group administration) run on the admin thread, the rest on the connection's event loop.
 * Thread-safe.
 */
final class KafkaBroker
{
    private static final Logger LOGGER = LoggerFactory.getLogger(KafkaBroker.class);
    /** How often group sessions, rebalance deadlines and share-group locks are looked at. */
    static final long SWEEP_MILLIS = 50;

    private final KafkaListenerConfig config;
    private final SupportedApis apis;
    private final TopicIds topicIds;
    private final ExecutorService adminExecutor;
    private final ClusterApis cluster;
    private final ProduceApi produce;
    private final FetchApi fetch;
    private final OffsetApis offsets;
    private final ClassicGroups classicGroups;
    private final ClassicGroupMemberships classicMemberships;
    private final ConsumerGroups consumerGroups;
    private final ShareGroups shareGroups;
    private final GroupAdminApis groupAdmin;
    private final ClusterGroupDeletion clusterGroupDeletion;
    private final SaslPlain sasl;
    private final PartitionLeaders leaders;
    private final Spool engine;
    /** The cluster this node belongs to, or null for a single node. */
    private final KafkaCluster replicated;

    /** @param replicated the cluster this node belongs to, or null for a single node. */
    KafkaBroker(final Spool engine, final KafkaListenerConfig config, final KafkaCluster replicated,
        final ExecutorService adminExecutor, final EventLoopGroup timers)
    {
        this.engine = engine;
        this.replicated = replicated;
        this.config = config;
        this.adminExecutor = adminExecutor;
        this.apis = new SupportedApis(replicated != null);
        this.topicIds = new TopicIds(engine.streams());
        this.leaders = new PartitionLeaders(replicated, config.nodeId());
        this.cluster = new ClusterApis(engine, config, topicIds, leaders);
        this.produce = new ProduceApi(engine, topicIds, leaders);
        this.fetch = new FetchApi(engine.streams(), topicIds, leaders);
        this.classicGroups = new ClassicGroups(engine.streams(), config);
        this.classicMemberships = new ClassicGroupMemberships(classicGroups);
        engine.streams().addExternalGroups(classicMemberships);
        this.consumerGroups = new ConsumerGroups(engine.streams(), config, topicIds);
        this.shareGroups = new ShareGroups(engine, config, topicIds);
        this.offsets = new OffsetApis(engine.streams(), topicIds, classicGroups, consumerGroups, leaders);
        this.groupAdmin = new GroupAdminApis(engine, topicIds, classicGroups, consumerGroups, shareGroups);
        this.clusterGroupDeletion = new ClusterGroupDeletion(classicGroups, offsets, leaders);
        this.sasl = new SaslPlain(config.token());
        timers.scheduleWithFixedDelay(this::sweep, SWEEP_MILLIS, SWEEP_MILLIS, TimeUnit.MILLISECONDS);
    }

    KafkaListenerConfig config()
    {
        return config;
    }

    SupportedApis apis()
    {
        return apis;
    }

    void handle(final KafkaRequest request)
    {
        try
        {
            switch (request.key())
            {
                case API_VERSIONS -> request.respond(apis.describe(Errors.NONE));
                case SASL_HANDSHAKE -> sasl.handshake(request);
                case SASL_AUTHENTICATE -> sasl.authenticate(request);
                case PRODUCE -> produce.produce(request);
                case INIT_PRODUCER_ID -> onAdminThread(request, () -> produce.initProducerId(request));
                case FETCH -> fetch.fetch(request);
                case LIST_OFFSETS -> fetch.listOffsets(request);
                case FIND_COORDINATOR -> cluster.findCoordinator(request);
                case DESCRIBE_CLUSTER -> cluster.describeCluster(request);
                case JOIN_GROUP -> atCoordinator(request, () -> classicGroups.join(request));
                case SYNC_GROUP -> atCoordinator(request, () -> classicGroups.sync(request));
                case HEARTBEAT -> atCoordinator(request, () -> classicGroups.heartbeat(request));
                case LEAVE_GROUP -> atCoordinator(request, () -> classicGroups.leave(request));
                case CONSUMER_GROUP_HEARTBEAT -> consumerGroups.heartbeat(request);
                case SHARE_GROUP_HEARTBEAT -> shareGroups.heartbeat(request);
                case SHARE_FETCH -> shareGroups.fetch(request);
                case SHARE_ACKNOWLEDGE -> onAdminThread(request, () -> shareGroups.acknowledge(request));
                // a cluster node's offsets go through the partitions' groups, which a request waits for
                case OFFSET_COMMIT -> atCoordinator(request, () -> onAdminThreadOnACluster(request,
                    () -> offsets.commit(request)));
                case OFFSET_FETCH -> atCoordinator(request, () -> onAdminThreadOnACluster(request,
                    () -> offsets.fetch(request)));
                case METADATA -> onAdminThread(request, () -> cluster.metadata(request));
                case CREATE_TOPICS -> onAdminThread(request, () -> cluster.createTopics(request));
                case DELETE_TOPICS -> onAdminThread(request, () -> cluster.deleteTopics(request));
                case DESCRIBE_CONFIGS -> onAdminThread(request, () -> cluster.describeConfigs(request, shareGroups));
                case INCREMENTAL_ALTER_CONFIGS -> onAdminThread(request, () -> cluster.alterConfigs(request, shareGroups));
                case LIST_GROUPS -> onAdminThread(request, () -> listGroups(request));
                case DESCRIBE_GROUPS -> atCoordinator(request, () ->
                    onAdminThread(request, () -> groupAdmin.describe(request)));
                case CONSUMER_GROUP_DESCRIBE -> atCoordinator(request, () ->
                    onAdminThread(request, () -> groupAdmin.describeConsumerGroups(request)));
                case SHARE_GROUP_DESCRIBE -> onAdminThread(request, () -> groupAdmin.describeShareGroups(request));
                case DELETE_GROUPS -> atCoordinator(request, () -> onAdminThread(request, () -> deleteGroups(request)));
                default -> request.respondError(Errors.UNSUPPORTED_VERSION.exception());
            }
        }
        catch (final RuntimeException ex)
        {
            answerFailure(request, ex);
        }
    }

    /**
     * Serves a group request on the node that coordinates groups; another node answers NOT_COORDINATOR, on which a
     * Kafka client finds the coordinator again, as it does when a Kafka broker stops coordinating a group.
     */
    private void atCoordinator(final KafkaRequest request, final Runnable work)
    {
        if (leaders.coordinatesGroups())
        {
            work.run();
        }
        else
        {
            final int coordinator = leaders.groupCoordinator();
            request.respondError(Errors.NOT_COORDINATOR.exception("node " + config.nodeId() + " does not coordinate " +
                "consumer groups; " + (coordinator < 0 ? "no node does until the cluster elects a leader" :
                "node " + coordinator + " does") + " (FindCoordinator names it)"));
        }
    }

    /** A cluster node deletes a group's offsets through the partitions' groups, where every node keeps them. */
    private void deleteGroups(final KafkaRequest request)
    {
        if (leaders.isCluster())
        {
            clusterGroupDeletion.delete(request);
        }
        else
        {
            groupAdmin.delete(request);
        }
    }

    /** Kafka's Admin asks every broker for the groups it coordinates: a node that does not has none to list. */
    private void listGroups(final KafkaRequest request)
    {
        if (leaders.coordinatesGroups())
        {
            groupAdmin.list(request);
        }
        else
        {
            request.respond(new ListGroupsResponseData());
        }
    }

    private void onAdminThreadOnACluster(final KafkaRequest request, final Runnable work)
    {
        if (replicated == null)
        {
            work.run();
        }
        else
        {
            onAdminThread(request, work);
        }
    }

    private void onAdminThread(final KafkaRequest request, final Runnable work)
    {
        try
        {
            adminExecutor.execute(() ->
            {
                try
                {
                    work.run();
                }
                catch (final RuntimeException ex)
                {
                    answerFailure(request, ex);
                }
            });
        }
        catch (final RejectedExecutionException ex)
        {
            request.respondError(Errors.NOT_COORDINATOR.exception("the listener is shutting down"));
        }
    }

    /** Answers a request whose handling threw with the error response Kafka's own classes build for it. */
    static void answerFailure(final KafkaRequest request, final RuntimeException ex)
    {
        if (!(ex instanceof ApiException))
        {
            LOGGER.warn(request.key() + " from " + request.clientId() + " failed", ex);
        }
        final Throwable error = ex instanceof ApiException ? ex :
            KafkaErrors.of(ex).exception(KafkaErrors.message(ex));
        request.respondError(error);
    }

    void connectionClosed(final KafkaConnection connection)
    {
        fetch.connectionClosed(connection);
        shareGroups.connectionClosed(connection);
    }

    private void sweep()
    {
        try
        {
            if (!leaders.coordinatesGroups())
            {
                classicGroups.forgetAll();
            }
            classicGroups.sweep();
            consumerGroups.sweep();
            shareGroups.sweep();
        }
        catch (final RuntimeException ex)
        {
            LOGGER.warn("the Kafka listener's group sweep failed", ex);
        }
    }

    void boundPort(final int port)
    {
        cluster.boundPort(port);
    }

    void close()
    {
        engine.streams().removeExternalGroups(classicMemberships);
        shareGroups.close();
    }
}
