package io.toolboundary.benchmarks;

import static java.util.Objects.requireNonNull;

import io.toolboundary.adapter.redis.RedisCanonicalInvocationStore;
import io.toolboundary.adapter.redis.RedisCanonicalInvocationStoreFactory;
import io.toolboundary.adapter.redis.RedisStoreOptions;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.ToolExecutor;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testsupport.redis.RedisDeployment;
import io.toolboundary.testsupport.redis.RedisEndpoint;
import io.toolboundary.testsupport.redis.RedisServerFixture;
import io.vavr.control.Either;
import java.time.Duration;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * One benchmark's Redis: a {@code redis-server} without persistence that the testkit's fixture starts
 * on a free loopback port, one Redisson client, the library's store and boundary on it, and the
 * hand-rolled peer on the same client. Closing shuts the client down; the server stops when the JVM exits.
 */
final class BenchRedis implements AutoCloseable {

    /** Record TTL in every Redis measurement: long enough that nothing expires while it runs. */
    static final Duration RECORD_TTL = Duration.ofMinutes(10);
    /** The store's key prefix (the library's default). */
    static final String PREFIX = RedisStoreOptions.DEFAULT_KEY_PREFIX;
    /** The peer's key prefix. */
    static final String PEER_PREFIX = "peer";
    /** Generous, so that a busy two-core machine never turns a slow reply into a failed call. */
    private static final int RESPONSE_TIMEOUT_MILLIS = 30_000;

    private final RedisDeployment deployment;
    private final RedissonClient client;
    private final RedisCanonicalInvocationStore store;

    private BenchRedis(RedisDeployment deployment, RedissonClient client, RedisCanonicalInvocationStore store) {
        this.deployment = deployment;
        this.client = client;
        this.store = store;
    }

    /** Starts (or reuses, within this JVM) the server and connects to it. */
    static BenchRedis start() {
        RedisDeployment deployment = RedisServerFixture.standalone();
        RedisEndpoint endpoint = deployment.nodes().get(0);
        Config config = new Config().setUseScriptCache(true);
        config.useSingleServer()
                .setAddress(endpoint.uri())
                .setTimeout(RESPONSE_TIMEOUT_MILLIS)
                .setConnectionPoolSize(64)
                .setConnectionMinimumIdleSize(32);
        RedissonClient client = Redisson.create(config);
        RedisCanonicalInvocationStore store = RedisCanonicalInvocationStoreFactory.create(client,
                RedisStoreOptions.ofDefaults());
        return new BenchRedis(deployment, client, store);
    }

    /** The server, for commands sent from outside the code under test ({@code FLUSHALL}, {@code MEMORY USAGE}). */
    RedisDeployment deployment() {
        return deployment;
    }

    /** The server's address. */
    RedisEndpoint endpoint() {
        return deployment.nodes().get(0);
    }

    /** The library's Redis store. */
    RedisCanonicalInvocationStore store() {
        return store;
    }

    /** A boundary on the Redis store with one read-only tool answering {@code executor}'s raw response. */
    ToolBoundary boundary(ToolExecutor executor) {
        requireNonNull(executor, "executor is null");
        return ToolBoundary.builder()
                .store(store)
                .accessPolicy(AccessPolicy.allowAll())
                .config(ToolBoundaryConfig.custom().recordTtl(RECORD_TTL).build())
                .tool(ToolBinding.readOnly(Payloads.TOOL_NAME, executor,
                        FakeProjectors.evidenceFound(Payloads.agentContent())))
                .build();
    }

    /** The hand-rolled peer on the same client, with the same fake projector. */
    HandRolledToolCalls peer(ToolExecutor executor) {
        return new HandRolledToolCalls(client, PEER_PREFIX, RECORD_TTL, executor,
                FakeProjectors.evidenceFound(Payloads.agentContent()));
    }

    /**
     * Sends one call through {@code boundary} in {@code run}, an opened run, on {@link RedisFloor#CAPTURE_ID},
     * captures the commands it sends, and returns them to be sent again without the boundary on the same
     * client.
     *
     * @throws IllegalStateException when the boundary refuses the call
     */
    StoreCommands captureCommands(ToolBoundary boundary, RunContext run, String arguments) {
        CallCapture.Captured captured = CallCapture.capture(endpoint(), () -> {
            Either<BoundaryError, AgentResult> result = boundary.invoke(run, ToolCallEnvelope.of(run.runId().value(),
                    RedisFloor.CAPTURE_ID, Payloads.TOOL_NAME, arguments));
            if (result.isLeft()) {
                throw new IllegalStateException("the boundary refused the call to capture: " + result.getLeft().code());
            }
        });
        return new StoreCommands(client, captured, RedisFloor.CAPTURE_ID);
    }

    /** The store's key of a record: {@code <prefix>:{<runId>}:call:<toolCallId>}, the documented layout. */
    static String recordKey(InvocationKey key) {
        return PREFIX + ":{" + key.runId().value() + "}:call:" + key.toolCallId().value();
    }

    /** The server process's CPU time so far, in seconds: {@code used_cpu_sys + used_cpu_user} of {@code INFO cpu}. */
    double cpuSeconds() {
        double seconds = 0;
        for (String line : String.valueOf(deployment.call("INFO", "cpu")).split("\r?\n")) {
            if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:")) {
                seconds += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return seconds;
    }

    /** Removes every key. */
    void flush() {
        deployment.call("FLUSHALL");
    }

    @Override
    public void close() {
        client.shutdown();
    }
}
