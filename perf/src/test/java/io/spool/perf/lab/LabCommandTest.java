package io.spool.perf.lab;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

class LabCommandTest
{
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int execute(final String... args)
    {
        return new CommandLine(new LabCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
            .execute(args);
    }

    @Test
    void listNamesEveryLabWithWhatItCompares()
    {
        assertThat(execute("--list")).isZero();
        for (final Lab lab : Labs.all())
        {
            assertThat(out.toString()).contains(lab.name()).contains(lab.summary());
        }
    }

    @Test
    void runsANamedLabAndPrintsItsTable()
    {
        assertThat(execute("fanout")).isZero();
        assertThat(out.toString()).contains("| pub/sub: email got").contains("100 of 100");
    }

    @Test
    void anUnknownLabIsRefusedWithAPointerToTheList()
    {
        assertThat(execute("nope")).isEqualTo(2);
        assertThat(err.toString()).contains("no lab named 'nope'").contains("--list");
    }

    @Test
    void labNamesAreUnique()
    {
        assertThat(Labs.all().stream().map(Lab::name)).doesNotHaveDuplicates();
    }
}
