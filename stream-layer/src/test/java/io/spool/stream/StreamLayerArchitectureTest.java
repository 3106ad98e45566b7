package io.spool.stream;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.spool.stream.internal.consumer.PartitionCursors;
import io.spool.stream.internal.group.ConsumerOffsets;
import io.spool.stream.internal.group.GroupMembership;
import io.spool.stream.internal.group.GroupReports;
import io.spool.stream.internal.producer.TopicStoredBatches;
import io.spool.testing.ApiRules;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The stream layer's packages, checked on its compiled classes: the API ({@code io.spool.stream}) never hands out an
 * internal type, and the internal packages keep their order: the topic metadata files at the bottom, knowing no other
 * internal package; the producer journal and a consumer's cursors beside them, which never meet; the groups on top,
 * moving consumers' cursors. The references left that run back up to the API's engine classes are named one by one.
 * That no other module uses these internals is checked by {@code ModuleLayeringTest} in perf, which sees every module.
 */
class StreamLayerArchitectureTest
{
    private static final JavaClasses STREAM_LAYER = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.spool.stream");

    private static final String TOPIC = "io.spool.stream.internal.topic..";
    private static final String PRODUCER = "io.spool.stream.internal.producer..";
    private static final String CONSUMER = "io.spool.stream.internal.consumer..";
    private static final String GROUP = "io.spool.stream.internal.group..";

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

    @Test
    void topicFilesKnowNoOtherInternals()
    {
        noClasses().that().resideInAPackage(TOPIC)
            .should().dependOnClassesThat().resideInAnyPackage(PRODUCER, CONSUMER, GROUP)
            .because("the topic metadata file and names are read by everyone above; they serve no producer or group")
            .check(STREAM_LAYER);
    }

    @Test
    void theProducerJournalAndTheCursorsNeverMeet()
    {
        noClasses().that().resideInAPackage(PRODUCER)
            .should().dependOnClassesThat().resideInAnyPackage(TOPIC, CONSUMER, GROUP)
            .because("producer sequences guard appends; they know no reader and no topic file")
            .check(STREAM_LAYER);
        noClasses().that().resideInAPackage(CONSUMER)
            .should().dependOnClassesThat().resideInAnyPackage(TOPIC, PRODUCER)
            .because("a cursor reads a partition log; who wrote it and how topics are stored is not its business")
            .check(STREAM_LAYER);
    }

    @Test
    void groupsNeverTouchTheProducerJournal()
    {
        noClasses().that().resideInAPackage(GROUP)
            .should().dependOnClassesThat().resideInAPackage(PRODUCER)
            .because("groups move consumers' cursors and commit offsets; producing is not theirs")
            .check(STREAM_LAYER);
    }

    /**
     * Internals may use the API's value types, configs, interfaces and exceptions, but not its engine classes, which
     * are built from the internals: the engine, the producer and the producer sequences never.
     */
    @Test
    void internalsNeverCallBackIntoTheEngineOrTheProducer()
    {
        noClasses().that().resideInAPackage("io.spool.stream.internal..")
            .should().dependOnClassesThat().belongToAnyOf(StreamEngine.class, StreamProducer.class,
                ProducerSequences.class)
            .because("the engine and the producer are built from the internals, so a call back up would be a cycle")
            .check(STREAM_LAYER);
    }

    /**
     * The references left that run back up, each named: a consumer's side of a group ({@link ConsumerOffsets},
     * {@link GroupMembership}) and the group reports ({@link GroupReports}) call the {@link GroupCoordinator}, which
     * holds every group under its lock; {@link ConsumerOffsets} logs under {@link StreamConsumer}'s name only.
     */
    @Test
    void onlyTheConsumersSideOfAGroupAndTheReportsCallTheCoordinator()
    {
        noClasses().that().resideInAPackage("io.spool.stream.internal..")
            .and().doNotBelongToAnyOf(ConsumerOffsets.class, GroupMembership.class, GroupReports.class)
            .should().dependOnClassesThat().belongToAnyOf(GroupCoordinator.class)
            .because("the coordinator holds the groups; only a member's side and the reports ask it")
            .check(STREAM_LAYER);
        noClasses().that().resideInAPackage("io.spool.stream.internal..")
            .and().doNotBelongToAnyOf(ConsumerOffsets.class)
            .should().dependOnClassesThat().belongToAnyOf(StreamConsumer.class)
            .because("a consumer drives its cursors and membership; they do not call it back")
            .check(STREAM_LAYER);
    }

    /**
     * The references left to the topics: the group reports ({@link GroupReports}) and the stored-batch lookup of the
     * producer's retries ({@link TopicStoredBatches}) read partitions through the {@link TopicRegistry}, and a
     * consumer's cursors ({@link PartitionCursors}) open a reader on a {@link Topic}'s partition log.
     */
    @Test
    void onlyTheReportsTheBatchLookupAndTheCursorsReadTopics()
    {
        noClasses().that().resideInAPackage("io.spool.stream.internal..")
            .and().doNotBelongToAnyOf(GroupReports.class, TopicStoredBatches.class)
            .should().dependOnClassesThat().belongToAnyOf(TopicRegistry.class)
            .because("the registry is built from the topic files; only readers of its partitions ask it")
            .check(STREAM_LAYER);
        noClasses().that().resideInAPackage("io.spool.stream.internal..")
            .and().doNotBelongToAnyOf(GroupReports.class, TopicStoredBatches.class, PartitionCursors.class)
            .should().dependOnClassesThat().belongToAnyOf(Topic.class)
            .because("a topic's partition logs are read by the cursors, the reports and the retries' batch lookup")
            .check(STREAM_LAYER);
    }
}
