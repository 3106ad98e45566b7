package io.spool.perf.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class QuantitiesTest
{
    @Test
    void durationsReadWithTheirUnitAndPrintInTheLargestExactOne()
    {
        assertThat(Quantities.parseMillis("250ms")).isEqualTo(250);
        assertThat(Quantities.parseMillis("30s")).isEqualTo(30_000);
        assertThat(Quantities.parseMillis("15M")).isEqualTo(900_000);
        assertThat(Quantities.parseMillis("12h")).isEqualTo(43_200_000);
        assertThat(Quantities.parseMillis(" 7d ")).isEqualTo(604_800_000);
        assertThat(Quantities.formatMillis(604_800_000)).isEqualTo("7d");
        assertThat(Quantities.formatMillis(90_000)).isEqualTo("90s");
        assertThat(Quantities.formatMillis(1_500)).isEqualTo("1500ms");
        assertThat(Quantities.formatMillis(0)).isEqualTo("0ms");
        assertThat(Quantities.formatMillis(-1)).isEqualTo("none");
        assertThat(new Quantities.MillisOrNone().convert("NONE")).isEqualTo(-1);
    }

    @Test
    void sizesReadInBinaryUnitsAndPrintInTheLargestExactOne()
    {
        assertThat(Quantities.parseBytes("4096")).isEqualTo(4096);
        assertThat(Quantities.parseBytes("64KiB")).isEqualTo(64 << 10);
        assertThat(Quantities.parseBytes("64m")).isEqualTo(64L << 20);
        assertThat(Quantities.parseBytes("1GiB")).isEqualTo(1L << 30);
        assertThat(Quantities.parseBytes("2t")).isEqualTo(2L << 40);
        assertThat(Quantities.formatBytes(64L << 20)).isEqualTo("64MiB");
        assertThat(Quantities.formatBytes(4097)).isEqualTo("4097");
        assertThat(Quantities.formatBytes(-1)).isEqualTo("none");
        assertThat(new Quantities.BytesOrNone().convert("none")).isEqualTo(-1);
    }

    @Test
    void anythingElseIsRefusedNamingTheFormsTaken()
    {
        assertThatThrownBy(() -> Quantities.parseMillis("30")).isInstanceOf(TypeConversionException.class)
            .hasMessage("'30' is not a duration: give a whole number and a unit, as 500ms, 30s, 15m, 12h or 7d");
        assertThatThrownBy(() -> Quantities.parseMillis("-5s")).isInstanceOf(TypeConversionException.class);
        assertThatThrownBy(() -> Quantities.parseMillis("1.5h")).isInstanceOf(TypeConversionException.class);
        assertThatThrownBy(() -> Quantities.parseBytes("64MB")).isInstanceOf(TypeConversionException.class)
            .hasMessageContaining("4096, 64KiB, 64MiB or 1GiB");
        assertThatThrownBy(() -> Quantities.parseBytes("999999999999999999t"))
            .isInstanceOf(TypeConversionException.class).hasMessage("'999999999999999999t' is too large");
        assertThatThrownBy(() -> Quantities.parseMillis("999999999999999999d"))
            .isInstanceOf(TypeConversionException.class).hasMessageContaining("too large");
    }
}
