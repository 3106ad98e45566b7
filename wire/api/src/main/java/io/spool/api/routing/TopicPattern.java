package io.spool.api.routing;

import java.util.Arrays;

/**
 * A compiled topic-exchange binding pattern such as {@code order.*.created} or {@code audit.#}: words are separated
 * by '.', '*' matches exactly one word and '#' zero or more. Matching walks the routing key in place without
 * splitting it, so routing allocates nothing. Immutable, thread-safe.
 */
public final class TopicPattern
{
    private static final String ONE_WORD = "*";
    private static final String ANY_WORDS = "#";

    private final String pattern;
    private final String[] words;

    private TopicPattern(final String pattern, final String[] words)
    {
        this.pattern = pattern;
        this.words = words;
    }

    /**
     * @throws InvalidRoutingException when a word mixes '*' or '#' with other characters, as in {@code a.b*}.
     */
    public static TopicPattern compile(final String pattern)
    {
        final String[] words = pattern.isEmpty() ? new String[0] : pattern.split("\\.", -1);
        for (final String word : words)
        {
            if (!word.equals(ONE_WORD) && !word.equals(ANY_WORDS) && (word.contains("*") || word.contains("#")))
            {
                throw new InvalidRoutingException("topic pattern '" + pattern + "' has the word '" + word +
                    "': '*' and '#' must stand alone between dots");
            }
        }
        return new TopicPattern(pattern, collapseRepeatedAnyWords(words));
    }

    /** {@code #.#} matches what {@code #} matches; collapsing keeps backtracking small. */
    private static String[] collapseRepeatedAnyWords(final String[] words)
    {
        final java.util.List<String> kept = new java.util.ArrayList<>();
        for (final String word : words)
        {
            if (!(word.equals(ANY_WORDS) && !kept.isEmpty() && kept.get(kept.size() - 1).equals(ANY_WORDS)))
            {
                kept.add(word);
            }
        }
        return kept.toArray(new String[0]);
    }

    public boolean matches(final String routingKey)
    {
        return matchFrom(0, routingKey, routingKey.isEmpty() ? -1 : 0);
    }

    /**
     * Whether pattern words from {@code w} match the key's words starting at character {@code at}
     * ({@code at == -1} means no words left).
     */
    private boolean matchFrom(final int w, final String key, final int at)
    {
        if (w == words.length)
        {
            return at == -1;
        }
        final String word = words[w];
        if (word.equals(ANY_WORDS))
        {
            if (matchFrom(w + 1, key, at))
            {
                return true;
            }
            int next = at;
            while (next != -1)
            {
                next = nextWord(key, next);
                if (matchFrom(w + 1, key, next))
                {
                    return true;
                }
            }
            return false;
        }
        if (at == -1)
        {
            return false;
        }
        if (!word.equals(ONE_WORD) && !wordEquals(key, at, word))
        {
            return false;
        }
        return matchFrom(w + 1, key, nextWord(key, at));
    }

    private static int nextWord(final String key, final int at)
    {
        final int dot = key.indexOf('.', at);
        return dot < 0 ? -1 : dot + 1;
    }

    private static boolean wordEquals(final String key, final int at, final String word)
    {
        final int end = key.indexOf('.', at);
        final int length = (end < 0 ? key.length() : end) - at;
        return length == word.length() && key.regionMatches(at, word, 0, length);
    }

    @Override
    public boolean equals(final Object o)
    {
        return o instanceof TopicPattern && Arrays.equals(((TopicPattern)o).words, words);
    }

    @Override
    public int hashCode()
    {
        return Arrays.hashCode(words);
    }

    @Override
    public String toString()
    {
        return pattern;
    }
}
