package io.toolboundary.springaialibaba;

import com.alibaba.cloud.ai.graph.RunnableConfig;
import com.alibaba.cloud.ai.graph.agent.Builder;
import com.alibaba.cloud.ai.graph.agent.ReactAgent;
import com.alibaba.cloud.ai.graph.agent.interceptor.Interceptor;
import io.toolboundary.adapter.redis.RedisCanonicalInvocationStore;
import io.toolboundary.adapter.redis.RedisCanonicalInvocationStoreFactory;
import io.toolboundary.adapter.redis.RedisStoreOptions;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.BoundaryListener;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.domain.RunId;
import io.toolboundary.testsupport.redis.RedisDeployment;
import io.toolboundary.testsupport.redis.RedisServerFixture;
import java.time.Instant;
import java.util.UUID;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/** One real {@code redis-server} for a test class, and the boundaries and agents of its tests on it. */
final class RedisAgentFixture {

    static final String PREFIX = "alibaba-test";

    final RedisDeployment redis;
    final RedissonClient client;
    final RedisCanonicalInvocationStore store;

    RedisAgentFixture() {
        redis = RedisServerFixture.standalone();
        Config config = new Config();
        config.useSingleServer().setAddress(redis.nodes().get(0).uri());
        client = Redisson.create(config);
        store = RedisCanonicalInvocationStoreFactory.create(client, RedisStoreOptions.custom().keyPrefix(PREFIX).build());
    }

    void close() {
        client.shutdown();
    }

    ToolBoundary boundary(ToolBoundaryConfig config, BoundaryListener listener) {
        return ToolBoundary.builder().store(store).config(config).listener(listener)
                .accessPolicy(AccessPolicy.allowOnly("log_query"))
                .tool(ReactAgentTools.readOnly("log_query", new ErrorLinesProjector()))
                .build();
    }

    ToolBoundary boundary() {
        return boundary(ToolBoundaryConfig.ofDefaults(), BoundaryListener.noop());
    }

    static RunContext openedRun(ToolBoundary boundary, int callBudget) {
        return boundary.openRun(RunContext.active(new RunId("run-" + UUID.randomUUID()),
                        Instant.now().plusSeconds(600), callBudget))
                .getOrElseThrow(error -> new IllegalStateException(error.message()));
    }

    static Builder agent(ScriptedAgentModel model, OpsTools tools, Interceptor... interceptors) {
        Builder builder = ReactAgent.builder().name("aiops").model(model)
                .tools(ReactAgentTools.from(tools));
        if (interceptors.length > 0) {
            builder.interceptors(interceptors);
        }
        return builder;
    }

    static RunnableConfig config(RunContext run) {
        return BoundaryRunnableConfig.with(RunnableConfig.builder().threadId(UUID.randomUUID().toString()), run).build();
    }

    String recordKey(RunContext run, String toolCallId) {
        return PREFIX + ":{" + run.runId().value() + "}:call:" + toolCallId;
    }
}
