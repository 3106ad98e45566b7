package io.spool.cluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A node whose consensus port another process holds fails its start naming the port, instead of Ratis ending the
 * JVM it is embedded in; once the port is free the same node starts on the same directory.
 */
class ConsensusPortInUseTest
{
    @TempDir
    Path dir;

    @Test
    void aTakenConsensusPortFailsTheStartNamingItAndTheJvmGoesOn() throws Exception
    {
        final ClusterMembers members = LoopbackPorts.members(3);
        final ClusterMembers.Member first = members.member(1);
        try (ServerSocket taken = new ServerSocket(first.port(), 1, InetAddress.getByName(first.host())))
        {
            assertThatThrownBy(() -> ClusterNode.start(TestNodes.config(members, 1, dir)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("node 1 could not listen for consensus on " + first.host() + ":" + first.port())
                .hasMessageContaining("is another process using the port?");
        }
        try (ClusterNode node = ClusterNode.start(TestNodes.config(members, 1, dir)))
        {
            assertThat(node.nodeId()).isEqualTo(1);
        }
    }
}
