package io.toolboundary.springai.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.springai.BoundaryToolContext;
import io.toolboundary.springai.OutputCapture;
import io.toolboundary.testkit.CountingExecutor;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.ToolExecutionResult;
import org.springframework.asm.ClassWriter;
import org.springframework.asm.Opcodes;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Spring AI 1.1 has no tool-call limits and runs any tool it can resolve by name; under the boundary's manager
 * that stays so (Spring AI 2.0's {@code spring.ai.tools.*} settings are boundary-spring-ai2's), and the
 * boundary's per-run budgets are the limits.
 */
@ExtendWith(OutputCapture.class)
class SpringAiToolSettingsTest {

    private final CountingExecutor metrics = FakeTools.counting(FakeTools.returning("raw metrics"));
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ToolBoundaryAutoConfiguration.class))
            .withBean(AccessPolicy.class, AccessPolicy::allowAll)
            .withBean(ToolBinding.class, () -> ToolBinding.readOnly("metrics", metrics, FakeProjectors.evidenceFound("bounded")));

    @Test
    void appliesNoTurnLimitAndRunsABoundToolTheRequestDidNotOffer(OutputCapture.Captured output) {
        runner.withPropertyValues("spring.ai.tools.limits.max-calls-per-tool-default=1").run(context -> {
            RunContext run = Fixtures.opened(context.getBean(ToolBoundary.class), Fixtures.anyRunContext());
            List<Message> history = new ArrayList<>(List.of(new UserMessage("q")));
            for (int i = 0; i < 45; i++) {
                history.add(AssistantMessage.builder().content("").toolCalls(List.of(call("call_" + i))).build());
                history.add(ToolResponseMessage.builder().responses(List.of(
                        new ToolResponseMessage.ToolResponse("call_" + i, "metrics", "EVIDENCE_FOUND\nbounded"))).build());
            }
            Prompt prompt = new Prompt(history, ToolCallingChatOptions.builder()
                    .toolContext(BoundaryToolContext.of(run)).build());

            ToolExecutionResult result = context.getBean(ToolCallingManager.class).executeToolCalls(prompt,
                    new ChatResponse(List.of(new Generation(AssistantMessage.builder().content("")
                            .toolCalls(List.of(call("call_46"))).build()))));

            List<Message> after = result.conversationHistory();
            assertThat(((ToolResponseMessage) after.get(after.size() - 1)).getResponses()).singleElement()
                    .extracting(ToolResponseMessage.ToolResponse::responseData).isEqualTo("EVIDENCE_FOUND\nbounded");
            assertThat(metrics.executions()).isEqualTo(1);
        });
        assertThat(output.getOut()).doesNotContain("tool-call limits");
    }

    @Test
    void refusesToStartOnSpringAi2NamingTheArtifactForIt() {
        runner.withClassLoader(new WithSpringAi2Marker(getClass().getClassLoader())).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().isInstanceOfSatisfying(ToolBoundaryStartupException.class,
                    refused -> {
                        assertThat(refused).hasMessageContaining("boundary-spring-ai is built for Spring Boot 3.5 and"
                                + " Spring AI 1.1, but this application runs Spring AI 2.0");
                        assertThat(refused.action()).contains("with io.toolboundary:boundary-spring-ai2,");
                    });
        });
    }

    private static AssistantMessage.ToolCall call(String id) {
        return new AssistantMessage.ToolCall(id, "function", "metrics", "{}");
    }

    /** A class loader that also has the type by which the boundary recognises Spring AI 2.0, as an empty class. */
    private static final class WithSpringAi2Marker extends ClassLoader {

        WithSpringAi2Marker(ClassLoader parent) {
            super(parent);
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            if (!name.equals(SpringAiToolSettings.SPRING_AI_2)) {
                throw new ClassNotFoundException(name);
            }
            ClassWriter writer = new ClassWriter(0);
            writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, name.replace('.', '/'), null, "java/lang/Object", null);
            writer.visitEnd();
            byte[] bytes = writer.toByteArray();
            return defineClass(name, bytes, 0, bytes.length);
        }
    }
}
