package io.toolboundary.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.adapter.inmemory.bad.InMemoryStoreUsingTheRedisAdapter;
import io.toolboundary.adapter.redis.bad.RedisKeyFormat;
import io.toolboundary.adapter.redis.bad.RedisStoreFactory;
import io.toolboundary.adapter.redis.bad.RedisStoreHidingRedisson;
import io.toolboundary.adapter.redis.bad.RedisStoreLeakingRedissonThroughAGenericType;
import io.toolboundary.adapter.redis.bad.RedisStoreTakingRedissonInItsConstructor;
import io.toolboundary.adapter.redis.bad.RedisStoreThrowingARedissonException;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolRequest;
import io.toolboundary.application.bad.ApplicationPortExposingRedisson;
import io.toolboundary.application.bad.ApplicationServiceUsingAnAdapter;
import io.toolboundary.application.bad.ApplicationServiceUsingJacksonAnnotations;
import io.toolboundary.application.bad.ApplicationServiceUsingJacksonCore;
import io.toolboundary.application.bad.ApplicationServiceUsingRedisson;
import io.toolboundary.application.bad.ApplicationSideOfACycle;
import io.toolboundary.application.bad.OuterSideOfANestedCycle;
import io.toolboundary.application.bad.RecordArchive;
import io.toolboundary.application.bad.RecordStorePort;
import io.toolboundary.application.bad.inner.InnerSideOfANestedCycle;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.bad.DomainSideOfACycle;
import io.toolboundary.domain.bad.DomainValueAnnotatedForJackson;
import io.toolboundary.domain.bad.DomainValueHoldingAFrameworkType;
import io.toolboundary.domain.bad.DomainValueOfPlainJavaAndVavr;
import io.toolboundary.domain.bad.MutableDomainValue;
import io.toolboundary.langchain4j.LangChain4jToolBoundary;
import io.toolboundary.langchain4j.bad.ToolProviderUsingTheTestkit;
import io.toolboundary.mcp.McpToolBindings;
import io.toolboundary.mcp.bad.McpBindingsUsingTheLangChain4jIntegration;
import io.toolboundary.mcp.bad.McpBindingsUsingTheTestkit;
import io.toolboundary.micrometer.MicrometerBoundaryListener;
import io.toolboundary.micrometer.bad.MetricsCallingAnMcpServer;
import io.toolboundary.micrometer.bad.MetricsUsingTheLangChain4jIntegration;
import io.toolboundary.springai.BoundaryToolCallingManager;
import io.toolboundary.springai.autoconfigure.ToolBoundaryAutoConfiguration;
import io.toolboundary.springai.bad.AutoConfigurationReachingAdapterInternals;
import io.toolboundary.springaialibaba.BoundaryRunnableConfig;
import io.toolboundary.springaialibaba.autoconfigure.ReactAgentBoundaryAutoConfiguration;
import io.toolboundary.springaialibaba.bad.InterceptorUsingTheSpringAiIntegration;
import io.toolboundary.tck.bad.StoreSuiteUsingRedisson;
import io.toolboundary.tck.bad.StoreSuiteUsingTheTestkit;
import io.toolboundary.tck.bad.SuiteSideOfACycle;
import io.toolboundary.tck.bad.fixture.FixtureSideOfACycle;
import io.toolboundary.tck.reliability.StoreModelContract;
import io.toolboundary.tck.store.StoreFixture;
import io.toolboundary.testkit.bad.TestkitFixtureUsingJUnitAndAssertJ;
import io.toolboundary.testkit.bad.TestkitFixtureUsingRedisson;
import io.toolboundary.testkit.bad.TestkitFixtureUsingTestcontainers;
import io.toolboundary.testkit.bad.TestkitFixtureUsingTheInMemoryStore;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each rule of {@link ArchitectureTest} evaluated on classes written to break it (in the
 * {@code ..bad..} test packages), and on well-behaved classes for contrast. A rule that cannot
 * catch its bad class would pass on anything.
 */
class RulesCatchBadClassesTest {

    @Nested
    class DomainDependencies {

        private final ArchRule rule = ArchitectureTest.domain_depends_only_on_java_vavr_and_itself;

        @Test
        void catchesADomainValueAnnotatedForJackson() {
            assertCatches(rule, DomainValueAnnotatedForJackson.class);
        }

        @Test
        void catchesADomainValueHoldingAFrameworkType() {
            assertCatches(rule, DomainValueHoldingAFrameworkType.class);
        }

        @Test
        void catchesADomainClassThatReachesIntoTheApplication() {
            assertCatches(rule, DomainSideOfACycle.class);
        }

        @Test
        void acceptsADomainValueOfPlainJavaAndVavr() {
            assertAccepts(rule, DomainValueOfPlainJavaAndVavr.class, CanonicalRecord.class);
        }
    }

    @Nested
    class ApplicationDependencies {

        private final ArchRule rule =
                ArchitectureTest.application_depends_only_on_java_vavr_jackson_the_domain_and_itself;

        @Test
        void catchesAnApplicationClassUsingRedisson() {
            assertCatches(rule, ApplicationServiceUsingRedisson.class);
        }

        @Test
        void catchesAnApplicationClassUsingJacksonAnnotations() {
            assertCatches(rule, ApplicationServiceUsingJacksonAnnotations.class);
        }

        @Test
        void catchesAnApplicationClassOtherThanTheToolRequestUsingJackson() {
            assertCatches(ArchitectureTest.only_the_tool_request_reads_json_with_jackson,
                    ApplicationServiceUsingJacksonCore.class);
            assertAccepts(ArchitectureTest.only_the_tool_request_reads_json_with_jackson, ToolRequest.class,
                    ToolBoundary.class);
        }

        @Test
        void catchesAnApplicationClassUsingAnAdapter() {
            assertCatches(rule, ApplicationServiceUsingAnAdapter.class);
        }

        @Test
        void acceptsAnApplicationClassUsingJacksonVavrAndTheDomain() {
            assertAccepts(rule, ToolBoundary.class, ToolRequest.class);
        }
    }

    @Nested
    class RedisClientsStayInTheRedisAdapter {

        private final ArchRule rule = ArchitectureTest.only_the_redis_adapter_uses_redisson_or_a_redis_client;

        @Test
        void catchesAnApplicationClassUsingRedisson() {
            assertCatches(rule, ApplicationServiceUsingRedisson.class);
        }

        @Test
        void catchesATestkitFixtureUsingRedisson() {
            assertCatches(rule, TestkitFixtureUsingRedisson.class);
        }

        @Test
        void acceptsRedissonInsideTheRedisAdapter() {
            assertAccepts(rule, RedisStoreHidingRedisson.class, RedisStoreFactory.class,
                    ApplicationServiceUsingJacksonCore.class);
        }
    }

    @Nested
    class RedisTypesStayOutOfPublicSignatures {

        private final ArchRule rule =
                ArchitectureTest.no_public_signature_exposes_a_redis_type_except_a_factory_of_the_redis_adapter;

        @Test
        void catchesAnApplicationPortReturningTheRedissonClient() {
            assertCatches(rule, ApplicationPortExposingRedisson.class);
        }

        @Test
        void catchesAPublicConstructorTakingTheRedissonClientOutsideTheFactory() {
            assertCatches(rule, RedisStoreTakingRedissonInItsConstructor.class);
        }

        @Test
        void catchesARedissonTypeHiddenInATypeArgument() {
            assertCatches(rule, RedisStoreLeakingRedissonThroughAGenericType.class);
        }

        @Test
        void catchesARedissonExceptionInAThrowsClause() {
            assertCatches(rule, RedisStoreThrowingARedissonException.class);
        }

        @Test
        void acceptsTheFactoryAndRedissonInNonPublicMembers() {
            assertAccepts(rule, RedisStoreFactory.class, RedisStoreHidingRedisson.class,
                    ApplicationServiceUsingRedisson.class);
        }
    }

    @Nested
    class PackageCycles {

        @Test
        void topLevelRuleCatchesACycleBetweenDomainAndApplication() {
            assertCatches(ArchitectureTest.top_level_packages_are_free_of_cycles,
                    DomainSideOfACycle.class, ApplicationSideOfACycle.class);
        }

        @Test
        void packageRuleCatchesACycleBetweenDomainAndApplication() {
            assertCatches(ArchitectureTest.packages_are_free_of_cycles,
                    DomainSideOfACycle.class, ApplicationSideOfACycle.class);
        }

        @Test
        void packageRuleCatchesACycleInsideOneTopLevelPackage() {
            assertCatches(ArchitectureTest.packages_are_free_of_cycles,
                    OuterSideOfANestedCycle.class, InnerSideOfANestedCycle.class);
        }

        @Test
        void packageRuleCatchesACycleBetweenTwoPackagesOfTheStoreTck() {
            assertCatches(ArchitectureTest.packages_are_free_of_cycles,
                    SuiteSideOfACycle.class, FixtureSideOfACycle.class);
        }

        @Test
        void topLevelRuleLeavesCyclesInsideOneTopLevelPackageToThePackageRule() {
            assertAccepts(ArchitectureTest.top_level_packages_are_free_of_cycles,
                    OuterSideOfANestedCycle.class, InnerSideOfANestedCycle.class, DomainValueOfPlainJavaAndVavr.class);
        }

        @Test
        void acceptsADependencyInOneDirection() {
            assertAccepts(ArchitectureTest.packages_are_free_of_cycles,
                    ApplicationServiceUsingJacksonCore.class, DomainValueOfPlainJavaAndVavr.class);
            assertAccepts(ArchitectureTest.top_level_packages_are_free_of_cycles,
                    ApplicationServiceUsingJacksonCore.class, DomainValueOfPlainJavaAndVavr.class);
        }
    }

    @Nested
    class DomainFields {

        private final ArchRule rule = ArchitectureTest.domain_fields_are_final;

        @Test
        void catchesANonFinalDomainField() {
            assertCatches(rule, MutableDomainValue.class);
        }

        @Test
        void acceptsARecord() {
            assertAccepts(rule, DomainValueOfPlainJavaAndVavr.class);
        }
    }

    @Nested
    class Integrations {

        @Test
        void catchesAnIntegrationUsingTheTestkit() {
            assertCatches(ArchitectureTest.integrations_depend_on_the_application_and_their_framework_only,
                    ToolProviderUsingTheTestkit.class);
        }

        @Test
        void catchesAnIntegrationReachingAnAdaptersInternals() {
            assertCatches(ArchitectureTest.integrations_depend_on_the_application_and_their_framework_only,
                    AutoConfigurationReachingAdapterInternals.class);
        }

        @Test
        void catchesTheMcpIntegrationUsingTheTestkit() {
            assertCatches(ArchitectureTest.integrations_depend_on_the_application_and_their_framework_only,
                    McpBindingsUsingTheTestkit.class);
        }

        @Test
        void acceptsTheIntegrationsAsTheyAre() {
            assertAccepts(ArchitectureTest.integrations_depend_on_the_application_and_their_framework_only,
                    LangChain4jToolBoundary.class, MicrometerBoundaryListener.class, BoundaryToolCallingManager.class,
                    McpToolBindings.class, BoundaryRunnableConfig.class);
        }

        @Test
        void catchesAnIntegrationUsingAnother() {
            assertCatches(ArchitectureTest.integrations_never_depend_on_each_other,
                    MetricsUsingTheLangChain4jIntegration.class, LangChain4jToolBoundary.class);
        }

        @Test
        void catchesTheMcpIntegrationUsingAnother() {
            assertCatches(ArchitectureTest.integrations_never_depend_on_each_other,
                    McpBindingsUsingTheLangChain4jIntegration.class, LangChain4jToolBoundary.class);
        }

        @Test
        void catchesTheAlibabaInterceptorUsingTheSpringAiIntegration() {
            assertCatches(ArchitectureTest.integrations_never_depend_on_each_other,
                    InterceptorUsingTheSpringAiIntegration.class, BoundaryToolCallingManager.class);
        }

        @Test
        void acceptsTheAlibabaAutoConfigurationBuildingOnTheSpringAiOne() {
            assertAccepts(ArchitectureTest.integrations_never_depend_on_each_other,
                    ReactAgentBoundaryAutoConfiguration.class, ToolBoundaryAutoConfiguration.class,
                    BoundaryRunnableConfig.class);
        }

        @Test
        void acceptsIntegrationsThatStandAlone() {
            assertAccepts(ArchitectureTest.integrations_never_depend_on_each_other,
                    LangChain4jToolBoundary.class, MicrometerBoundaryListener.class, McpToolBindings.class);
        }

        @Test
        void catchesAnotherIntegrationUsingTheMcpSdk() {
            assertCatches(ArchitectureTest.only_the_mcp_integration_uses_the_mcp_sdk, MetricsCallingAnMcpServer.class);
        }

        @Test
        void acceptsTheMcpIntegrationUsingTheMcpSdk() {
            assertAccepts(ArchitectureTest.only_the_mcp_integration_uses_the_mcp_sdk,
                    McpToolBindings.class, LangChain4jToolBoundary.class);
        }
    }

    @Nested
    class Adapters {

        @Test
        void catchesTheInMemoryAdapterUsingTheRedisAdapter() {
            assertCatches(ArchitectureTest.adapters_never_depend_on_each_other,
                    InMemoryStoreUsingTheRedisAdapter.class, RedisKeyFormat.class);
        }

        @Test
        void acceptsAdaptersThatStandAlone() {
            assertAccepts(ArchitectureTest.adapters_never_depend_on_each_other,
                    InMemoryCanonicalInvocationStore.class, RedisKeyFormat.class, RedisStoreHidingRedisson.class);
        }

        @Test
        void catchesAnApplicationClassThatUsesAnAdapter() {
            assertCatches(ArchitectureTest.nothing_but_the_adapters_and_the_demo_depends_on_an_adapter,
                    ApplicationServiceUsingAnAdapter.class);
        }

        @Test
        void catchesATestkitFixtureThatUsesAnAdapter() {
            assertCatches(ArchitectureTest.nothing_but_the_adapters_and_the_demo_depends_on_an_adapter,
                    TestkitFixtureUsingTheInMemoryStore.class);
        }

        @Test
        void acceptsAnAdapterUsingAnotherPartOfItself() {
            assertAccepts(ArchitectureTest.nothing_but_the_adapters_and_the_demo_depends_on_an_adapter,
                    InMemoryStoreUsingTheRedisAdapter.class, ApplicationServiceUsingJacksonCore.class);
        }
    }

    @Nested
    class Testkit {

        private final ArchRule rule =
                ArchitectureTest.testkit_depends_only_on_application_domain_java_vavr_junit_and_assertj;

        @Test
        void catchesAFixtureUsingAnAdapter() {
            assertCatches(rule, TestkitFixtureUsingTheInMemoryStore.class);
        }

        @Test
        void catchesAFixtureUsingRedisson() {
            assertCatches(rule, TestkitFixtureUsingRedisson.class);
        }

        @Test
        void catchesAFixtureUsingTestcontainers() {
            assertCatches(rule, TestkitFixtureUsingTestcontainers.class);
        }

        @Test
        void acceptsAFixtureUsingJUnitAssertJAndTheApplication() {
            assertAccepts(rule, TestkitFixtureUsingJUnitAndAssertJ.class);
        }
    }

    @Nested
    class StoreTck {

        private final ArchRule rule =
                ArchitectureTest.store_tck_depends_only_on_testkit_application_domain_java_vavr_junit_and_assertj;

        @Test
        void catchesASuiteUsingRedisson() {
            assertCatches(rule, StoreSuiteUsingRedisson.class);
        }

        @Test
        void acceptsASuiteUsingTheTestkit() {
            assertAccepts(rule, StoreSuiteUsingTheTestkit.class);
        }
    }

    @Nested
    class Clock {

        private final ArchRule rule = ArchitectureTest.domain_never_reads_the_clock;

        @ParameterizedTest
        @ValueSource(strings = {
            "ReadsInstantNow", "ReadsLocalDateTimeNow", "ReadsSystemCurrentTimeMillis", "ReadsTheSystemClock",
            "ReadsAGivenClock", "ReadsTheClockThroughAMethodReference", "ReadsTheClockThroughNewDate"})
        void catchesADomainClassReadingTheTime(String simpleName) throws ClassNotFoundException {
            assertCatches(rule, Class.forName("io.toolboundary.domain.bad." + simpleName));
        }

        @Test
        void acceptsADomainValueComputingWithTheTimeItIsGiven() {
            assertAccepts(rule, DomainValueOfPlainJavaAndVavr.class, CanonicalRecord.Projecting.class);
        }
    }

    @Nested
    class DomainFrameworks {

        private final ArchRule rule = ArchitectureTest.domain_carries_no_jackson_annotation_and_no_framework_type;

        @Test
        void catchesAJacksonAnnotationOnADomainValue() {
            assertCatches(rule, DomainValueAnnotatedForJackson.class);
        }

        @Test
        void catchesAFrameworkTypeInADomainValue() {
            assertCatches(rule, DomainValueHoldingAFrameworkType.class);
        }

        @Test
        void acceptsADomainValueOfPlainJavaAndVavr() {
            assertAccepts(rule, DomainValueOfPlainJavaAndVavr.class);
        }
    }

    @Nested
    class PortNames {

        private final ArchRule rule = ArchitectureTest.ports_are_not_named_port;

        @Test
        void catchesAPortNamedPort() {
            assertCatches(rule, RecordStorePort.class);
        }

        @Test
        void acceptsAPortNamedByWhatItIs() {
            assertAccepts(rule, RecordArchive.class, CanonicalInvocationStore.class);
        }
    }

    @Nested
    class Analysis {

        /** What {@link ArchitectureTest} analyses: imported once, it is the slowest part of this class. */
        private static final JavaClasses PRODUCTION = new ClassFileImporter()
                .withImportOption(new ImportOption.DoNotIncludeTests())
                .importPackages("io.toolboundary");

        @Test
        void leavesTheBadClassesOut() {
            assertThat(PRODUCTION.stream().map(JavaClass::getName))
                    .isNotEmpty()
                    .noneMatch(name -> name.contains(".bad."))
                    .noneMatch(name -> name.startsWith("io.toolboundary.architecture."));
        }

        @Test
        void seesTheProductionClassesOfEveryModule() {
            assertThat(PRODUCTION.contain(ToolBoundary.class)).isTrue();
            assertThat(PRODUCTION.contain(CanonicalRecord.class)).isTrue();
            assertThat(PRODUCTION.contain(InMemoryCanonicalInvocationStore.class)).isTrue();
            assertThat(PRODUCTION.contain(StoreFixture.class)).isTrue();
            assertThat(PRODUCTION.contain(StoreModelContract.class)).isTrue();
        }

        @Test
        void failsARuleThatMatchesNothing() {
            ArchRule misspelt = classes().that().resideInAPackage("io.toolboundary.domian..")
                    .should().bePublic();

            assertThatThrownBy(() -> misspelt.evaluate(PRODUCTION))
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContaining("failed to check any classes");
        }
    }

    private static void assertCatches(ArchRule rule, Class<?> bad, Class<?>... others) {
        EvaluationResult result = rule.evaluate(importClasses(bad, others));

        assertThat(result.hasViolation())
                .as("%s should catch %s", rule.getDescription(), bad.getName())
                .isTrue();
        assertThat(result.getFailureReport().toString()).contains(bad.getName());
    }

    private static void assertAccepts(ArchRule rule, Class<?> good, Class<?>... others) {
        EvaluationResult result = rule.evaluate(importClasses(good, others));

        assertThat(result.hasViolation())
                .as("%s should accept %s, but reported:%n%s", rule.getDescription(), good.getName(),
                        result.getFailureReport())
                .isFalse();
    }

    private static JavaClasses importClasses(Class<?> first, Class<?>... others) {
        Class<?>[] all = new Class<?>[others.length + 1];
        all[0] = first;
        System.arraycopy(others, 0, all, 1, others.length);
        return new ClassFileImporter().importClasses(all);
    }

    @Nested
    class CommandLine {

        @Test
        void catchesACliCommandUsingRedisson() {
            assertCatches(ArchitectureTest.only_the_redis_adapter_uses_redisson_or_a_redis_client,
                    io.toolboundary.cli.bad.CliCommandUsingRedisson.class);
        }
    }
}
