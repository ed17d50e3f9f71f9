package io.toolboundary.springai.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.adapter.redis.RedisStoreOptions;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.BoundaryListener;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.springai.BoundaryToolCallingManager;
import io.toolboundary.springai.BoundaryToolContext;
import io.toolboundary.springai.OutputCapture;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testkit.MutableClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.DefaultToolCallingManager;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.ToolExecutionResult;
import org.springframework.ai.model.tool.autoconfigure.ToolCallingAutoConfiguration;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.observation.DefaultToolCallingObservationConvention;
import org.springframework.ai.tool.observation.ToolCallingObservationConvention;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.Configurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

@org.junit.jupiter.api.extension.ExtendWith(OutputCapture.class)
class ToolBoundaryAutoConfigurationTest {

    private static final String TOOL = "log-search";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ToolBoundaryAutoConfiguration.class));

    private final ApplicationContextRunner withPolicy = runner
            .withBean(AccessPolicy.class, AccessPolicy::allowAll);

    @Test
    void saysAtStartThatSpringAisThrowExceptionOnErrorHasNoEffect(OutputCapture.Captured output) {
        withPolicy.run(context -> assertThat(context).hasNotFailed());
        assertThat(output.getOut()).doesNotContain("throw-exception-on-error");

        withPolicy.withPropertyValues("spring.ai.tools.throw-exception-on-error=true")
                .run(context -> assertThat(context).hasNotFailed());

        assertThat(output.getOut()).contains("spring.ai.tools.throw-exception-on-error=true has no effect: a tool that"
                + " throws is answered EXECUTION_FAILED");
    }

    @Test
    void isRegisteredAsASpringBootAutoConfiguration() {
        List<String> candidates = ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader())
                .getCandidates();

        assertThat(candidates).contains(ToolBoundaryAutoConfiguration.class.getName());
    }

    @Test
    void runsAfterEveryAutoConfigurationOfRedissonsStarterSoThatItsClientIsSeen() throws ClassNotFoundException {
        List<String> redisson = ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader())
                .getCandidates().stream().filter(name -> name.startsWith("org.redisson.spring.starter.")).toList();

        assertThat(redisson).isNotEmpty();
        for (String name : redisson) {
            Class<?> starter = Class.forName(name);
            assertThat(Configurations.getClasses(AutoConfigurations.of(ToolBoundaryAutoConfiguration.class, starter)))
                    .as(name).containsExactly(starter, ToolBoundaryAutoConfiguration.class);
        }
    }

    @Test
    void observesSpringAisToolCallWithTheContextsObservationConvention() {
        List<String> stopped = new CopyOnWriteArrayList<>();
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new ObservationHandler<>() {
            @Override
            public void onStop(Observation.Context context) {
                stopped.add(context.getName());
            }

            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }
        });
        withPolicy.withBean(ObservationRegistry.class, () -> registry)
                .withBean(ToolCallingObservationConvention.class,
                        () -> new DefaultToolCallingObservationConvention("triage.tool.call"))
                .withBean("logs", ToolBinding.class, () -> ToolBinding.readOnly(TOOL, FakeTools.returning("raw logs"),
                        FakeProjectors.evidenceFound("bounded logs")))
                .run(context -> {
                    assertThat(onlyResponse(execute(context, Fixtures.anyRunContext(), "call_conv", "{}")))
                            .isEqualTo("EVIDENCE_FOUND\nbounded logs");
                    assertThat(stopped).containsExactly(BoundaryToolCallingManager.OBSERVATION, "triage.tool.call");
                });
    }

    @Test
    void createsConfigInMemoryStoreBoundaryAndManagerWithTheDocumentedDefaults() {
        withPolicy.run(context -> {
            assertThat(context).hasNotFailed()
                    .hasSingleBean(ToolBoundaryConfig.class)
                    .hasSingleBean(ToolBoundary.class)
                    .hasSingleBean(ToolCallingManager.class);
            ToolBoundaryConfig config = context.getBean(ToolBoundaryConfig.class);
            ToolBoundaryConfig defaults = ToolBoundaryConfig.ofDefaults();
            assertThat(config.argumentsLimitBytes()).isEqualTo(defaults.argumentsLimitBytes());
            assertThat(config.rawResponseLimitBytes()).isEqualTo(defaults.rawResponseLimitBytes());
            assertThat(config.recordLimitBytes()).isEqualTo(defaults.recordLimitBytes());
            assertThat(config.agentResultLimitBytes()).isEqualTo(defaults.agentResultLimitBytes());
            assertThat(config.recordTtl()).isEqualTo(defaults.recordTtl());
            assertThat(config.maxJsonDepth()).isEqualTo(defaults.maxJsonDepth());
            assertThat(config.maxNumberLength()).isEqualTo(defaults.maxNumberLength());
            assertThat(context.getBean(CanonicalInvocationStore.class)).isInstanceOf(InMemoryCanonicalInvocationStore.class);
            assertThat(context.getBean(ToolCallingManager.class)).isInstanceOf(BoundaryToolCallingManager.class);
        });
    }

    @Test
    void bindsSizesWithTheirUnitsPlainNumbersAsBytesAndTheTtlAsADuration() {
        withPolicy.withPropertyValues(
                        "toolboundary.limits.arguments=32KB",
                        "toolboundary.limits.raw-response=2MB",
                        "toolboundary.limits.record=3MB",
                        "toolboundary.limits.agent-result=4096",
                        "toolboundary.record-ttl=30m",
                        "toolboundary.json.max-depth=8",
                        "toolboundary.json.max-number-length=20")
                .run(context -> {
                    ToolBoundaryConfig config = context.getBean(ToolBoundaryConfig.class);
                    assertThat(config.argumentsLimitBytes()).isEqualTo(32L * 1024);
                    assertThat(config.rawResponseLimitBytes()).isEqualTo(2L * 1024 * 1024);
                    assertThat(config.recordLimitBytes()).isEqualTo(3L * 1024 * 1024);
                    assertThat(config.agentResultLimitBytes()).isEqualTo(4096);
                    assertThat(config.recordTtl()).isEqualTo(Duration.ofMinutes(30));
                    assertThat(config.maxJsonDepth()).isEqualTo(8);
                    assertThat(config.maxNumberLength()).isEqualTo(20);
                });
    }

    @Test
    void appliesTheBoundPropertiesToCalls() {
        withPolicy.withPropertyValues("toolboundary.limits.arguments=16")
                .withBean(ToolBinding.class, () -> ToolBinding.readOnly(TOOL, FakeTools.returning("raw"),
                        FakeProjectors.evidenceFound("bounded")))
                .run(context -> {
                    RunContext run = Fixtures.anyRunContext();
                    String answer = onlyResponse(execute(context, run, "call_big", "{\"query\":\"far too long\"}"));
                    assertThat(answer).startsWith("ERROR ARGUMENTS_TOO_LARGE:");
                });
    }

    @Test
    void refusesToStartWithAnInvalidProperty() {
        withPolicy.withPropertyValues("toolboundary.record-ttl=0s")
                .run(context -> assertThat(context).hasFailed());
        withPolicy.withPropertyValues("toolboundary.limits.arguments=2MB", "toolboundary.limits.record=1MB")
                .run(context -> assertThat(context).hasFailed());
    }

    @Test
    void refusesToStartWithoutAnAccessPolicyEvenWhereSpringAisOwnManagerCouldRun() {
        runner.withConfiguration(AutoConfigurations.of(ToolCallingAutoConfiguration.class))
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .rootCause().isInstanceOf(ToolBoundaryStartupException.class)
                        .hasMessageContaining("AccessPolicy"));
    }

    @Test
    void leavesEverythingToSpringAiOnlyWhenDisabled() {
        runner.withConfiguration(AutoConfigurations.of(ToolCallingAutoConfiguration.class))
                .withPropertyValues("toolboundary.enabled=false")
                .run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(ToolBoundary.class);
                    assertThat(context.getBean(ToolCallingManager.class)).isInstanceOf(DefaultToolCallingManager.class);
                });
    }

    @Test
    void failureAnalysisNamesTheBeanToAddAndTheOptOut() {
        runner.run(context -> {
            Throwable failure = context.getStartupFailure();
            org.springframework.boot.diagnostics.FailureAnalysis analysis = new ToolBoundaryFailureAnalyzer().analyze(failure);
            assertThat(analysis.getDescription()).contains("AccessPolicy bean");
            assertThat(analysis.getAction()).contains("io.toolboundary.application.AccessPolicy", "toolboundary.enabled=false");
        });
    }

    @Test
    void runsEveryToolBindingBeanThroughTheBoundaryOnTheContextsClockAndStore() {
        MutableClock clock = MutableClock.at(Instant.parse("2026-03-01T08:00:00Z"));
        withPolicy.withBean(Clock.class, () -> clock)
                .withBean("logs", ToolBinding.class, () -> ToolBinding.readOnly(TOOL, FakeTools.returning("raw logs"),
                        FakeProjectors.evidenceFound("bounded logs")))
                .withBean("metrics", ToolBinding.class, () -> ToolBinding.readOnly("metrics", FakeTools.returning("raw"),
                        FakeProjectors.noEvidence("no spikes", "cpu, last hour")))
                .run(context -> {
                    RunContext run = Fixtures.anyRunContext();
                    assertThat(onlyResponse(execute(context, run, "call_logs", "{}"))).isEqualTo("EVIDENCE_FOUND\nbounded logs");
                    assertThat(onlyResponse(execute(context, run, "call_metrics", "{}", "metrics")))
                            .isEqualTo("NO_EVIDENCE (scope: cpu, last hour)\nno spikes");
                    CanonicalRecord record = context.getBean(CanonicalInvocationStore.class)
                            .find(InvocationKey.of(run.runId(), new ToolCallId("call_logs")), java.time.Duration.ofSeconds(5))
                            .get().get();
                    assertThat(record.createdAt()).isEqualTo(clock.instant());
                    assertThat(record.rawResponse().get()).isEqualTo("raw logs");
                });
    }

    @Test
    void tellsEveryListenerBean() {
        List<String> heard = new CopyOnWriteArrayList<>();
        withPolicy.withBean(ToolBinding.class, () -> ToolBinding.readOnly(TOOL, FakeTools.returning("raw"),
                        FakeProjectors.evidenceFound("bounded")))
                .withBean("first", BoundaryListener.class, () -> listener("first", heard))
                .withBean("second", BoundaryListener.class, () -> listener("second", heard))
                .run(context -> {
                    execute(context, Fixtures.anyRunContext(), "call_l", "{}");
                    assertThat(heard).containsExactlyInAnyOrder("first", "second");
                });
    }

    @Test
    void userDefinedBeansWin() {
        ToolBoundaryConfig config = ToolBoundaryConfig.custom().maxJsonDepth(3).build();
        CanonicalInvocationStore store = InMemoryCanonicalInvocationStore.create();
        ToolCallingManager manager = DefaultToolCallingManager.builder().build();
        withPolicy.withBean(ToolBoundaryConfig.class, () -> config)
                .withBean(CanonicalInvocationStore.class, () -> store)
                .withBean(ToolCallingManager.class, () -> manager)
                .withPropertyValues("toolboundary.json.max-depth=50")
                .run(context -> {
                    assertThat(context.getBean(ToolBoundaryConfig.class)).isSameAs(config);
                    assertThat(context.getBean(CanonicalInvocationStore.class)).isSameAs(store);
                    assertThat(context.getBean(ToolCallingManager.class)).isSameAs(manager);
                    assertThat(context).hasSingleBean(ToolBoundary.class);
                });
        ToolBoundary boundary = ToolBoundary.builder().store(store).accessPolicy(AccessPolicy.allowAll()).build();
        withPolicy.withBean(ToolBoundary.class, () -> boundary)
                .run(context -> {
                    assertThat(context.getBean(ToolBoundary.class)).isSameAs(boundary);
                    assertThat(context).hasSingleBean(BoundaryToolCallingManager.class);
                });
    }

    @Test
    void usesTheInMemoryStoreWhenRedissonIsNotOnTheClassPath() {
        withPolicy.withClassLoader(new FilteredClassLoader(RedissonClient.class))
                .run(context -> assertThat(context.getBean(CanonicalInvocationStore.class))
                        .isInstanceOf(InMemoryCanonicalInvocationStore.class));
    }

    @Test
    void refusesToStartWhenRedisIsRequiredButNotOnTheClassPath() {
        withPolicy.withClassLoader(new FilteredClassLoader(RedissonClient.class))
                .withPropertyValues("toolboundary.store=redis")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .isInstanceOf(ToolBoundaryStartupException.class)
                        .hasMessageContaining("toolboundary.store=redis"));
    }

    @Test
    void defaultRedisKeyPrefixIsTheStoresOwnDefault() {
        assertThat(new ToolBoundaryProperties().getRedis().getKeyPrefix()).isEqualTo(RedisStoreOptions.DEFAULT_KEY_PREFIX);
    }

    static ToolExecutionResult execute(ApplicationContext context, RunContext run, String toolCallId, String arguments) {
        return execute(context, run, toolCallId, arguments, TOOL);
    }

    static ToolExecutionResult execute(ApplicationContext context, RunContext run, String toolCallId, String arguments,
            String tool) {
        Prompt prompt = new Prompt(List.of(new UserMessage("q")),
                ToolCallingChatOptions.builder()
                        .toolCallbacks(definitionOf(tool))
                        .toolContext(BoundaryToolContext.of(Fixtures.opened(context.getBean(ToolBoundary.class), run)))
                        .build());
        ChatResponse response = new ChatResponse(List.of(new Generation(AssistantMessage.builder()
                .content("")
                .toolCalls(List.of(new AssistantMessage.ToolCall(toolCallId, "function", tool, arguments)))
                .build())));
        return context.getBean(ToolCallingManager.class).executeToolCalls(prompt, response);
    }

    static String onlyResponse(ToolExecutionResult result) {
        ToolResponseMessage last = (ToolResponseMessage) result.conversationHistory()
                .get(result.conversationHistory().size() - 1);
        assertThat(last.getResponses()).hasSize(1);
        return last.getResponses().get(0).responseData();
    }

    private static BoundaryListener listener(String name, List<String> heard) {
        return new BoundaryListener() {
            @Override
            public void onCompleted(CanonicalRecord.Final record) {
                heard.add(name);
            }
        };
    }

    /** The definition of {@code tool} as a chat offers it to the model; the boundary's binding runs the tool. */
    static ToolCallback definitionOf(String tool) {
        return new ToolCallback() {
            @Override
            public ToolDefinition getToolDefinition() {
                return ToolDefinition.builder().name(tool).description("Offered to the model").inputSchema("{}").build();
            }

            @Override
            public String call(String toolInput) {
                throw new AssertionError("the boundary's binding runs " + tool + ", never its definition");
            }
        };
    }
}
