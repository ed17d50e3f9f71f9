package io.toolboundary.springaialibaba.autoconfigure;

import static io.toolboundary.springaialibaba.ScriptedAgentModelAccess.call;
import static org.assertj.core.api.Assertions.assertThat;

import com.alibaba.cloud.ai.graph.agent.Builder;
import com.alibaba.cloud.ai.graph.agent.ReactAgent;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.domain.RunId;
import io.toolboundary.springai.autoconfigure.ToolBoundaryAutoConfiguration;
import io.toolboundary.springaialibaba.BoundaryRunnableConfig;
import io.toolboundary.springaialibaba.BoundaryToolInterceptor;
import io.toolboundary.springaialibaba.ReactAgentTools;
import io.toolboundary.springaialibaba.ScriptedAgentModelAccess;
import io.toolboundary.testsupport.redis.RedisDeployment;
import io.toolboundary.testsupport.redis.RedisServerFixture;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Two applications (two Spring contexts, each with its own Redis client, its auto-configured boundary and
 * interceptor, and its own agent) on one Redis: a run opened by one and continued by the other has one call
 * budget, however the calls are spread over the two.
 */
class TwoApplicationsOneRedisTest {

    private static RedisDeployment redis;

    private final AtomicInteger executions = new AtomicInteger();

    /** A log tool of one application; both count into one tally. */
    public class LogTools {
        @Tool(name = "log_query", description = "Searches the logs")
        public String logQuery(String service) {
            executions.incrementAndGet();
            return "2030-01-01T10:00:02Z ERROR " + service + ": timeout\n";
        }
    }

    @BeforeAll
    static void startRedis() {
        redis = RedisServerFixture.standalone();
    }

    private ApplicationContextRunner application() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(ToolBoundaryAutoConfiguration.class,
                        ReactAgentBoundaryAutoConfiguration.class))
                .withPropertyValues("toolboundary.store=redis", "toolboundary.redis.key-prefix=two-apps")
                .withBean(RedissonClient.class, () -> {
                    Config config = new Config();
                    config.useSingleServer().setAddress(redis.nodes().get(0).uri());
                    return Redisson.create(config);
                })
                .withBean(AccessPolicy.class, () -> AccessPolicy.allowOnly("log_query"))
                .withBean(ToolBinding.class, () -> ReactAgentTools.readOnly("log_query",
                        (request, raw) -> io.toolboundary.domain.Projection.evidenceFound("1 timeout", "logs")));
    }

    private void runAgent(AssertableApplicationContext context, RunContext run, boolean withBoundary, String... ids)
            throws Exception {
        List<org.springframework.ai.chat.messages.AssistantMessage.ToolCall> calls = java.util.Arrays.stream(ids)
                .map(id -> call(id, "log_query", "{\"service\":\"checkout\"}")).toList();
        Builder builder = ReactAgent.builder().name("aiops").model(ScriptedAgentModelAccess.turns(calls))
                .tools(ReactAgentTools.from(new LogTools()));
        if (withBoundary) {
            builder.interceptors(context.getBean(BoundaryToolInterceptor.class));
        }
        builder.build().call("Why did checkout fail?",
                BoundaryRunnableConfig.with(com.alibaba.cloud.ai.graph.RunnableConfig.builder(), run).build());
    }

    private void twoApplications(boolean withBoundary) {
        application().run(first -> application().run(second -> {
            RunContext run = first.getBean(ToolBoundary.class).openRun(RunContext.active(
                    new RunId("run-" + UUID.randomUUID()), Instant.now().plusSeconds(600), 2))
                    .getOrElseThrow(error -> new IllegalStateException(error.message()));

            runAgent(first, run, withBoundary, "call_a1", "call_a2");
            runAgent(second, run, withBoundary, "call_b1");
        }));
    }

    @Test
    void givenTwoApplicationsOnOneRedis_whenARunsBudgetIsSpentInOne_thenTheOtherRunsNothingMore() {
        twoApplications(true);

        assertThat(executions).as("the run's budget of 2, across both applications").hasValue(2);
    }

    @Test
    void givenNoInterceptor_whenBothApplicationsCall_thenTheBudgetIsNotShared() {
        twoApplications(false);

        assertThat(executions).hasValue(3);
    }
}
