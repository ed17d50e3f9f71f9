package io.toolboundary.springai.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.springai.BoundaryToolContext;
import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testsupport.redis.RedisDeployment;
import io.toolboundary.testsupport.redis.RedisEndpoint;
import io.toolboundary.testsupport.redis.RedisServerFixture;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.model.tool.ToolCallLimitExceededException;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Spring AI 2.0's tool-call limit in a Spring Boot 4 application whose tool calls run through the boundary
 * (ChatClient with Spring AI's ToolCallingAdvisor, a scripted model, {@code @Tool} methods, the Redis store on
 * Redisson's starter): the model's second call of a tool limited to one per turn never runs, and Spring AI's
 * advisor answers the application with the breach, as it does for its own manager.
 */
class ToolCallLimitsApplicationTest {

    @Test
    void aCallOverSpringAisPerToolLimitStopsTheTurnAndNeverRuns() {
        RedisDeployment redis = RedisServerFixture.standalone();
        RedisEndpoint endpoint = redis.nodes().get(0);
        List<String> properties = new ArrayList<>(List.of("spring.data.redis.host=" + endpoint.host(),
                "spring.data.redis.port=" + endpoint.port(), "spring.main.banner-mode=off",
                "toolboundary.redis.key-prefix=limits-app", "spring.ai.tools.limits.max-calls-per-tool-default=1"));
        endpoint.password().forEach(password -> properties.add("spring.data.redis.password=" + password));

        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(TriageApplicationWithPolicy.class)
                .web(WebApplicationType.NONE).properties(properties.toArray(String[]::new)).run()) {
            ToolBoundary boundary = context.getBean(ToolBoundary.class);
            RunContext run = Fixtures.opened(boundary, Fixtures.anyRunContext());
            SpringScriptedChatModel model = context.getBean(SpringScriptedChatModel.class)
                    .thenRequests("call_first", "log-search", "{\"query\":\"checkout\"}")
                    .thenRequests("call_second", "log-search", "{\"query\":\"payment\"}")
                    .thenSays("never asked");

            ChatResponse response = context.getBean(ChatClient.class).prompt().user("What failed?")
                    .toolContext(BoundaryToolContext.of(run)).call().chatResponse();

            assertThat(response.getResult().getOutput().getText())
                    .isEqualTo("Tool call limit (1) exceeded for tool 'log-search'. No further calls to this tool are"
                            + " allowed in this turn.");
            assertThat(response.getResult().getMetadata().getFinishReason())
                    .isEqualTo(ToolCallLimitExceededException.FINISH_REASON);
            assertThat(boundary.find(run.runId(), new ToolCallId("call_first")).get()).hasSize(1);
            assertThat(boundary.find(run.runId(), new ToolCallId("call_second")).get()).isEmpty();
            assertThat(redis.callLong("EXISTS", "limits-app:{" + run.runId().value() + "}:call:call_second")).isZero();
            assertThat(model.toolResponses()).hasSize(1);
        }
    }
}
