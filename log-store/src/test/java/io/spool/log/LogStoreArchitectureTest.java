package io.spool.log;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.spool.log.internal.recovery.SegmentInspection;
import io.spool.testing.ApiRules;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The log store's packages, checked on its compiled classes: the API ({@code io.spool.log}, {@code .tools}) never
 * hands out an internal type, and the internal packages keep their order: segment below recovery and the pipeline,
 * which never meet. That no other module uses these internals is checked by {@code ModuleLayeringTest} in perf,
 * which sees every module.
 */
class LogStoreArchitectureTest
{
    private static final JavaClasses LOG_STORE = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.spool.log");

    /**
     * Named exception: {@code spool verify} reports each index's health with recovery's own {@link
     * SegmentInspection.IndexHealth}, so the tools API shows that one enum rather than a copy of it.
     */
    private static final Set<String> EXPOSED_ON_PURPOSE = Set.of(SegmentInspection.IndexHealth.class.getName());

    @Test
    void apiMembersNeverExposeInternalTypes()
    {
        ApiRules.apiNeverExposesInternals(EXPOSED_ON_PURPOSE, "io.spool.log", "io.spool.log.tools").check(LOG_STORE);
    }

    @Test
    void segmentsKnowNeitherRecoveryNorThePipeline()
    {
        noClasses().that().resideInAPackage("io.spool.log.internal.segment..")
            .should().dependOnClassesThat().resideInAnyPackage("io.spool.log.internal.recovery..",
                "io.spool.log.internal.pipeline..")
            .because("recovery and the pipeline build on segments, not the other way round")
            .check(LOG_STORE);
    }

    @Test
    void recoveryAndThePipelineNeverMeet()
    {
        noClasses().that().resideInAPackage("io.spool.log.internal.recovery..")
            .should().dependOnClassesThat().resideInAPackage("io.spool.log.internal.pipeline..")
            .because("recovery runs before any writer exists")
            .check(LOG_STORE);
        noClasses().that().resideInAPackage("io.spool.log.internal.pipeline..")
            .should().dependOnClassesThat().resideInAPackage("io.spool.log.internal.recovery..")
            .because("the pipeline writes what recovery already checked")
            .check(LOG_STORE);
    }

    /**
     * Internals may use the API's types (configuration, record format, exceptions), but not its engine classes:
     * those sit on top of the internals. Named exception: the appender reads {@link LogProducer#DEDUP_HEADER}, the
     * header name producers put a dedup id under, which is a public constant and compiled in.
     */
    @Test
    void internalsNeverCallBackIntoTheEngineClasses()
    {
        noClasses().that().resideInAPackage("io.spool.log.internal..")
            .should().dependOnClassesThat().belongToAnyOf(LogStore.class, PartitionLog.class, LogReader.class)
            .because("the engine classes are built from the internals, so a call back up would be a cycle")
            .check(LOG_STORE);
    }
}
