package io.spool.log;

import io.spool.log.TemplateLog.SegmentLayout;
import io.spool.testing.SlowTest;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.SplittableRandom;

import static io.spool.log.internal.segment.SegmentDescriptor.OFFSET_INDEX_SUFFIX;
import static io.spool.log.internal.segment.SegmentDescriptor.TIME_INDEX_SUFFIX;
import static io.spool.log.internal.segment.SegmentDescriptor.fileName;
import static org.assertj.core.api.Assertions.assertThat;


/**
 * Missing or garbage indexes are rebuilt exactly as they were (see {@link CorruptionCases}).
 */
@SlowTest
class IndexDamageTest extends CorruptionCases
{
    @Test
    void missingIndexesAreRebuiltAsTheyWere() throws IOException
    {
        final SegmentLayout middle = template.middle();
        final LogDamage damage = new LogDamage(template);
        damage.deleteIndex(middle, OFFSET_INDEX_SUFFIX);
        damage.deleteIndex(middle, TIME_INDEX_SUFFIX);
        final RecoveryReport report = reopenAndCheck(damage, "missing indexes");
        assertThat(report.truncatedAtOffset()).isEqualTo(-1);
        assertThat(report.rebuiltIndexes()).isEqualTo(2);
        for (final String suffix : List.of(OFFSET_INDEX_SUFFIX, TIME_INDEX_SUFFIX))
        {
            final String name = fileName(middle.baseOffset, suffix);
            assertThat(Files.readAllBytes(templateLogDir().resolve(name)))
                .isEqualTo(Files.readAllBytes(caseLogDir().resolve(name)));
        }
    }

    @Test
    void garbageIndexIsRebuiltAsItWas() throws IOException
    {
        final SegmentLayout middle = template.middle();
        final LogDamage damage = new LogDamage(template);
        damage.garbageIndex(middle, OFFSET_INDEX_SUFFIX, new SplittableRandom(7));
        final RecoveryReport report = reopenAndCheck(damage, "garbage offset index");
        assertThat(report.rebuiltIndexes()).isEqualTo(1);
        assertThat(report.problems()).containsExactly("rebuilt " + fileName(middle.baseOffset, OFFSET_INDEX_SUFFIX));
        final String name = fileName(middle.baseOffset, OFFSET_INDEX_SUFFIX);
        assertThat(Files.readAllBytes(templateLogDir().resolve(name)))
            .isEqualTo(Files.readAllBytes(caseLogDir().resolve(name)));
    }
}
