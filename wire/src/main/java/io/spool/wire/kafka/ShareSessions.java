package io.spool.wire.kafka;

import io.spool.api.queue.Receipt;
import io.spool.queue.Subscription;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

/**
 * The share sessions of every member (KIP-932): opened with epoch 0, advanced by each request, closed by epoch -1,
 * by the member leaving or by its connection closing; a closed session's acquired records go back to the
 * subscription at once. Thread-safe.
 */
final class ShareSessions
{
    static final int OPENING_EPOCH = 0;
    static final int FINAL_EPOCH = -1;

    private final ShareSubscriptions subscriptions;
    private final Map<String, ShareSession> sessions = new ConcurrentHashMap<>();

    ShareSessions(final ShareSubscriptions subscriptions)
    {
        this.subscriptions = subscriptions;
    }

    /**
     * The member's session for a request of {@code epoch}: 0 opens one, -1 uses it (the caller then closes it). Null
     * when there is none to use (SHARE_SESSION_NOT_FOUND, INVALID_SHARE_SESSION_EPOCH): the request has then been
     * answered with {@code refusal}, the request's own response carrying the error's code and message.
     */
    ShareSession forRequest(final KafkaRequest request, final String group, final String memberId, final int epoch,
        final BiFunction<Errors, String, ApiMessage> refusal)
    {
        try
        {
            return forEpoch(group, memberId, epoch, request.connection());
        }
        catch (final ApiException ex)
        {
            request.respond(refusal.apply(Errors.forException(ex), ex.getMessage()));
            return null;
        }
    }

    private ShareSession forEpoch(final String group, final String memberId, final int epoch,
        final KafkaConnection connection)
    {
        final String key = key(group, memberId);
        if (epoch == OPENING_EPOCH)
        {
            final ShareSession opened = new ShareSession(group, memberId, connection);
            final ShareSession previous = sessions.put(key, opened);
            if (previous != null && previous.close())
            {
                release(previous);
            }
            return opened;
        }
        final ShareSession session = sessions.get(key);
        if (session == null)
        {
            throw Errors.SHARE_SESSION_NOT_FOUND.exception("no share session for member " + memberId + " of group \"" +
                group + "\"; open one with epoch 0");
        }
        synchronized (session)
        {
            if (epoch != FINAL_EPOCH)
            {
                if (epoch != session.nextEpoch)
                {
                    throw Errors.INVALID_SHARE_SESSION_EPOCH.exception("share session epoch " + epoch + " where " +
                        session.nextEpoch + " was expected");
                }
                session.advance();
            }
        }
        return session;
    }

    void close(final ShareSession session)
    {
        sessions.remove(key(session.group, session.memberId), session);
        if (session.close())
        {
            release(session);
        }
    }

    /** Returns a session's acquired records to the subscription, to be delivered again. */
    void release(final ShareSession session)
    {
        final List<Receipt> held = session.drain();
        final Subscription subscription = subscriptions.of(session.group);
        if (!held.isEmpty() && subscription != null)
        {
            subscription.nack(held);
        }
    }

    void closeSessionOf(final String group, final String memberId)
    {
        final ShareSession session = sessions.get(key(group, memberId));
        if (session != null)
        {
            close(session);
        }
    }

    void connectionClosed(final KafkaConnection connection)
    {
        for (final ShareSession session : sessions.values())
        {
            if (session.connection == connection)
            {
                close(session);
            }
        }
    }

    private static String key(final String group, final String memberId)
    {
        return group + '\u0000' + memberId;
    }
}
