package io.spool.wire.sqs;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The entries of a batch action, checked as SQS checks them before it looks at any entry (1 to 10 of them, each with
 * a distinct valid Id), and the answer of one: the entries that succeeded and those that failed, each with its own
 * error. Stateless and thread-safe.
 */
final class BatchEntries
{
    static final int MAX_ENTRIES = 10;

    private BatchEntries()
    {
    }

    /**
     * @param entryName the query protocol's name of an entry, for errors
     * @throws SqsException when the batch as a whole is refused.
     */
    static List<Params> read(final Params request, final String entryName)
    {
        final List<Object> given = request.list("Entries");
        if (given.isEmpty())
        {
            throw SqsError.EMPTY_BATCH_REQUEST.with("There should be at least one " + entryName +
                " in the request.");
        }
        if (given.size() > MAX_ENTRIES)
        {
            throw SqsError.TOO_MANY_ENTRIES_IN_BATCH_REQUEST.with("Maximum number of entries per request are " +
                MAX_ENTRIES + ". You have sent " + given.size() + ".");
        }
        final List<Params> entries = new ArrayList<>();
        final Set<String> ids = new HashSet<>();
        for (final Object item : given)
        {
            final Params entry = Params.of(item, entryName);
            final String id = SendChecks.batchEntryId(entry);
            if (!ids.add(id))
            {
                throw SqsError.BATCH_ENTRY_IDS_NOT_DISTINCT.with("Id " + id + " repeated.");
            }
            entries.add(entry);
        }
        return entries;
    }

    /** One failed entry: its Id, whose fault it is, and the error's code and message. */
    static Answer failure(final String id, final SqsException error)
    {
        return new Answer().put("Id", id).put("SenderFault", error.error().status() < 500)
            .put("Code", error.error().queryCode()).put("Message", error.getMessage());
    }

    static Answer answer(final String xmlSucceeded, final List<Answer> succeeded, final List<Answer> failed)
    {
        return new Answer().objects("Successful", xmlSucceeded, succeeded)
            .objects("Failed", "BatchResultErrorEntry", failed);
    }
}
