package io.spool.perf.report;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JsonValuesTest
{
    @Test
    void mapsListsAndScalarsNestInTheirOrder()
    {
        final Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("b", List.of(1, 2L, 2.5));
        inner.put("a", null);
        final Map<String, Object> outer = new LinkedHashMap<>();
        outer.put("name", "q\"uote\\d\n");
        outer.put("inner", inner);
        outer.put("flag", true);
        outer.put("empty", List.of());
        outer.put("nan", Double.NaN);

        assertThat(JsonValues.write(outer)).isEqualTo("{\"name\":\"q\\\"uote\\\\d\\n\",\"inner\":{\"b\":[1,2,2.5]," +
            "\"a\":null},\"flag\":true,\"empty\":[],\"nan\":null}");
        assertThat(JsonValues.write(List.of("\u0001"))).isEqualTo("[\"\\u0001\"]");
    }

    @Test
    void aValueWithNoJsonFormIsRefused()
    {
        assertThatThrownBy(() -> JsonValues.write(List.of(new Object()))).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("java.lang.Object");
    }
}
