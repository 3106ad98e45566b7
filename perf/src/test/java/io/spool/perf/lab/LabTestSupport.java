package io.spool.perf.lab;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs a lab twice, each time on its own directory, and checks both runs printed the same table.
 */
final class LabTestSupport
{
    private LabTestSupport()
    {
    }

    static LabTable runTwiceAndCompare(final Lab lab, final Path dir)
    {
        final LabTable first = lab.run(dir.resolve("first"));
        final LabTable second = lab.run(dir.resolve("second"));
        System.out.println(first.render());
        assertThat(second.render()).as("a second run of lab " + lab.name() + " prints the same table")
            .isEqualTo(first.render());
        return first;
    }
}
