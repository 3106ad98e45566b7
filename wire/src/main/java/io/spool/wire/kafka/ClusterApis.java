package io.spool.wire.kafka;

import io.spool.Spool;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicExistsException;
import io.spool.stream.Topic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopic;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DeleteTopicsResponseData;
import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.message.DescribeConfigsRequestData;
import org.apache.kafka.common.message.DescribeConfigsResponseData;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsResponseData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeConfigsResponse;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Metadata, FindCoordinator and DescribeCluster (on a single node one node, which leads every partition and
 * coordinates every group; on a cluster every node that announced its listener, with the leaders and the group
 * coordinator as {@link PartitionLeaders} knows them), and the topic administration APIs: CreateTopics,
 * DeleteTopics, DescribeConfigs and IncrementalAlterConfigs (a topic's retention, a share group's settings).
 * Thread-safe.
 */
final class ClusterApis
{
    static final String CLUSTER_ID = "spool-kafka-listener";

    private final Spool engine;
    private final KafkaListenerConfig config;
    private final TopicIds topicIds;
    private final PartitionLeaders leaders;
    private volatile int port;

    ClusterApis(final Spool engine, final KafkaListenerConfig config, final TopicIds topicIds,
        final PartitionLeaders leaders)
    {
        this.engine = engine;
        this.config = config;
        this.topicIds = topicIds;
        this.leaders = leaders;
        this.port = config.port();
    }

    /** The port clients are told, once bound (the configured one may be 0). */
    void boundPort(final int boundPort)
    {
        this.port = boundPort;
    }

    void metadata(final KafkaRequest request)
    {
        final MetadataRequestData body = request.body();
        final MetadataResponseData response = new MetadataResponseData()
            .setClusterId(CLUSTER_ID)
            .setControllerId(config.nodeId());
        final List<KafkaCluster.Broker> brokers = brokers();
        brokers.forEach(broker -> response.brokers().add(new MetadataResponseData.MetadataResponseBroker()
            .setNodeId(broker.nodeId()).setHost(broker.host()).setPort(broker.port())));
        final boolean autoCreate = config.autoCreateTopics() && (request.version() < 4 || body.allowAutoTopicCreation());
        if (body.topics() == null)
        {
            engine.streams().listTopics().forEach(name -> response.topics().add(describeTopic(name, false, brokers)));
        }
        else
        {
            for (final MetadataRequestData.MetadataRequestTopic wanted : body.topics())
            {
                final String name = wanted.name() != null ? wanted.name() : topicIds.nameOf(wanted.topicId());
                if (name == null)
                {
                    response.topics().add(new MetadataResponseData.MetadataResponseTopic()
                        .setTopicId(wanted.topicId()).setErrorCode(Errors.UNKNOWN_TOPIC_ID.code()));
                    continue;
                }
                response.topics().add(describeTopic(name, autoCreate, brokers));
            }
        }
        request.respond(response);
    }

    /** Every node's listener on a cluster; this listener alone on a single node. */
    private List<KafkaCluster.Broker> brokers()
    {
        return leaders.isCluster() ? leaders.cluster().brokers() :
            List.of(new KafkaCluster.Broker(config.nodeId(), config.advertisedHost(), port));
    }

    private MetadataResponseData.MetadataResponseTopic describeTopic(final String name, final boolean autoCreate,
        final List<KafkaCluster.Broker> brokers)
    {
        final MetadataResponseData.MetadataResponseTopic out = new MetadataResponseData.MetadataResponseTopic()
            .setName(name).setTopicId(topicIds.idOf(name));
        Topic topic = engine.streams().topics().topicOrNull(name);
        if (topic == null && autoCreate)
        {
            try
            {
                topic = createTopic(name, TopicConfig.of(config.defaultPartitions()));
            }
            catch (final RuntimeException ex)
            {
                return out.setErrorCode(KafkaErrors.of(ex).code());
            }
        }
        if (topic == null)
        {
            return out.setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        }
        for (int p = 0; p < topic.partitionCount(); p++)
        {
            final KafkaCluster.Placement placement = leaders.placement(name, p);
            final boolean reachable = brokers.stream().anyMatch(broker -> broker.nodeId() == placement.leader());
            // Raft commits on any majority of the replicas, so there is no in-sync set to report: the ISR field
            // names every replica, and a client reads and writes through the leader alone.
            out.partitions().add(new MetadataResponseData.MetadataResponsePartition()
                .setPartitionIndex(p)
                .setErrorCode(reachable ? Errors.NONE.code() : Errors.LEADER_NOT_AVAILABLE.code())
                .setLeaderId(reachable ? placement.leader() : -1)
                .setLeaderEpoch(placement.leaderEpoch())
                .setReplicaNodes(placement.replicas())
                .setIsrNodes(placement.replicas()));
        }
        return out;
    }

    /**
     * Creates a topic; one created at the same moment by another request is taken as it is. On a cluster node the
     * topic is created through the cluster and may not be in this node's engine yet (null then).
     */
    private Topic createTopic(final String name, final TopicConfig topic)
    {
        try
        {
            if (leaders.isCluster())
            {
                leaders.cluster().createTopic(name, leaders.cluster().defaultReplicationFactor(), topic);
                return engine.streams().topics().topicOrNull(name);
            }
            return engine.createTopic(name, topic);
        }
        catch (final TopicExistsException ex)
        {
            return engine.streams().topics().topicOrNull(name);
        }
    }

    /**
     * Names the node that coordinates groups, from the announced listeners; while there is none (a cluster node
     * knows no leader of its metadata group, or the leader has not announced its listener yet),
     * COORDINATOR_NOT_AVAILABLE, which clients retry.
     */
    void findCoordinator(final KafkaRequest request)
    {
        final FindCoordinatorRequestData body = request.body();
        final int coordinatorId = leaders.groupCoordinator();
        final KafkaCluster.Broker coordinator = brokers().stream().filter(broker -> broker.nodeId() == coordinatorId)
            .findFirst().orElse(null);
        final Errors error = coordinator == null ? Errors.COORDINATOR_NOT_AVAILABLE : Errors.NONE;
        final FindCoordinatorResponseData response = new FindCoordinatorResponseData();
        if (request.version() < 4)
        {
            response.setErrorCode(error.code()).setNodeId(coordinatorId);
            if (coordinator != null)
            {
                response.setHost(coordinator.host()).setPort(coordinator.port());
            }
        }
        else
        {
            for (final String key : body.coordinatorKeys())
            {
                final FindCoordinatorResponseData.Coordinator out = new FindCoordinatorResponseData.Coordinator()
                    .setKey(key).setErrorCode(error.code()).setNodeId(coordinatorId);
                if (coordinator != null)
                {
                    out.setHost(coordinator.host()).setPort(coordinator.port());
                }
                response.coordinators().add(out);
            }
        }
        request.respond(response);
    }

    void describeCluster(final KafkaRequest request)
    {
        final DescribeClusterResponseData response = new DescribeClusterResponseData()
            .setClusterId(CLUSTER_ID).setControllerId(config.nodeId());
        brokers().forEach(broker -> response.brokers().add(new DescribeClusterResponseData.DescribeClusterBroker()
            .setBrokerId(broker.nodeId()).setHost(broker.host()).setPort(broker.port())));
        request.respond(response);
    }

    void createTopics(final KafkaRequest request)
    {
        final CreateTopicsRequestData body = request.body();
        final CreateTopicsResponseData response = new CreateTopicsResponseData();
        for (final CreateTopicsRequestData.CreatableTopic wanted : body.topics())
        {
            final CreateTopicsResponseData.CreatableTopicResult result =
                new CreateTopicsResponseData.CreatableTopicResult().setName(wanted.name());
            try
            {
                final TopicConfig topic = newTopic(wanted);
                final int replicationFactor = replicationFactor(wanted);
                if (!body.validateOnly())
                {
                    if (leaders.isCluster())
                    {
                        leaders.cluster().createTopic(wanted.name(), replicationFactor, topic);
                    }
                    else
                    {
                        engine.createTopic(wanted.name(), topic);
                    }
                }
                result.setTopicId(topicIds.idOf(wanted.name()))
                    .setNumPartitions(topic.partitions())
                    .setReplicationFactor((short)replicationFactor);
                TopicSettings.describe(topic).forEach((name, value) -> result.configs().add(
                    new CreateTopicsResponseData.CreatableTopicConfigs().setName(name).setValue(value)
                        .setConfigSource(DescribeConfigsResponse.ConfigSource.TOPIC_CONFIG.id())));
            }
            catch (final ApiException ex)
            {
                result.setErrorCode(Errors.forException(ex).code()).setErrorMessage(ex.getMessage());
            }
            catch (final RuntimeException ex)
            {
                result.setErrorCode(KafkaErrors.of(ex).code()).setErrorMessage(KafkaErrors.message(ex));
            }
            response.topics().add(result);
        }
        request.respond(response);
    }

    /**
     * The copies a new topic gets: one on a single node; on a cluster the request's, or the cluster's default when
     * the request leaves it to the broker (-1).
     */
    private int replicationFactor(final CreatableTopic wanted)
    {
        if (!leaders.isCluster())
        {
            if (wanted.replicationFactor() > 1)
            {
                throw new InvalidReplicationFactorException("Spool keeps one copy of each partition on a single " +
                    "node; replication factor " + wanted.replicationFactor() + " cannot be met (a cluster's nodes " +
                    "replicate topics)");
            }
            return 1;
        }
        final int factor = wanted.replicationFactor() < 0 ? leaders.cluster().defaultReplicationFactor() :
            wanted.replicationFactor();
        try
        {
            leaders.cluster().checkReplicationFactor(factor);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new InvalidReplicationFactorException(ex.getMessage());
        }
        return factor;
    }

    private TopicConfig newTopic(final CreateTopicsRequestData.CreatableTopic wanted)
    {
        if (!wanted.assignments().isEmpty())
        {
            throw new InvalidConfigurationException("Spool places partitions itself; replica assignments are refused");
        }
        final Map<String, String> settings = new HashMap<>();
        wanted.configs().forEach(setting -> settings.put(setting.name(), setting.value()));
        final int partitions = wanted.numPartitions() < 0 ? config.defaultPartitions() : wanted.numPartitions();
        return new TopicConfig(partitions, TopicSettings.apply(TopicConfig.of(1).log(), settings));
    }

    void deleteTopics(final KafkaRequest request)
    {
        final DeleteTopicsRequestData body = request.body();
        final List<DeleteTopicsRequestData.DeleteTopicState> wanted = new ArrayList<>(body.topics());
        body.topicNames().forEach(name -> wanted.add(new DeleteTopicsRequestData.DeleteTopicState().setName(name)));
        final DeleteTopicsResponseData response = new DeleteTopicsResponseData();
        for (final DeleteTopicsRequestData.DeleteTopicState topic : wanted)
        {
            final boolean byId = topic.name() == null && !Uuid.ZERO_UUID.equals(topic.topicId());
            final String name = byId ? topicIds.nameOf(topic.topicId()) : topic.name();
            final DeleteTopicsResponseData.DeletableTopicResult result =
                new DeleteTopicsResponseData.DeletableTopicResult().setName(name).setTopicId(topic.topicId());
            if (name == null)
            {
                result.setErrorCode(Errors.UNKNOWN_TOPIC_ID.code());
            }
            else
            {
                try
                {
                    if (leaders.isCluster())
                    {
                        leaders.cluster().deleteTopic(name);
                    }
                    else
                    {
                        engine.streams().deleteTopic(name);
                    }
                }
                catch (final RuntimeException ex)
                {
                    result.setErrorCode(KafkaErrors.of(ex).code()).setErrorMessage(KafkaErrors.message(ex));
                }
            }
            response.responses().add(result);
        }
        request.respond(response);
    }

    void describeConfigs(final KafkaRequest request, final ShareGroups shareGroups)
    {
        final DescribeConfigsRequestData body = request.body();
        final DescribeConfigsResponseData response = new DescribeConfigsResponseData();
        for (final DescribeConfigsRequestData.DescribeConfigsResource resource : body.resources())
        {
            final DescribeConfigsResponseData.DescribeConfigsResult result =
                new DescribeConfigsResponseData.DescribeConfigsResult()
                    .setResourceType(resource.resourceType()).setResourceName(resource.resourceName());
            final Map<String, String> settings = settingsOf(resource, result, shareGroups);
            if (settings != null)
            {
                settings.forEach((name, value) ->
                {
                    if (resource.configurationKeys() == null || resource.configurationKeys().contains(name))
                    {
                        result.configs().add(new DescribeConfigsResponseData.DescribeConfigsResourceResult()
                            .setName(name).setValue(value)
                            .setConfigSource(DescribeConfigsResponse.ConfigSource.TOPIC_CONFIG.id()));
                    }
                });
            }
            response.results().add(result);
        }
        request.respond(response);
    }

    private Map<String, String> settingsOf(final DescribeConfigsRequestData.DescribeConfigsResource resource,
        final DescribeConfigsResponseData.DescribeConfigsResult result, final ShareGroups shareGroups)
    {
        final ConfigResource.Type type = ConfigResource.Type.forId(resource.resourceType());
        switch (type)
        {
            case TOPIC ->
            {
                final Topic topic = engine.streams().topics().topicOrNull(resource.resourceName());
                if (topic == null)
                {
                    result.setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code())
                        .setErrorMessage("no topic \"" + resource.resourceName() + "\"");
                    return null;
                }
                return TopicSettings.describe(topic.config());
            }
            case BROKER ->
            {
                return Map.of("auto.create.topics.enable", Boolean.toString(config.autoCreateTopics()),
                    "num.partitions", Integer.toString(config.defaultPartitions()),
                    "socket.request.max.bytes", Integer.toString(config.maxRequestBytes()));
            }
            case GROUP ->
            {
                return shareGroups.describeSettings(resource.resourceName());
            }
            default ->
            {
                result.setErrorCode(Errors.INVALID_REQUEST.code())
                    .setErrorMessage("Spool describes topic, broker and group settings, not " + type);
                return null;
            }
        }
    }

    void alterConfigs(final KafkaRequest request, final ShareGroups shareGroups)
    {
        final IncrementalAlterConfigsRequestData body = request.body();
        final IncrementalAlterConfigsResponseData response = new IncrementalAlterConfigsResponseData();
        for (final IncrementalAlterConfigsRequestData.AlterConfigsResource resource : body.resources())
        {
            final IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse result =
                new IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse()
                    .setResourceType(resource.resourceType()).setResourceName(resource.resourceName());
            try
            {
                switch (ConfigResource.Type.forId(resource.resourceType()))
                {
                    case TOPIC -> alterTopic(resource, body.validateOnly());
                    case GROUP -> alterGroup(resource, body.validateOnly(), shareGroups);
                    default -> throw new InvalidConfigurationException("Spool changes topic and group settings, " +
                        "not " + ConfigResource.Type.forId(resource.resourceType()));
                }
            }
            catch (final ApiException ex)
            {
                result.setErrorCode(Errors.forException(ex).code()).setErrorMessage(ex.getMessage());
            }
            catch (final RuntimeException ex)
            {
                result.setErrorCode(KafkaErrors.of(ex).code()).setErrorMessage(KafkaErrors.message(ex));
            }
            response.responses().add(result);
        }
        request.respond(response);
    }

    private void alterTopic(final IncrementalAlterConfigsRequestData.AlterConfigsResource resource,
        final boolean validateOnly)
    {
        final String name = resource.resourceName();
        final TopicConfig changed = TopicSettings.alter(engine.streams().describeTopic(name).config(),
            resource.configs());
        if (validateOnly)
        {
            return;
        }
        if (leaders.isCluster())
        {
            leaders.cluster().alterTopicRetention(name, changed.log().retentionMillis(),
                changed.log().retentionBytes());
        }
        else
        {
            engine.alterTopic(name, changed);
        }
    }

    private static void alterGroup(final IncrementalAlterConfigsRequestData.AlterConfigsResource resource,
        final boolean validateOnly, final ShareGroups shareGroups)
    {
        final Map<String, String> changes = new HashMap<>();
        for (final IncrementalAlterConfigsRequestData.AlterableConfig change : resource.configs())
        {
            changes.put(change.name(), change.configOperation() == TopicSettings.OP_SET ? change.value() : null);
        }
        if (!validateOnly)
        {
            shareGroups.alterSettings(resource.resourceName(), changes);
        }
    }
}
