package io.spool.wire.kafka;

import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The Kafka APIs the listener implements and the versions of each it speaks: only these are advertised in
 * ApiVersions (KIP-511), and a request of any other is refused. A cluster node leaves out the consumer protocol of
 * KIP-848 and share groups, which keep their state in the node's engine: Kafka's clients then say that the broker
 * does not support them. Classic groups, and their deletion, are served there by the node that coordinates groups.
 * Immutable, thread-safe.
 */
final class SupportedApis
{
    private final Map<ApiKeys, short[]> versions = new EnumMap<>(ApiKeys.class);

    /** The group APIs a cluster node does not serve. */
    private static final List<ApiKeys> NOT_ON_A_CLUSTER = List.of(ApiKeys.CONSUMER_GROUP_HEARTBEAT,
        ApiKeys.SHARE_GROUP_HEARTBEAT, ApiKeys.SHARE_FETCH, ApiKeys.SHARE_ACKNOWLEDGE);

    /** @param clusterNode whether the listener is a cluster node's, which serves classic groups only. */
    SupportedApis(final boolean clusterNode)
    {
        all(ApiKeys.API_VERSIONS);
        all(ApiKeys.SASL_HANDSHAKE);
        all(ApiKeys.SASL_AUTHENTICATE);
        all(ApiKeys.METADATA);
        all(ApiKeys.PRODUCE);
        all(ApiKeys.INIT_PRODUCER_ID);
        all(ApiKeys.FETCH);
        all(ApiKeys.LIST_OFFSETS);
        all(ApiKeys.FIND_COORDINATOR);
        all(ApiKeys.OFFSET_COMMIT);
        all(ApiKeys.OFFSET_FETCH);
        all(ApiKeys.JOIN_GROUP);
        all(ApiKeys.SYNC_GROUP);
        all(ApiKeys.HEARTBEAT);
        all(ApiKeys.LEAVE_GROUP);
        all(ApiKeys.LIST_GROUPS);
        all(ApiKeys.DESCRIBE_GROUPS);
        all(ApiKeys.DELETE_GROUPS);
        all(ApiKeys.CREATE_TOPICS);
        all(ApiKeys.DELETE_TOPICS);
        all(ApiKeys.DESCRIBE_CONFIGS);
        all(ApiKeys.INCREMENTAL_ALTER_CONFIGS);
        all(ApiKeys.DESCRIBE_CLUSTER);
        all(ApiKeys.CONSUMER_GROUP_HEARTBEAT);
        all(ApiKeys.CONSUMER_GROUP_DESCRIBE);
        all(ApiKeys.SHARE_GROUP_HEARTBEAT);
        all(ApiKeys.SHARE_GROUP_DESCRIBE);
        all(ApiKeys.SHARE_FETCH);
        all(ApiKeys.SHARE_ACKNOWLEDGE);
        if (clusterNode)
        {
            NOT_ON_A_CLUSTER.forEach(versions::remove);
        }
    }

    private void all(final ApiKeys key)
    {
        versions.put(key, new short[] {key.oldestVersion(), key.latestVersion()});
    }

    boolean isImplemented(final ApiKeys key)
    {
        return versions.containsKey(key);
    }

    boolean supports(final ApiKeys key, final short version)
    {
        final short[] range = versions.get(key);
        return range != null && version >= range[0] && version <= range[1];
    }

    String range(final ApiKeys key)
    {
        final short[] range = versions.get(key);
        return range == null ? "none" : range[0] + " to " + range[1];
    }

    /** The ApiVersions answer: every implemented API with its versions, and {@code error}. */
    ApiVersionsResponseData describe(final Errors error)
    {
        final ApiVersionsResponseData response = new ApiVersionsResponseData().setErrorCode(error.code());
        versions.forEach((key, range) -> response.apiKeys().add(new ApiVersionsResponseData.ApiVersion()
            .setApiKey(key.id).setMinVersion(range[0]).setMaxVersion(range[1])));
        return response;
    }
}
