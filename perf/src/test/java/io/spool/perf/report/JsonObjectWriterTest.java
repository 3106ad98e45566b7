package io.spool.perf.report;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JsonObjectWriterTest
{
    @Test
    void writesMembersInOrderSeparatedByCommas()
    {
        assertThat(new JsonObjectWriter().member("a", 1L).member("b", 2.5).member("c", "x").toJson())
            .isEqualTo("{\"a\":1,\"b\":2.5,\"c\":\"x\"}");
    }

    @Test
    void writesVeryLargeAndVerySmallNumbersInJsonExponentForm()
    {
        assertThat(new JsonObjectWriter().member("big", 4.0e10).member("small", 4.5e-4).toJson())
            .isEqualTo("{\"big\":4.0E10,\"small\":4.5E-4}")
            .matches("\\{(\"[a-z]+\":-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?,?)+}");
    }

    @Test
    void writesAnEmptyObject()
    {
        assertThat(new JsonObjectWriter().toJson()).isEqualTo("{}");
    }

    @Test
    void escapesQuotesBackslashesAndControlCharacters()
    {
        assertThat(new JsonObjectWriter().member("k\"ey", "a\"b\\c\nd\re\tf\bg\fh\u0001i\u001fj").toJson())
            .isEqualTo("{\"k\\\"ey\":\"a\\\"b\\\\c\\nd\\re\\tf\\bg\\fh\\u0001i\\u001fj\"}");
    }

    @Test
    void keepsNonAsciiTextAsIs()
    {
        assertThat(new JsonObjectWriter().member("latency", "publish\u2192confirm µs").toJson())
            .isEqualTo("{\"latency\":\"publish\u2192confirm µs\"}");
    }

    @Test
    void writesNullForAMissingStringAndForNumbersJsonCannotHold()
    {
        assertThat(new JsonObjectWriter()
            .member("s", (String)null)
            .member("nan", Double.NaN)
            .member("inf", Double.POSITIVE_INFINITY)
            .toJson())
            .isEqualTo("{\"s\":null,\"nan\":null,\"inf\":null}");
    }

    @Test
    void refusesMembersAfterTheObjectIsClosed()
    {
        final JsonObjectWriter json = new JsonObjectWriter().member("a", 1L);
        assertThat(json.toJson()).isEqualTo(json.toJson());
        assertThatThrownBy(() -> json.member("b", 2L))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("cannot add member b");
    }
}
