package io.spool.stream.internal.topic;

import io.spool.api.stream.InvalidGroupException;
import io.spool.api.stream.InvalidTopicException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TopicNamesTest
{
    @ParameterizedTest
    @ValueSource(strings = {"orders", "a", "Orders.v2_final-1", "...", "._-"})
    void acceptsKafkaLegalNames(final String name)
    {
        assertThat(TopicNames.validateTopic(name)).isEqualTo(name);
        assertThat(TopicNames.validateGroup(name)).isEqualTo(name);
    }

    @Test
    void acceptsTheLongestLegalName()
    {
        final String longest = "x".repeat(249);
        assertThat(TopicNames.validateTopic(longest)).isEqualTo(longest);
    }

    @Test
    void rejectsEmptyAndNull()
    {
        assertThatThrownBy(() -> TopicNames.validateTopic("")).isInstanceOf(InvalidTopicException.class)
            .hasMessageContaining("must not be empty");
        assertThatThrownBy(() -> TopicNames.validateTopic(null)).isInstanceOf(InvalidTopicException.class)
            .hasMessageContaining("null");
    }

    @Test
    void rejectsTooLong()
    {
        assertThatThrownBy(() -> TopicNames.validateTopic("x".repeat(250)))
            .isInstanceOf(InvalidTopicException.class).hasMessageContaining("250 characters, longer than 249");
    }

    @ParameterizedTest
    @ValueSource(strings = {".", ".."})
    void rejectsDotNames(final String name)
    {
        assertThatThrownBy(() -> TopicNames.validateTopic(name))
            .isInstanceOf(InvalidTopicException.class).hasMessageContaining("reserved");
    }

    @ParameterizedTest
    @ValueSource(strings = {"a/b", "a b", "ü", "a\\b", "a:b", "a*"})
    void rejectsIllegalCharacters(final String name)
    {
        assertThatThrownBy(() -> TopicNames.validateTopic(name))
            .isInstanceOf(InvalidTopicException.class).hasMessageContaining("is not one of [a-zA-Z0-9._-]");
    }

    @Test
    void groupIdsGetTheirOwnException()
    {
        assertThatThrownBy(() -> TopicNames.validateGroup("bad group"))
            .isInstanceOf(InvalidGroupException.class).hasMessageContaining("invalid group id \"bad group\"");
    }
}
