package io.toolboundary.adapter.redis;

import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.BoundaryListener;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.testkit.CountingExecutor;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testsupport.redis.RedisEndpoint;
import io.toolboundary.testsupport.redis.RedisServerProcess;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.redisson.config.Config;
import org.redisson.config.ConstantDelay;

/**
 * One fault scenario's world: its own {@code redis-server} process, a Redis store made by the factory
 * from a Redisson {@link Config} with short timeouts, a {@link ToolBoundary} over it with one
 * {@link FaultTool}, and the bookkeeping that turns what happened into the scenario's reliability line.
 */
final class FaultRig implements AutoCloseable {

    static final String PREFIX = "tbfault";
    /** The name the store's connections give themselves, so that a test can kill exactly them. */
    static final String CLIENT_NAME = "tbfault-store";
    static final String TOOL = "search_logs";
    /** Redisson's response timeout, unless a scenario needs room for several steps inside one command's wait. */
    static final int TIMEOUT_MILLIS = 500;
    /** Redisson's retries after a failed or timed-out attempt. */
    static final int RETRY_ATTEMPTS = 1;
    static final int RETRY_DELAY_MILLIS = 100;
    /**
     * Every code a store fault may legitimately give the agent; {@code RUN_STATE_LOST} once Redis lost the
     * run's state (a restart without persistence, a flush, an eviction).
     */
    static final Set<ErrorCode> STORE_FAULT_CODES = EnumSet.of(ErrorCode.STORE_UNAVAILABLE,
            ErrorCode.STORE_OUTCOME_UNKNOWN, ErrorCode.STORE_FULL, ErrorCode.RECORD_EXPIRED,
            ErrorCode.RECORD_CONFLICT, ErrorCode.EXECUTION_FAILED, ErrorCode.DUPLICATE_TOOL_CALL,
            ErrorCode.RUN_STATE_LOST);

    final String scenario;
    final RedisServerProcess redis;
    final RedisCanonicalInvocationStore store;
    final FaultTool tool;
    final CountingExecutor executor;
    final ToolBoundary boundary;
    /** The scenario's run, opened on the server when the rig starts. */
    final RunContext run;
    /**
     * The longest the store's share of one {@code invoke} may take: the boundary's store budget
     * ({@code ToolBoundaryConfig.storeTimeout()}, every retry and clean-up included) plus one second for
     * scheduling. The documented bound, not a performance target.
     */
    final Duration invokeStoreBound;
    private final ExecutorService threads;
    private final Queue<AmbiguityRig.Unfinished> unfinished = new ConcurrentLinkedQueue<>();
    private final List<Call> calls = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger faults = new AtomicInteger();
    private final AtomicInteger resurrected = new AtomicInteger();
    private final Map<String, Integer> executionsBeforeLoss = new HashMap<>();
    private final StoreFailureLog storeFailures = StoreFailureLog.open();

    private FaultRig(String scenario, RedisServerProcess redis, int connections,
            RedisStoreOptions.EvictionPolicyCheck check, int timeoutMillis) {
        this.scenario = scenario;
        this.redis = redis;
        this.store = RedisCanonicalInvocationStoreFactory.create(config(redis.endpoint(), connections, timeoutMillis),
                options(check));
        this.invokeStoreBound = ToolBoundaryConfig.ofDefaults().storeTimeout().plusSeconds(1);
        this.tool = new FaultTool(redis, store::recordKey);
        this.executor = FakeTools.counting(tool);
        this.boundary = ToolBoundary.builder()
                .store(store)
                .accessPolicy(AccessPolicy.allowAll())
                .listener(new BoundaryListener() {
                    @Override
                    public void onUnfinished(InvocationKey key, AttemptToken token) {
                        unfinished.add(new AmbiguityRig.Unfinished(key, token));
                    }
                })
                .tool(ToolBinding.readOnly(TOOL, executor,
                        (request, raw) -> Projection.evidenceFound(expectedContent(request.key().toolCallId().value()))))
                .build();
        this.run = openRun();
        this.threads = Executors.newFixedThreadPool(Math.max(2, connections * 2));
    }

    /**
     * Starts a server and the boundary on it.
     *
     * @param connections the store's connection pool size; 1 makes "the store answers again" mean its only connection is back
     */
    static FaultRig start(String scenario, int connections) {
        return start(scenario, connections, TIMEOUT_MILLIS);
    }

    /** {@link #start(String, int)} with another response timeout. */
    static FaultRig start(String scenario, int connections, int timeoutMillis) {
        return on(RedisServerProcess.start(), scenario, connections, RedisStoreOptions.EvictionPolicyCheck.REFUSE,
                timeoutMillis);
    }

    /** The boundary on a server the caller started; the rig takes the server over and closes it. */
    static FaultRig on(RedisServerProcess redis, String scenario, int connections,
            RedisStoreOptions.EvictionPolicyCheck check, int timeoutMillis) {
        try {
            return new FaultRig(scenario, redis, connections, check, timeoutMillis);
        } catch (RuntimeException | Error failure) {
            redis.close();
            throw failure;
        }
    }

    /** A Redisson config that gives up fast: short timeouts, one retry, quick reconnects, no keep-alive PINGs. */
    static Config config(RedisEndpoint endpoint, int connections, int timeoutMillis) {
        Config config = new Config();
        config.useSingleServer()
                .setAddress(endpoint.uri())
                .setClientName(CLIENT_NAME)
                .setTimeout(timeoutMillis)
                .setConnectTimeout(timeoutMillis)
                .setRetryAttempts(RETRY_ATTEMPTS)
                .setRetryDelay(new ConstantDelay(Duration.ofMillis(RETRY_DELAY_MILLIS)))
                .setReconnectionDelay(new ConstantDelay(Duration.ofMillis(RETRY_DELAY_MILLIS)))
                .setPingConnectionInterval(0)
                .setConnectionPoolSize(connections)
                .setConnectionMinimumIdleSize(connections)
                .setSubscriptionConnectionPoolSize(1)
                .setSubscriptionConnectionMinimumIdleSize(0);
        return config;
    }

    static RedisStoreOptions options(RedisStoreOptions.EvictionPolicyCheck check) {
        return RedisStoreOptions.custom().keyPrefix(PREFIX).evictionPolicyCheck(check).build();
    }

    /** What the projector answers for a call: the only text an agent may see on success. */
    static String expectedContent(String toolCallId) {
        return "found for " + toolCallId;
    }

    /** A run of its own, opened on the server now through the boundary. */
    RunContext openRun() {
        return Fixtures.opened(boundary, Fixtures.anyRunContext());
    }

    /** Invokes the boundary on this thread in the scenario's {@link #run}; see {@link #invoke(RunContext, String)}. */
    Call invoke(String toolCallId) {
        return invoke(run, toolCallId);
    }

    /**
     * Invokes the boundary on this thread in {@code in}, timing the store's share (the whole call minus the
     * time inside the tool). The tool counts executions by tool call id alone: another run's calls need ids
     * of their own.
     */
    Call invoke(RunContext in, String toolCallId) {
        tool.takeNanosInside();
        long started = System.nanoTime();
        Either<BoundaryError, AgentResult> outcome = boundary.invoke(in,
                Fixtures.envelope(in).withToolCallId(toolCallId).withToolName(TOOL).build());
        long elapsed = System.nanoTime() - started;
        Call call = new Call(toolCallId, outcome, Duration.ofNanos(elapsed - tool.takeNanosInside()));
        calls.add(call);
        return call;
    }

    /** Invokes the boundary on another thread. */
    Future<Call> invokeAsync(String toolCallId) {
        return threads.submit(() -> invoke(toolCallId));
    }

    /** The call's result, waiting at most 30 seconds for it. */
    static Call result(Future<Call> call) {
        try {
            return call.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException failure) {
            throw new AssertionError("the call did not return", failure);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", interrupted);
        }
    }

    /** Counts one injected fault. */
    void fault() {
        faults.incrementAndGet();
    }

    /**
     * Notes that Redis lost the record of {@code toolCallId} (restart, eviction): executions so far no
     * longer count towards duplicates, and any later execution counts as a re-execution after loss.
     */
    void recordLost(String toolCallId) {
        executionsBeforeLoss.merge(toolCallId, tool.executions(toolCallId), Integer::sum);
    }

    /** Checks now that the lost record of {@code toolCallId} was not created again; counts it as resurrected if it was. */
    boolean stillGone(String toolCallId) {
        boolean gone = redis.callLong("EXISTS", recordKey(toolCallId)) == 0;
        if (!gone) {
            resurrected.incrementAndGet();
        }
        return gone;
    }

    /** Waits until the store answers a read again, {@code times} times in a row (bounded polling). */
    void awaitStoreAnswers() {
        InvocationKey probe = key("probe");
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(25))
                .until(() -> store.find(probe, TIMEOUT).isRight() && store.find(probe, TIMEOUT).isRight());
    }

    /**
     * Ends every pair {@code onUnfinished} handed over, with {@code endUnfinished}, as a harness would once
     * the store answers again; tries a pair again while the store still gives a store error.
     *
     * @return how many pairs were handed over
     */
    int endUnfinished() {
        int ended = 0;
        for (AmbiguityRig.Unfinished pair = unfinished.poll(); pair != null; pair = unfinished.poll()) {
            AmbiguityRig.Unfinished handedOver = pair;
            await("endUnfinished gets a definite answer").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(25))
                    .until(() -> boundary.endUnfinished(handedOver.key(), handedOver.token())
                            .fold(error -> !AmbiguityRig.isStoreError(error.code()), record -> true));
            ended++;
        }
        return ended;
    }

    /** Kills every connection of the store's client from the server side ({@code CLIENT KILL ID}); answers how many. */
    int killStoreConnections() {
        int killed = 0;
        for (String id : storeConnectionIds()) {
            killed += (int) redis.callLong("CLIENT", "KILL", "ID", id);
        }
        return killed;
    }

    /** The server's client ids of the store's connections. */
    List<String> storeConnectionIds() {
        List<String> ids = new ArrayList<>();
        for (String line : String.valueOf(redis.call("CLIENT", "LIST")).split("\n")) {
            if (line.contains(" name=" + CLIENT_NAME + " ")) {
                ids.add(line.substring(line.indexOf("id=") + 3, line.indexOf(' ')));
            }
        }
        return ids;
    }

    /** How many scripts the server has run by SHA so far ({@code cmdstat_evalsha} calls). */
    long scriptRuns() {
        for (String line : String.valueOf(redis.call("INFO", "commandstats")).split("\r?\n")) {
            if (line.startsWith("cmdstat_evalsha:calls=")) {
                return Long.parseLong(line.substring("cmdstat_evalsha:calls=".length(), line.indexOf(',')));
            }
        }
        return 0;
    }

    InvocationKey key(String toolCallId) {
        return InvocationKey.of(run.runId(), new ToolCallId(toolCallId));
    }

    String recordKey(String toolCallId) {
        return store.recordKey(key(toolCallId));
    }

    /** The record's status in Redis, read from outside the store; none when there is no record. */
    Option<String> status(String toolCallId) {
        Object status = StoredRecord.status(redis.call("GET", recordKey(toolCallId)));
        return status instanceof String text ? Option.of(text) : Option.none();
    }

    /**
     * Reads the whole key space of the test prefix after recovery, counts what the scenario did, prints
     * its {@code RELIABILITY} line and asserts the promises: no duplicate execution while a record exists,
     * no execution without a confirmed PROJECTING record, no resurrected record, no key without a TTL, no
     * leak to the agent, only codes from {@code allowed}, every call within {@link #invokeStoreBound}.
     */
    Report checkAndReport(Set<ErrorCode> allowed) {
        return check(allowed, true);
    }

    /** {@link #checkAndReport} without its lines, for a scenario that prints a line of its own. */
    Report check(Set<ErrorCode> allowed) {
        return check(allowed, false);
    }

    private Report check(Set<ErrorCode> allowed, boolean print) {
        requireNonNull(allowed, "allowed is null");
        assertThat(STORE_FAULT_CODES).as("a scenario may only allow codes of the closed set").containsAll(allowed);
        int keysWithoutTtl = 0;
        int projectingLeft = 0;
        int partialRecords = 0;
        for (String key : redis.keys(PREFIX + ":*")) {
            if (redis.callLong("PTTL", key) == -1) {
                keysWithoutTtl++;
            }
            if (key.contains(":call:")) {
                Object token = StoredRecord.token(redis.call("GET", key));
                Object createdAt = StoredRecord.createdAt(redis.call("GET", key));
                if (!(token instanceof String) || !(createdAt instanceof String)) {
                    partialRecords++;
                }
                if ("PROJECTING".equals(StoredRecord.status(redis.call("GET", key)))) {
                    projectingLeft++;
                }
            }
        }
        int duplicateExecutions = 0;
        int reExecutedAfterLoss = 0;
        for (Map.Entry<String, Integer> executed : tool.executionsByCall().entrySet()) {
            int before = executionsBeforeLoss.getOrDefault(executed.getKey(), 0);
            int since = executed.getValue() - before;
            duplicateExecutions += Math.max(0, since - 1);
            if (before > 0 && since > 0) {
                reExecutedAfterLoss++;
            }
        }
        List<Call> all = List.copyOf(calls);
        int leaks = 0;
        int unexpected = 0;
        long maxStoreNanos = 0;
        for (Call call : all) {
            if (call.leaks(String.valueOf(redis.endpoint().port()))) {
                leaks++;
            }
            if (call.outcome().isLeft() && !allowed.contains(call.outcome().getLeft().code())) {
                unexpected++;
            }
            maxStoreNanos = Math.max(maxStoreNanos, call.storeTime().toNanos());
        }
        Map<String, Integer> outcomes = new TreeMap<>();
        for (Call call : all) {
            outcomes.merge(call.code().map(ErrorCode::name).getOrElse("ok"), 1, Integer::sum);
        }
        Report report = new Report(scenario, all.size(), faults.get(), duplicateExecutions,
                resurrected.get() + partialRecords, keysWithoutTtl, leaks, unexpected, reExecutedAfterLoss,
                projectingLeft, tool.unconfirmedExecutions(), Duration.ofNanos(maxStoreNanos), outcomes);
        if (print) {
            System.out.println(report.line());
            System.out.println("FAULT " + scenario + " storeFailures=" + storeFailures.counts());
        }
        assertThat(executor.executions()).as("the counting executor agrees with the per-call counts")
                .isEqualTo(tool.executionsByCall().values().stream().mapToInt(Integer::intValue).sum());
        assertThat(report.duplicateExecutions()).as("duplicate executions while a record exists").isZero();
        assertThat(report.unconfirmedExecutions()).as("executions without a confirmed PROJECTING record").isZero();
        assertThat(report.resurrected()).as("resurrected or partial records").isZero();
        assertThat(report.keysWithoutTtl()).as("keys without a TTL").isZero();
        assertThat(report.leaks()).as("agent outputs carrying raw data, keys or addresses").isZero();
        assertThat(all).as("calls answered with a code outside " + allowed)
                .allSatisfy(call -> call.code().forEach(code -> assertThat(allowed).contains(code)));
        assertThat(report.maxStoreTime()).as("the store's share of the slowest call").isLessThan(invokeStoreBound);
        return report;
    }

    @Override
    public void close() {
        storeFailures.close();
        try {
            tool.openGate();
            threads.shutdownNow();
            if (redis.isAlive() && redis.isFrozen()) {
                redis.thaw();
            }
            store.close();
        } finally {
            redis.close();
        }
    }

    /**
     * One call through the boundary.
     *
     * @param storeTime the time the call took minus the time spent inside the tool
     */
    record Call(String toolCallId, Either<BoundaryError, AgentResult> outcome, Duration storeTime) {

        Option<ErrorCode> code() {
            return outcome.isLeft() ? Option.of(outcome.getLeft().code()) : Option.none();
        }

        /** True when the agent-facing outcome carries anything but the catalogue's message or the bounded result. */
        boolean leaks(String port) {
            String shown = outcome.fold(error -> error.code() + " " + error.message(), AgentResult::content);
            boolean wrongContent = outcome.isRight() && !outcome.get().content().equals(expectedContent(toolCallId));
            return wrongContent || shown.contains(FaultTool.RAW_MARKER) || shown.contains(PREFIX)
                    || shown.contains(port) || shown.contains("Exception") || shown.contains("redis://");
        }
    }

    /** What one scenario did, as counts. */
    record Report(String scenario, int calls, int faults, int duplicateExecutions, int resurrected,
            int keysWithoutTtl, int leaks, int unexpected, int reExecutedAfterLoss, int projectingLeft,
            int unconfirmedExecutions, Duration maxStoreTime, Map<String, Integer> outcomes) {

        String line() {
            return "RELIABILITY " + scenario + " calls=" + calls + " faults=" + faults
                    + " duplicateExecutions=" + duplicateExecutions + " resurrected=" + resurrected
                    + " keysWithoutTtl=" + keysWithoutTtl + " leaks=" + leaks + " unexpected=" + unexpected
                    + " reExecutedAfterLoss=" + reExecutedAfterLoss + " projectingLeft=" + projectingLeft
                    + " unconfirmedExecutions=" + unconfirmedExecutions
                    + " maxStoreMillis=" + maxStoreTime.toMillis()
                    + " outcomes=" + outcomes.toString().replace(" ", "").replace("{", "").replace("}", "").replace('=', ':');
        }
    }
}
