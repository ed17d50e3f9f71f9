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
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testsupport.redis.RedisDeployment;
import io.toolboundary.testsupport.redis.RedisEndpoint;
import io.toolboundary.testsupport.redis.RedisServerFixture;
import io.vavr.control.Either;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * One benchmark's Redis: a {@code redis-server} without persistence that the test fixture starts on a
 * free loopback port, one Redisson client, the library's store and boundary on it, and the hand-rolled
 * peer on the same client. Closing shuts the client down; the server stops when the JVM exits.
 */
final class BenchRedis implements AutoCloseable {

    /** The raw response sizes every Redis measurement takes. */
    static final int[] RAW_BYTES = {1024, 65536};
    /** Record TTL in every Redis measurement: long enough that nothing expires while it runs. */
    static final Duration RECORD_TTL = Duration.ofMinutes(10);
    /** The tool_call_id of a captured call, found again in every command it sent. */
    static final String CAPTURE_ID = "capturedcallzq";
    /** Generous, so that a busy two-core machine never turns a slow reply into a failed call. */
    private static final int RESPONSE_TIMEOUT_MILLIS = 30_000;

    /** The outbox stream of the store with export on: {@code <prefix>:outbox}, the default prefix. */
    static final String OUTBOX = RedisStoreOptions.DEFAULT_KEY_PREFIX + ":outbox";

    private final RedisDeployment deployment;
    private final RedissonClient client;
    private final RedisCanonicalInvocationStore store;
    /** The same store with export on ({@code Outbox.KEYS}), on the same client and key prefix. */
    private final RedisCanonicalInvocationStore exportingStore;

    private BenchRedis(RedisDeployment deployment, RedissonClient client) {
        this.deployment = deployment;
        this.client = client;
        this.store = RedisCanonicalInvocationStoreFactory.create(client, RedisStoreOptions.ofDefaults());
        this.exportingStore = RedisCanonicalInvocationStoreFactory.create(client,
                RedisStoreOptions.custom().outbox(RedisStoreOptions.Outbox.KEYS).build());
    }

    /** Starts (or reuses, within this JVM) the server and connects to it. */
    static BenchRedis start() {
        RedisDeployment deployment = RedisServerFixture.standalone();
        Config config = new Config().setUseScriptCache(true);
        config.useSingleServer()
                .setAddress(deployment.nodes().get(0).uri())
                .setTimeout(RESPONSE_TIMEOUT_MILLIS)
                .setConnectionPoolSize(64)
                .setConnectionMinimumIdleSize(32);
        return new BenchRedis(deployment, Redisson.create(config));
    }

    /** The server, for commands sent from outside the code under test. */
    RedisDeployment deployment() {
        return deployment;
    }

    /** The server's address. */
    RedisEndpoint endpoint() {
        return deployment.nodes().get(0);
    }

    /** A boundary on the library's Redis store with one read-only tool answering {@code executor}'s raw response. */
    ToolBoundary boundary(ToolExecutor executor) {
        return boundary(store, executor);
    }

    /**
     * The same boundary on the store with export on ({@code RedisStoreOptions.Outbox.KEYS}): each record made
     * final is also appended to {@link #OUTBOX} by the script that makes it final. Its records share the key
     * prefix, and so the runs, of {@link #boundary(ToolExecutor)}.
     */
    ToolBoundary exportingBoundary(ToolExecutor executor) {
        return boundary(exportingStore, executor);
    }

    private static ToolBoundary boundary(RedisCanonicalInvocationStore store, ToolExecutor executor) {
        return ToolBoundary.builder()
                .store(store)
                .accessPolicy(AccessPolicy.allowAll())
                .config(ToolBoundaryConfig.custom().recordTtl(RECORD_TTL).build())
                .tool(ToolBinding.readOnly(Payloads.TOOL_NAME, requireNonNull(executor, "executor is null"),
                        FakeProjectors.evidenceFound(Payloads.agentContent())))
                .build();
    }

    /**
     * The hand-rolled peer on the same client and fake projector, refused unless it does on the server what it
     * claims: a call finishes its key, the key keeps its TTL, a second claim is refused.
     */
    HandRolledToolCalls peer(ToolExecutor executor) throws Exception {
        HandRolledToolCalls peer = new HandRolledToolCalls(client, "peer", RECORD_TTL, executor,
                FakeProjectors.evidenceFound(Payloads.agentContent()));
        String arguments = Payloads.request(Payloads.REDIS_REQUEST_BYTES);
        String key = peer.key("peer-check", "check");
        boolean ran = peer.call("peer-check", "check", arguments) != null;
        boolean finished = String.valueOf(deployment.call("GET", key)).startsWith("DONE\n");
        boolean keptTtl = deployment.callLong("PTTL", key) > 0;
        boolean refusedAgain = peer.call("peer-check", "check", arguments) == null;
        deployment.call("DEL", key);
        if (!(ran && finished && keptTtl && refusedAgain)) {
            throw new IllegalStateException("peer check failed: ran " + ran + ", finished " + finished
                    + ", kept its TTL " + keptTtl + ", refused a duplicate " + refusedAgain);
        }
        return peer;
    }

    /**
     * Captures the commands of one call through {@code boundary} in the opened {@code run}, on {@link #CAPTURE_ID},
     * to be sent again without the boundary; refuses a call the boundary refuses.
     */
    StoreCommands captureCommands(ToolBoundary boundary, RunContext run, String arguments) {
        return new StoreCommands(client, CallCapture.capture(endpoint(), () -> {
            Either<BoundaryError, AgentResult> result = boundary.invoke(run,
                    ToolCallEnvelope.of(run.runId().value(), CAPTURE_ID, Payloads.TOOL_NAME, arguments));
            if (result.isLeft()) {
                throw new IllegalStateException("the boundary refused the call to capture: " + result.getLeft().code());
            }
        }), CAPTURE_ID);
    }

    /** The server process's CPU time so far, in seconds: {@code used_cpu_sys + used_cpu_user}. */
    double cpuSeconds() {
        double[] cpu = info("cpu", "used_cpu_sys", "used_cpu_user");
        return cpu[0] + cpu[1];
    }

    /** Clears {@code INFO commandstats}. */
    void resetCommandStats() {
        deployment.call("CONFIG", "RESETSTAT");
    }

    /**
     * The execution time of every command since {@link #resetCommandStats}, in µs: the sum of
     * {@code usec} over {@code INFO commandstats}, {@code INFO} and {@code CONFIG} left out.
     */
    double commandMicros() {
        double micros = 0;
        for (String line : String.valueOf(deployment.call("INFO", "commandstats")).split("\r?\n")) {
            if (line.startsWith("cmdstat_") && !line.startsWith("cmdstat_info:") && !line.startsWith("cmdstat_config")) {
                int at = line.indexOf("usec=") + "usec=".length();
                micros += Double.parseDouble(line.substring(at, line.indexOf(',', at)));
            }
        }
        return micros;
    }

    /**
     * The execution time of each command since {@link #resetCommandStats}, in µs, by its
     * {@code INFO commandstats} name; {@code INFO} and {@code CONFIG} left out. A script's time includes the
     * commands it ran, which are also counted under their own names.
     */
    Map<String, Double> commandMicrosByName() {
        Map<String, Double> micros = new TreeMap<>();
        for (String line : String.valueOf(deployment.call("INFO", "commandstats")).split("\r?\n")) {
            if (line.startsWith("cmdstat_") && !line.startsWith("cmdstat_info:") && !line.startsWith("cmdstat_config")) {
                int colon = line.indexOf(':');
                int at = line.indexOf("usec=", colon) + "usec=".length();
                micros.put(line.substring("cmdstat_".length(), colon),
                        Double.parseDouble(line.substring(at, line.indexOf(',', at))));
            }
        }
        return micros;
    }

    /**
     * How many times each command ran since {@link #resetCommandStats}, by its {@code INFO commandstats} name
     * (lower case, a subcommand as {@code client|setinfo}), the commands run by scripts included; {@code INFO}
     * and {@code CONFIG} left out.
     */
    Map<String, Long> commandCalls() {
        Map<String, Long> calls = new TreeMap<>();
        for (String line : String.valueOf(deployment.call("INFO", "commandstats")).split("\r?\n")) {
            if (line.startsWith("cmdstat_") && !line.startsWith("cmdstat_info:") && !line.startsWith("cmdstat_config")) {
                int colon = line.indexOf(':');
                int at = line.indexOf("calls=", colon) + "calls=".length();
                calls.put(line.substring("cmdstat_".length(), colon),
                        Long.parseLong(line.substring(at, line.indexOf(',', at))));
            }
        }
        return calls;
    }

    /** Numeric fields of one {@code INFO section} reply, in the order asked; 0 for a field it lacks. */
    double[] info(String section, String... fields) {
        double[] values = new double[fields.length];
        for (String line : String.valueOf(deployment.call("INFO", section)).split("\r?\n")) {
            for (int i = 0; i < fields.length; i++) {
                if (line.startsWith(fields[i] + ":")) {
                    values[i] = Double.parseDouble(line.substring(fields[i].length() + 1).trim());
                }
            }
        }
        return values;
    }

    /** The entries in the outbox stream {@link #OUTBOX}; 0 when there is none. */
    long outboxLength() {
        return deployment.callLong("XLEN", OUTBOX);
    }

    /** Removes every key, the outbox stream {@link #OUTBOX} of the store with export on too. */
    void flush() {
        deployment.call("FLUSHALL");
    }

    @Override
    public void close() {
        client.shutdown();
    }
}
