package io.spool.log;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import io.spool.log.internal.recovery.SegmentInspection;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.members;
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
        members().that().areDeclaredInClassesThat().resideInAnyPackage("io.spool.log", "io.spool.log.tools")
            .and().areDeclaredInClassesThat().arePublic()
            .and(isPublicOrProtected())
            .should(notMentionInternalTypes())
            .because("users of the log store see its API only; internals change without notice")
            .check(LOG_STORE);
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

    private static DescribedPredicate<JavaMember> isPublicOrProtected()
    {
        return DescribedPredicate.describe("are public or protected", member ->
            member.getModifiers().contains(JavaModifier.PUBLIC) || member.getModifiers().contains(JavaModifier.PROTECTED));
    }

    private static ArchCondition<JavaMember> notMentionInternalTypes()
    {
        return new ArchCondition<>("not mention internal types in their signature")
        {
            @Override
            public void check(final JavaMember member, final ConditionEvents events)
            {
                final List<JavaClass> types = new ArrayList<>();
                if (member instanceof JavaMethod method)
                {
                    types.add(method.getRawReturnType());
                }
                if (member instanceof com.tngtech.archunit.core.domain.JavaCodeUnit codeUnit)
                {
                    types.addAll(codeUnit.getRawParameterTypes());
                }
                if (member instanceof com.tngtech.archunit.core.domain.JavaField field)
                {
                    types.add(field.getRawType());
                }
                for (final JavaClass type : types)
                {
                    final JavaClass base = type.isArray() ? type.getBaseComponentType() : type;
                    if (base.getPackageName().contains(".internal") && !EXPOSED_ON_PURPOSE.contains(base.getName()))
                    {
                        events.add(SimpleConditionEvent.violated(member,
                            member.getFullName() + " exposes the internal type " + base.getName()));
                    }
                }
            }
        };
    }
}
