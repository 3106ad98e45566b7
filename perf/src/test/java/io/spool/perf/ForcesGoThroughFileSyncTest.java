package io.spool.perf;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.spool.testing.SlowTest;
import org.junit.jupiter.api.Test;

import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * Every force of the engine goes through its {@code FileSync}, so the power-loss tests, which put a layer there
 * that drops what was not forced, see every one: only the production layer itself calls the JDK's forces. The
 * benchmarks' baselines, which measure raw forces, are no part of the engine.
 */
@SlowTest
class ForcesGoThroughFileSyncTest
{
    private static final JavaClasses ENGINE_CLASSES = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.spool");

    @Test
    void onlyTheProductionFileSyncForces()
    {
        noClasses().that().doNotHaveFullyQualifiedName("io.spool.log.ForcingFileSync")
            .and().resideOutsideOfPackage("io.spool.perf..")
            .should().callMethod(FileChannel.class, "force", boolean.class)
            .orShould().callMethod(MappedByteBuffer.class, "force")
            .orShould().callMethod(MappedByteBuffer.class, "force", int.class, int.class)
            .check(ENGINE_CLASSES);
    }
}
