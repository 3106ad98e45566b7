package io.spool.stream;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.spool.testing.ApiRules;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The stream layer's packages, checked on its compiled classes: the API ({@code io.spool.stream}) never hands out an
 * internal type, and a consumer's per-partition state knows nothing of groups. That no other module uses these
 * internals is checked by {@code ModuleLayeringTest} in perf, which sees every module.
 */
class StreamLayerArchitectureTest
{
    private static final JavaClasses STREAM_LAYER = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.spool.stream");

    @Test
    void apiMembersNeverExposeInternalTypes()
    {
        ApiRules.apiNeverExposesInternals(Set.of(), "io.spool.stream").check(STREAM_LAYER);
    }

    @Test
    void consumerCursorsKnowNothingOfGroups()
    {
        noClasses().that().resideInAPackage("io.spool.stream.internal.consumer..")
            .should().dependOnClassesThat().resideInAPackage("io.spool.stream.internal.group..")
            .because("a group moves a consumer's cursors; a cursor does not know it is in a group")
            .check(STREAM_LAYER);
    }
}
