package io.spool.perf;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.spool.testing.SlowTest;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The module order of docs/design/architecture.md, checked on the compiled classes: a lower layer never imports a
 * higher one.
 * Maven already keeps higher modules off a lower module's classpath; this test also catches a class placed in
 * the wrong module's package.
 */
@SlowTest
class ModuleLayeringTest
{
    private static final JavaClasses SPOOL_CLASSES = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(location -> !location.contains("-tests.jar"))
        .importPackages("io.spool");

    @Test
    void importsEveryModule()
    {
        assertThat(SPOOL_CLASSES.stream().map(c -> c.getPackageName()).distinct())
            .contains("io.spool", "io.spool.api", "io.spool.log", "io.spool.stream", "io.spool.queue", "io.spool.wire", "io.spool.cluster",
                "io.spool.model");
    }

    @Test
    void lowerModulesNeverImportHigherOnes()
    {
        layeredArchitecture()
            .consideringOnlyDependenciesInLayers()
            .withOptionalLayers(true)
            .layer("log").definedBy("io.spool.log..")
            .layer("stream").definedBy("io.spool.stream..")
            .layer("queue").definedBy("io.spool.queue..", "io.spool")
            .layer("wire").definedBy("io.spool.wire..")
            .layer("cluster").definedBy("io.spool.cluster..")
            .layer("model").definedBy("io.spool.model..")
            .layer("perf").definedBy("io.spool.perf..")
            .whereLayer("perf").mayNotBeAccessedByAnyLayer()
            .whereLayer("model").mayNotBeAccessedByAnyLayer()
            .whereLayer("cluster").mayOnlyBeAccessedByLayers("perf")
            .whereLayer("wire").mayOnlyBeAccessedByLayers("cluster", "perf", "model")
            .whereLayer("queue").mayOnlyBeAccessedByLayers("wire", "cluster", "perf", "model")
            .whereLayer("stream").mayOnlyBeAccessedByLayers("queue", "wire", "cluster", "perf", "model")
            .check(SPOOL_CLASSES);
    }

    /**
     * The API module is what the network client ships with (docs/decisions/015): it may use no other Spool code, or
     * the client would drag the engine in again.
     */
    @Test
    void theApiUsesNoEngineCode()
    {
        noClasses().that().resideInAPackage("io.spool.api..")
            .should().dependOnClassesThat().resideInAnyPackage("io.spool", "io.spool.log..", "io.spool.stream..",
                "io.spool.queue..", "io.spool.wire..", "io.spool.cluster..", "io.spool.model..", "io.spool.perf..")
            .because("spool-api depends on Agrona alone; the engine depends on it, never the other way")
            .check(SPOOL_CLASSES);
    }

    /**
     * The client artifact sees the API and the protocol only; its dependency list keeps the engine off its class path
     * (ClientNeedsNoEngineTest), and this rule keeps a class of the client from being placed in the server's module.
     */
    @Test
    void theClientAndTheProtocolUseNoEngineCode()
    {
        noClasses().that().resideInAnyPackage("io.spool.wire", "io.spool.wire.client..")
            .should().dependOnClassesThat().resideInAnyPackage("io.spool", "io.spool.log..", "io.spool.stream..",
                "io.spool.queue..", "io.spool.wire.server..", "io.spool.wire.kafka..", "io.spool.wire.sqs..",
                "io.spool.cluster..")
            .check(SPOOL_CLASSES);
    }

    /**
     * A module's {@code internal} packages are its own machinery (docs/decisions/014): other modules use its API.
     * No exceptions are named today; one added here must say why the API cannot serve.
     */
    @Test
    void noModuleUsesAnotherModulesInternals()
    {
        noClasses().that().resideOutsideOfPackage("io.spool.log..")
            .should().dependOnClassesThat().resideInAPackage("io.spool.log.internal..")
            .because("the log store's internals change without notice; its API is io.spool.log")
            .check(SPOOL_CLASSES);
        noClasses().that().resideOutsideOfPackage("io.spool.stream..")
            .should().dependOnClassesThat().resideInAPackage("io.spool.stream.internal..")
            .allowEmptyShould(true)
            .because("the stream layer's internals change without notice; its API is io.spool.stream")
            .check(SPOOL_CLASSES);
        noClasses().that().resideOutsideOfPackage("io.spool.queue..")
            .and().resideOutsideOfPackage("io.spool")
            .should().dependOnClassesThat().resideInAPackage("io.spool.queue.internal..")
            .because("the queue layer's internals change without notice; its API is io.spool and io.spool.queue")
            .check(SPOOL_CLASSES);
    }

    /**
     * Kafka's generated message classes carry no compatibility promise between releases, so one adapter package
     * holds every use of them (and of the rest of kafka-clients): a new Kafka version touches that package only.
     */
    @Test
    void onlyTheKafkaAdapterUsesKafkasClasses()
    {
        noClasses().that().resideOutsideOfPackage("io.spool.wire.kafka..")
            .should().dependOnClassesThat().resideInAPackage("org.apache.kafka..")
            .because("the Kafka listener's adapter package io.spool.wire.kafka is the one place that speaks Kafka")
            .check(SPOOL_CLASSES);
    }
}
