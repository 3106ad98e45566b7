package io.spool.cluster;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The static member list of a cluster, as {@code --cluster 1@10.0.0.1:7500,2@10.0.0.2:7500,3@10.0.0.3:7500} gives
 * it: each node's id and the address its peers reach its consensus port on. Every node must be started with the
 * same list; {@link #parse} refuses a list that cannot be one (repeated ids or addresses, fewer than three nodes, an
 * even count, a malformed entry) with a message naming the entry. Immutable, thread-safe.
 */
public final class ClusterMembers
{
    /** One node: its id (a positive integer) and its consensus address. */
    public record Member(int id, String host, int port)
    {
        public String address()
        {
            return host + ":" + port;
        }
    }

    private final List<Member> members;

    private ClusterMembers(final List<Member> members)
    {
        this.members = Collections.unmodifiableList(members);
    }

    /**
     * @throws IllegalArgumentException naming what is wrong with the list.
     */
    public static ClusterMembers parse(final String list)
    {
        if (list == null || list.isBlank())
        {
            throw new IllegalArgumentException("the cluster list is empty: give every node as ID@HOST:PORT, " +
                "separated by commas, e.g. 1@127.0.0.1:7501,2@127.0.0.1:7502,3@127.0.0.1:7503");
        }
        final List<Member> members = new ArrayList<>();
        final Set<Integer> ids = new HashSet<>();
        final Set<String> addresses = new HashSet<>();
        for (final String entry : list.split(","))
        {
            final Member member = parseMember(entry.trim());
            if (!ids.add(member.id()))
            {
                throw new IllegalArgumentException("node id " + member.id() + " appears twice in the cluster list '" +
                    list + "': every node needs an id of its own");
            }
            if (!addresses.add(member.address()))
            {
                throw new IllegalArgumentException("address " + member.address() + " appears twice in the cluster " +
                    "list '" + list + "': every node needs a consensus port of its own");
            }
            members.add(member);
        }
        if (members.size() < 3 || members.size() % 2 == 0)
        {
            throw new IllegalArgumentException("a cluster has an odd number of nodes, at least 3 (a majority must " +
                "survive the loss of one), but '" + list + "' names " + members.size());
        }
        members.sort((a, b) -> Integer.compare(a.id(), b.id()));
        return new ClusterMembers(members);
    }

    private static Member parseMember(final String entry)
    {
        final int at = entry.indexOf('@');
        final int colon = entry.lastIndexOf(':');
        if (at < 1 || colon < at + 2 || colon == entry.length() - 1)
        {
            throw new IllegalArgumentException("cluster entry '" + entry + "' is not ID@HOST:PORT, e.g. 1@127.0.0.1:7501");
        }
        final int id;
        final int port;
        try
        {
            id = Integer.parseInt(entry.substring(0, at));
            port = Integer.parseInt(entry.substring(colon + 1));
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("cluster entry '" + entry + "' is not ID@HOST:PORT: the id and the " +
                "port are numbers", ex);
        }
        if (id < 1)
        {
            throw new IllegalArgumentException("cluster entry '" + entry + "': a node id is a positive integer");
        }
        if (port < 1 || port > 65_535)
        {
            throw new IllegalArgumentException("cluster entry '" + entry + "': the port must be 1 to 65535");
        }
        return new Member(id, entry.substring(at + 1, colon), port);
    }

    /** The members, by id. */
    public List<Member> members()
    {
        return members;
    }

    public int size()
    {
        return members.size();
    }

    /**
     * @throws IllegalArgumentException when {@code id} is not in the list.
     */
    public Member member(final int id)
    {
        for (final Member member : members)
        {
            if (member.id() == id)
            {
                return member;
            }
        }
        throw new IllegalArgumentException("node id " + id + " is not in the cluster list " + this +
            ": start each node with its own id from the list");
    }

    /** The list in the form {@link #parse} reads, by id. */
    @Override
    public String toString()
    {
        final StringBuilder text = new StringBuilder();
        for (final Member member : members)
        {
            text.append(text.length() == 0 ? "" : ",").append(member.id()).append('@').append(member.address());
        }
        return text.toString();
    }
}
