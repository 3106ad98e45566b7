package io.spool.queue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.spool.Spool;
import io.spool.SpoolProducer;
import io.spool.queue.internal.delivery.AckRun;
import io.spool.queue.internal.delivery.DeliveryHandoff;
import io.spool.testing.ApiRules;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The queue layer's packages, checked on its compiled classes: the API ({@code io.spool}, {@code io.spool.queue},
 * {@code .routing}) never hands out an internal type, and the internal packages keep their order: the per-offset
 * tables at the bottom, the state machine on them, the store on the state machine, the agent's threads and the
 * registry's catalogs on top, which never meet. That no other module uses these internals is checked by
 * {@code ModuleLayeringTest} in perf, which sees every module.
 */
class QueueLayerArchitectureTest
{
    private static final JavaClasses QUEUE_LAYER = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.spool");

    private static final String TABLE = "io.spool.queue.internal.table..";
    private static final String STATE = "io.spool.queue.internal.state..";
    private static final String STORE = "io.spool.queue.internal.store..";
    private static final String DELIVERY = "io.spool.queue.internal.delivery..";
    private static final String REGISTRY = "io.spool.queue.internal.registry..";

    /**
     * Named exceptions: a push consumer's hand-off ring ({@link DeliveryHandoff}) and its batched acks
     * ({@link AckRun}) are final fields of {@link QueueConsumer} that the agent's thread reads on every pass, so the
     * hot path pays no call to reach them. Applications that want the engine out of sight hold the consumer as the
     * API's {@code PushConsumer}; {@code QueueConsumer} stays the embedded engine's public class, and moving it among
     * the internals would cost every embedded application an import for no behaviour.
     */
    private static final Set<String> EXPOSED_ON_PURPOSE = Set.of(DeliveryHandoff.class.getName(),
        AckRun.class.getName());

    @Test
    void apiMembersNeverExposeInternalTypes()
    {
        ApiRules.apiNeverExposesInternals(EXPOSED_ON_PURPOSE, "io.spool", "io.spool.queue", "io.spool.queue.routing")
            .check(QUEUE_LAYER.that(DescribedPredicate.describe("are in queue-layer",
                type -> !type.getPackageName().startsWith("io.spool.log") &&
                    !type.getPackageName().startsWith("io.spool.stream"))));
    }

    @Test
    void tablesKnowOnlyOffsets()
    {
        noClasses().that().resideInAPackage(TABLE)
            .should().dependOnClassesThat().resideInAnyPackage("io.spool.queue", "io.spool.queue.routing", STATE, STORE,
                DELIVERY, REGISTRY)
            .because("a table holds numbers by offset; what they mean is the state machine's")
            .check(QUEUE_LAYER);
    }

    @Test
    void theStateMachineNeverTouchesTheStoreTheAgentOrTheRegistry()
    {
        noClasses().that().resideInAPackage(STATE)
            .should().dependOnClassesThat().resideInAnyPackage(STORE, DELIVERY, REGISTRY)
            .because("the state machine tells a StateLog what changed; who persists it and who drives it sit above")
            .check(QUEUE_LAYER);
    }

    @Test
    void theStoreNeverTouchesTheAgentOrTheRegistry()
    {
        noClasses().that().resideInAPackage(STORE)
            .should().dependOnClassesThat().resideInAnyPackage(DELIVERY, REGISTRY)
            .because("the agent commits the store once per pass; the store does not know who calls it")
            .check(QUEUE_LAYER);
    }

    @Test
    void theAgentAndTheRegistryNeverMeet()
    {
        noClasses().that().resideInAPackage(DELIVERY)
            .should().dependOnClassesThat().resideInAPackage(REGISTRY)
            .because("the registry's catalogs say what exists; the agent delivers what it is given")
            .check(QUEUE_LAYER);
        noClasses().that().resideInAPackage(REGISTRY)
            .should().dependOnClassesThat().resideInAnyPackage(DELIVERY, STATE)
            .because("the catalogs and the files check read files, they run no subscription")
            .check(QUEUE_LAYER);
    }

    /**
     * Internals may use the API's value types, settings and exceptions, but not its engine classes, which are built
     * from the internals.
     */
    @Test
    void internalsNeverCallBackIntoTheEngineClasses()
    {
        noClasses().that().resideInAPackage("io.spool.queue.internal..")
            .should().dependOnClassesThat().belongToAnyOf(Spool.class, SpoolProducer.class, Subscription.class,
                SubscriptionRegistry.class, Router.class, Redriver.class, PublishGate.class)
            .because("the engine classes are built from the internals, so a call back up would be a cycle")
            .check(QUEUE_LAYER);
    }

    /**
     * The two references left that run back up, both from the agent's threads: the dispatcher and the partition
     * workers fill the {@link Delivery} objects they hand out (reused views of the log, which the API returns), and
     * the agent reads a push {@link QueueConsumer}'s credit and rings and tells it of refused settlements and ended
     * locks. Nothing else of the internals touches either.
     */
    @Test
    void onlyTheAgentsThreadsFillDeliveriesAndTalkToConsumers()
    {
        noClasses().that().resideInAPackage("io.spool.queue.internal..")
            .and().resideOutsideOfPackage(DELIVERY)
            .should().dependOnClassesThat().belongToAnyOf(QueueConsumer.class, Delivery.class)
            .because("consumers and deliveries are the agent's to serve")
            .check(QUEUE_LAYER);
    }
}
