package io.spool.wire.sqs;

import java.util.regex.Pattern;

/**
 * The checks SQS makes of what a send carries: the characters a body and text attributes may hold (those XML allows),
 * and the form of message group and deduplication ids and batch entry ids. Stateless and thread-safe.
 */
final class SendChecks
{
    /** Letters, digits and ASCII punctuation, 1 to 128: SQS's rule for group and deduplication ids. */
    private static final Pattern FIFO_ID = Pattern.compile("[\\p{Alnum}\\p{Punct}]{1,128}");
    private static final Pattern BATCH_ENTRY_ID = Pattern.compile("[A-Za-z0-9_-]{1,80}");

    private SendChecks()
    {
    }

    /**
     * @throws SqsException ({@link SqsError#INVALID_MESSAGE_CONTENTS}) at the first character XML does not allow:
     *                      #x9, #xA, #xD, #x20 to #xD7FF, #xE000 to #xFFFD and #x10000 to #x10FFFF are allowed.
     */
    static void checkCharacters(final String text, final String what)
    {
        for (int i = 0; i < text.length(); )
        {
            final int c = text.codePointAt(i);
            final boolean allowed = c == 0x9 || c == 0xA || c == 0xD || c >= 0x20 && c <= 0xD7FF ||
                c >= 0xE000 && c <= 0xFFFD || c >= 0x10000 && c <= 0x10FFFF;
            if (!allowed)
            {
                throw SqsError.INVALID_MESSAGE_CONTENTS.with("Invalid binary character '#x" +
                    Integer.toHexString(c) + "' was found in the " + what + ", the set of allowed characters is " +
                    "#x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF");
            }
            i += Character.charCount(c);
        }
    }

    /** A MessageGroupId or MessageDeduplicationId, or null when absent. */
    static String fifoId(final Params params, final String name)
    {
        final String id = params.string(name);
        if (id != null && !FIFO_ID.matcher(id).matches())
        {
            throw SqsError.INVALID_PARAMETER_VALUE.with(name + " can only include alphanumeric and punctuation " +
                "characters. 1 to 128 in length.");
        }
        return id;
    }

    static String batchEntryId(final Params entry)
    {
        final String id = entry.string("Id");
        if (id == null || !BATCH_ENTRY_ID.matcher(id).matches())
        {
            throw SqsError.INVALID_BATCH_ENTRY_ID.with("A batch entry id can only contain alphanumeric characters, " +
                "hyphens and underscores. It can be at most 80 letters long (was '" + id + "').");
        }
        return id;
    }
}
