package io.toolboundary.springai.autoconfigure;

import static io.toolboundary.springai.autoconfigure.ToolBoundaryAutoConfigurationTest.definitionOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.springai.BoundaryToolContext;
import io.toolboundary.springai.OutputCapture;
import io.toolboundary.testkit.CountingExecutor;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallLimitBehavior;
import org.springframework.ai.model.tool.ToolCallLimitExceededException;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.ToolExecutionResult;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

/**
 * Spring AI 2.0's own tool calling settings under the boundary's manager: {@code spring.ai.tools.limits.*}
 * counted per turn as Spring AI counts them, {@code spring.ai.tools.resolution.fallback.enabled}, and the
 * line that states them at start.
 */
@ExtendWith(OutputCapture.class)
class SpringAiToolSettingsTest {

    private static final String LOGS = "log-search";
    private static final String METRICS = "metrics";

    private final CountingExecutor logs = FakeTools.counting(FakeTools.returning("raw logs"));
    private final CountingExecutor metrics = FakeTools.counting(FakeTools.returning("raw metrics"));
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ToolBoundaryAutoConfiguration.class))
            .withBean(AccessPolicy.class, AccessPolicy::allowAll)
            .withBean("logs", ToolBinding.class, () -> ToolBinding.readOnly(LOGS, logs, FakeProjectors.evidenceFound("bounded logs")))
            .withBean("metrics", ToolBinding.class, () -> ToolBinding.readOnly(METRICS, metrics,
                    FakeProjectors.evidenceFound("bounded metrics")));
    private final RunContext run = Fixtures.anyRunContext();

    @Test
    void stopsTheTurnWithSpringAisExceptionOnTheFortyFirstCallOfAToolByDefault() {
        runner.run(context -> {
            Prompt turn = prompt(context, List.of(LOGS, METRICS), turnWith(40, LOGS));

            assertThatThrownBy(() -> manager(context).executeToolCalls(turn, requesting("call_41", LOGS)))
                    .isInstanceOfSatisfying(ToolCallLimitExceededException.class, stopped -> {
                        assertThat(stopped.getToolName()).isEqualTo(LOGS);
                        assertThat(stopped.getLimit()).isEqualTo(40);
                        assertThat(lastResponses(stopped.getPartialToolExecutionResult())).singleElement()
                                .extracting(ToolResponseMessage.ToolResponse::responseData).asString()
                                .startsWith("Tool call limit (40) exceeded for tool 'log-search'.");
                    });
            assertThat(logs.executions()).isZero();
            assertThat(recordOf(context, "call_41")).isEmpty();
        });
    }

    @Test
    void countsOnlyTheCurrentTurnFromItsUserMessageOn() {
        runner.run(context -> {
            List<Message> history = new ArrayList<>(turnWith(40, LOGS));
            history.add(new UserMessage("and now?"));

            ToolExecutionResult result = manager(context).executeToolCalls(prompt(context, List.of(LOGS), history),
                    requesting("call_next", LOGS));

            assertThat(lastResponses(result)).extracting(ToolResponseMessage.ToolResponse::responseData)
                    .containsExactly("EVIDENCE_FOUND\nbounded logs");
            assertThat(logs.executions()).isEqualTo(1);
        });
    }

    @Test
    void answersTheModelWhenToldToAndLetsTheOtherCallsRun() {
        runner.withPropertyValues("spring.ai.tools.limits.max-calls-per-tool-default=1",
                        "spring.ai.tools.limits.max-calls-per-tool.metrics=2",
                        "spring.ai.tools.limits.on-limit-exceeded=return_error_response")
                .run(context -> {
                    ToolExecutionResult result = manager(context).executeToolCalls(
                            prompt(context, List.of(LOGS, METRICS), List.of(new UserMessage("q"))),
                            requesting("call_l1", LOGS, "call_l2", LOGS, "call_m1", METRICS, "call_m2", METRICS));

                    assertThat(lastResponses(result)).extracting(ToolResponseMessage.ToolResponse::responseData)
                            .containsExactly("EVIDENCE_FOUND\nbounded logs",
                                    "Tool call limit (1) exceeded for tool 'log-search'. No further calls to this tool"
                                            + " are allowed in this turn.",
                                    "EVIDENCE_FOUND\nbounded metrics", "EVIDENCE_FOUND\nbounded metrics");
                    assertThat(logs.executions()).isEqualTo(1);
                    assertThat(metrics.executions()).isEqualTo(2);
                    assertThat(recordOf(context, "call_l2")).isEmpty();
                });
    }

    @Test
    void appliesTheTotalLimitToExcludedToolsToo() {
        runner.withPropertyValues("spring.ai.tools.limits.max-total-tool-calls=2",
                        "spring.ai.tools.limits.excluded-tools=log-search")
                .run(context -> {
                    Prompt turn = prompt(context, List.of(LOGS), turnWith(1, LOGS));

                    assertThatThrownBy(() -> manager(context).executeToolCalls(turn,
                            requesting("call_t2", LOGS, "call_t3", LOGS)))
                            .isInstanceOfSatisfying(ToolCallLimitExceededException.class, stopped -> {
                                assertThat(stopped.getToolName()).isNull();
                                assertThat(stopped.getLimit()).isEqualTo(2);
                                assertThat(lastResponses(stopped.getPartialToolExecutionResult()))
                                        .extracting(ToolResponseMessage.ToolResponse::responseData)
                                        .containsExactly("EVIDENCE_FOUND\nbounded logs", "Total tool call limit (2)"
                                                + " exceeded for this turn. No further tool calls are allowed.");
                            });
                    assertThat(logs.executions()).isEqualTo(1);
                });
    }

    @Test
    void runsOnlyTheToolsOfTheRequestUnlessResolutionFallbackIsEnabled() {
        runner.run(context -> {
            ToolExecutionResult result = manager(context).executeToolCalls(
                    prompt(context, List.of(LOGS), List.of(new UserMessage("q"))), requesting("call_m", METRICS));

            assertThat(lastResponses(result)).extracting(ToolResponseMessage.ToolResponse::responseData)
                    .containsExactly("ERROR TOOL_NOT_REGISTERED: " + ErrorCode.TOOL_NOT_REGISTERED.safeMessage());
            assertThat(metrics.executions()).isZero();
            assertThat(recordOf(context, "call_m")).isEmpty();
        });
        runner.withPropertyValues("spring.ai.tools.resolution.fallback.enabled=true").run(context -> {
            ToolExecutionResult result = manager(context).executeToolCalls(
                    prompt(context, List.of(LOGS), List.of(new UserMessage("q"))), requesting("call_m", METRICS));

            assertThat(lastResponses(result)).extracting(ToolResponseMessage.ToolResponse::responseData)
                    .containsExactly("EVIDENCE_FOUND\nbounded metrics");
        });
    }

    @Test
    void refusesToStartOnALimitSpringAiWouldRefuseNamingTheProperty() {
        runner.withPropertyValues("spring.ai.tools.limits.max-calls-per-tool.metrics=0").run(context ->
                assertThat(context).hasFailed().getFailure().rootCause()
                        .isInstanceOf(ToolBoundaryStartupException.class)
                        .hasMessageContaining("spring.ai.tools.limits.max-calls-per-tool.metrics is 0"));
    }

    @Test
    void refusesToStartOnSpringAi11NamingTheArtifactForIt() {
        runner.withClassLoader(new FilteredClassLoader(ToolCallLimitBehavior.class)).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().isInstanceOfSatisfying(ToolBoundaryStartupException.class,
                    refused -> {
                        assertThat(refused).hasMessageContaining("boundary-spring-ai2 is built for Spring Boot 4 and"
                                + " Spring AI 2.0, but this application runs Spring AI 1.1");
                        assertThat(refused.action()).contains("with io.toolboundary:boundary-spring-ai,");
                    });
        });
    }

    @Test
    void statesSpringAisSettingsOnceAtStart(OutputCapture.Captured output) {
        runner.run(context -> assertThat(context).hasNotFailed());
        runner.withPropertyValues("spring.ai.tools.limits.max-total-tool-calls=-1",
                "spring.ai.tools.resolution.fallback.enabled=true").run(context -> assertThat(context).hasNotFailed());

        assertThat(output.getOut()).contains("Spring AI's tool-call limits apply per turn (spring.ai.tools.limits: 40"
                        + " calls per tool, 150 in all, throw when exceeded) beside the boundary's per-run budgets; only the"
                        + " tools offered in the request run (spring.ai.tools.resolution.fallback.enabled=false)")
                .contains("40 calls per tool, no limit in all, throw when exceeded) beside the boundary's per-run budgets;"
                        + " any tool with a binding may run (spring.ai.tools.resolution.fallback.enabled=true)");
    }

    private static ToolCallingManager manager(ApplicationContext context) {
        return context.getBean(ToolCallingManager.class);
    }

    private io.vavr.control.Option<?> recordOf(ApplicationContext context, String toolCallId) {
        return context.getBean(ToolBoundary.class).find(run.runId(), new ToolCallId(toolCallId)).get();
    }

    private Prompt prompt(ApplicationContext context, List<String> offered, List<Message> history) {
        return new Prompt(history, ToolCallingChatOptions.builder()
                .toolCallbacks(offered.stream().map(ToolBoundaryAutoConfigurationTest::definitionOf).toList())
                .toolContext(BoundaryToolContext.of(Fixtures.opened(context.getBean(ToolBoundary.class), run)))
                .build());
    }

    /** A turn that has already called {@code tool} {@code calls} times, one call per model response. */
    private static List<Message> turnWith(int calls, String tool) {
        List<Message> history = new ArrayList<>(List.of(new UserMessage("What failed?")));
        IntStream.range(0, calls).forEach(i -> {
            history.add(requesting("call_prior_" + i, tool).getResult().getOutput());
            history.add(ToolResponseMessage.builder().responses(List.of(
                    new ToolResponseMessage.ToolResponse("call_prior_" + i, tool, "EVIDENCE_FOUND\nbounded"))).build());
        });
        return history;
    }

    /** A model response requesting calls given as id, tool, id, tool, ... */
    private static ChatResponse requesting(String... idsAndTools) {
        List<AssistantMessage.ToolCall> calls = new ArrayList<>();
        for (int i = 0; i < idsAndTools.length; i += 2) {
            calls.add(new AssistantMessage.ToolCall(idsAndTools[i], "function", idsAndTools[i + 1], "{}"));
        }
        return new ChatResponse(List.of(new Generation(AssistantMessage.builder().content("").toolCalls(calls).build())));
    }

    private static List<ToolResponseMessage.ToolResponse> lastResponses(ToolExecutionResult result) {
        List<Message> history = result.conversationHistory();
        return ((ToolResponseMessage) history.get(history.size() - 1)).getResponses();
    }
}
