package io.toolboundary.adapter.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.BoundaryListener;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.InvocationStart;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.tck.store.ForwardingStore;
import io.toolboundary.testkit.CountingExecutor;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testsupport.redis.FaultProxy;
import io.toolboundary.testsupport.redis.RedisAdmin;
import io.toolboundary.testsupport.redis.RedisEndpoint;
import io.toolboundary.testsupport.redis.RedisServerProcess;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.util.ArrayList;
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
import java.util.concurrent.atomic.AtomicReference;

/**
 * The world of the ambiguity suites: a {@code redis-server} process of its own, optionally a
 * {@link FaultProxy} in front of it, a Redis store made by {@code connectStandalone} (through the proxy
 * when there is one), a {@link FaultTool} that counts its executions, and a listener that keeps every
 * {@code onUnfinished} pair. The test's own connection goes to the server directly, never through the
 * proxy: what it reads is what Redis holds.
 *
 * <p>{@link #settle} is the check of one round: it ends every handed-over pair with
 * {@code endUnfinished} once the store answers, reads the record from the server, compares it with what
 * the agent was told, and replays the call; {@link Tally} counts and prints the scenario's
 * {@code RELIABILITY} line.
 */
final class AmbiguityRig implements AutoCloseable {

    static final String PREFIX = "tbambig";
    static final String TOOL = "search_logs";
    /** Codes with which the boundary ends a record after its tool ran; the record must then hold the same code. */
    private static final Set<ErrorCode> RECORD_ENDING = EnumSet.of(ErrorCode.EXECUTION_FAILED,
            ErrorCode.PROJECTION_FAILED, ErrorCode.PROJECTION_INVALID, ErrorCode.RESULT_TOO_LARGE,
            ErrorCode.TEXT_NOT_UNICODE, ErrorCode.STORE_FULL, ErrorCode.STORE_DATA_INVALID);
    private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(30);

    final RedisServerProcess redis;
    final Option<FaultProxy> proxy;
    final RedisCanonicalInvocationStore store;
    final FaultTool tool;
    final CountingExecutor executor;
    /** The rounds' run, opened on the server when the rig starts. */
    final RunContext run;
    private final RedisAdmin admin;
    private final Queue<Unfinished> unfinished = new ConcurrentLinkedQueue<>();
    private final ThreadLocal<AttemptToken> lastToken = new ThreadLocal<>();
    private final ExecutorService threads = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "ambiguity-call");
        thread.setDaemon(true);
        return thread;
    });

    private AmbiguityRig(RedisServerProcess redis, boolean throughProxy, RedisStoreOptions.Builder options) {
        this.redis = redis;
        this.proxy = throughProxy ? Option.of(FaultProxy.start(redis.endpoint())) : Option.none();
        RedisEndpoint endpoint = proxy.map(FaultProxy::endpoint).getOrElse(redis.endpoint());
        this.admin = RedisAdmin.open(redis.endpoint(), Duration.ofSeconds(10));
        this.store = RedisCanonicalInvocationStoreFactory.connectStandalone(endpoint.uri(),
                options.keyPrefix(PREFIX).build());
        this.tool = new FaultTool(redis, store::recordKey);
        this.executor = FakeTools.counting(tool);
        this.run = Fixtures.opened(boundary(ToolBoundaryConfig.ofDefaults()), Fixtures.anyRunContext());
    }

    /** A server, a proxy in front of it and a store through the proxy. */
    static AmbiguityRig throughProxy(RedisStoreOptions.Builder options) {
        return start(true, options);
    }

    /** A server and a store connected to it directly. */
    static AmbiguityRig direct(RedisStoreOptions.Builder options) {
        return start(false, options);
    }

    private static AmbiguityRig start(boolean throughProxy, RedisStoreOptions.Builder options) {
        RedisServerProcess redis = RedisServerProcess.start();
        try {
            return new AmbiguityRig(redis, throughProxy, options);
        } catch (RuntimeException | Error failure) {
            redis.close();
            throw failure;
        }
    }

    FaultProxy proxy() {
        return proxy.getOrElseThrow(() -> new IllegalStateException("this rig has no proxy"));
    }

    /**
     * A boundary over this rig's store with {@code config}, keeping the token of each attempt it begins and
     * the pairs it hands over.
     */
    ToolBoundary boundary(ToolBoundaryConfig config) {
        return boundary(config, store);
    }

    /** {@link #boundary(ToolBoundaryConfig)} over {@code over}, a store that passes every call on to this rig's. */
    ToolBoundary boundary(ToolBoundaryConfig config, CanonicalInvocationStore over) {
        return ToolBoundary.builder()
                .store(new ForwardingStore(over) {
                    @Override
                    public Either<StoreFailure, CanonicalRecord.Projecting> begin(InvocationStart start,
                            Duration timeout) {
                        lastToken.set(start.token());
                        return super.begin(start, timeout);
                    }
                })
                .config(config)
                .accessPolicy(AccessPolicy.allowAll())
                .listener(new BoundaryListener() {
                    @Override
                    public void onUnfinished(InvocationKey key, AttemptToken token) {
                        unfinished.add(new Unfinished(key, token));
                    }
                })
                .tool(ToolBinding.readOnly(TOOL, executor,
                        (request, raw) -> Projection.evidenceFound(FaultRig.expectedContent(request.key().toolCallId().value()))))
                .build();
    }

    /** Invokes on this thread and times the call, and the store's share of it (the call minus the time inside the tool). */
    Call invoke(ToolBoundary boundary, RunContext run, String toolCallId) {
        tool.takeNanosInside();
        lastToken.remove();
        long started = System.nanoTime();
        Either<BoundaryError, AgentResult> outcome = boundary.invoke(run,
                Fixtures.envelope(run).withToolCallId(toolCallId).withToolName(TOOL).build());
        long elapsed = System.nanoTime() - started;
        return new Call(toolCallId, outcome, Option.of(lastToken.get()), Duration.ofNanos(elapsed),
                Duration.ofNanos(elapsed - tool.takeNanosInside()));
    }

    Future<Call> invokeAsync(ToolBoundary boundary, String toolCallId) {
        return threads.submit(() -> invoke(boundary, run, toolCallId));
    }

    static Call result(Future<Call> call) {
        try {
            return call.get(60, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException failure) {
            throw new AssertionError("the call did not return", failure);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", interrupted);
        }
    }

    /** How many scripts the server has run by SHA so far, read directly from the server. */
    long scriptRuns() {
        for (String line : String.valueOf(admin.command("INFO", "commandstats")).split("\r?\n")) {
            if (line.startsWith("cmdstat_evalsha:calls=")) {
                return Long.parseLong(line.substring("cmdstat_evalsha:calls=".length(), line.indexOf(',')));
            }
        }
        return 0;
    }

    /** Waits until the server has run at least {@code count} scripts. */
    void awaitScriptRuns(long count) {
        await("the server runs the script").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(2))
                .until(() -> scriptRuns() >= count);
    }

    InvocationKey key(String toolCallId) {
        return InvocationKey.of(run.runId(), new ToolCallId(toolCallId));
    }

    /** The record's fields as Redis holds them; empty when there is none. */
    Map<String, String> record(String toolCallId) {
        return StoredRecord.unpack(admin.command("GET", store.recordKey(key(toolCallId))));
    }

    /** Every record under the prefix still PROJECTING, and every key without a TTL, read from the server. */
    int[] projectingAndKeysWithoutTtl() {
        int projecting = 0;
        int withoutTtl = 0;
        for (String key : redis.keys(PREFIX + ":*")) {
            if (admin.command("PTTL", key) instanceof Long ttl && ttl == -1) {
                withoutTtl++;
            }
            if (key.contains(":call:") && "PROJECTING".equals(StoredRecord.status(admin.command("GET", key)))) {
                projecting++;
            }
        }
        return new int[] {projecting, withoutTtl};
    }

    /** Takes the pairs handed over since the last call. */
    List<Unfinished> takeUnfinished() {
        List<Unfinished> taken = new ArrayList<>();
        for (Unfinished pair = unfinished.poll(); pair != null; pair = unfinished.poll()) {
            taken.add(pair);
        }
        return taken;
    }

    /**
     * Ends a handed-over pair with {@code endUnfinished}, trying again while the store still gives a
     * store error (the link is healing), and answers what it finally said.
     */
    Either<BoundaryError, CanonicalRecord.Final> endUnfinished(ToolBoundary boundary, Unfinished pair) {
        AtomicReference<Either<BoundaryError, CanonicalRecord.Final>> ended = new AtomicReference<>();
        await("endUnfinished gets a definite answer").atMost(SETTLE_TIMEOUT).pollInterval(Duration.ofMillis(20))
                .until(() -> {
                    Either<BoundaryError, CanonicalRecord.Final> answer = boundary.endUnfinished(pair.key(), pair.token());
                    ended.set(answer);
                    return answer.isRight() || !isStoreError(answer.getLeft().code());
                });
        return ended.get();
    }

    /**
     * One round's check, after the link has healed: ends every pair the round handed over, compares the
     * record with what the agent was told, replays the call through {@code boundary} and counts it all
     * into {@code tally}.
     */
    void settle(ToolBoundary boundary, Call call, Tally tally) {
        tally.calls++;
        tally.outcomes.merge(call.code().map(ErrorCode::name).getOrElse("ok"), 1, Integer::sum);
        tally.maxInvoke = max(tally.maxInvoke, call.elapsed());
        tally.maxStore = max(tally.maxStore, call.storeTime());
        int ranBefore = tool.executions(call.toolCallId());
        tally.toolRuns += ranBefore;
        endHandedOver(boundary, tally);
        Map<String, String> record = record(call.toolCallId());
        String status = record.getOrDefault("status", "none");
        tally.records.merge(status, 1, Integer::sum);
        if (status.equals("PROJECTING")) {
            tally.projectingLeft++;
        }
        Option<String> disagreement = disagreement(call, record, ranBefore);
        disagreement.forEach(reason -> tally.disagreements.add(call.toolCallId() + ": " + reason));

        // A replay never runs the tool again; it runs it once only when there is no record (it never ran).
        Call replay = invoke(boundary, run, call.toolCallId());
        for (int tries = 0; replay.code().exists(AmbiguityRig::isStoreError) && tries < 10; tries++) {
            tally.replayStoreErrors++;
            endHandedOver(boundary, tally);
            replay = invoke(boundary, run, call.toolCallId());
        }
        int ranAfter = tool.executions(call.toolCallId());
        if (ranAfter > 1) {
            tally.duplicateExecutions += ranAfter - 1;
        }
        if (!status.equals("none") && !replay.code().contains(ErrorCode.DUPLICATE_TOOL_CALL)) {
            tally.disagreements.add(call.toolCallId() + ": replay of a recorded call answered " + replay.code());
        }
        if (status.equals("none") && ranBefore > 0) {
            tally.disagreements.add(call.toolCallId() + ": the tool ran and no record exists");
        }
        endHandedOver(boundary, tally);
    }

    private void endHandedOver(ToolBoundary boundary, Tally tally) {
        for (Unfinished pair : takeUnfinished()) {
            tally.handedOver++;
            String before = record(pair.key().toolCallId().value()).getOrDefault("status", "none");
            if (before.equals("PROJECTING")) {
                tally.projectingBeforeEnd++;
            }
            Either<BoundaryError, CanonicalRecord.Final> ended = endUnfinished(boundary, pair);
            if (ended.isLeft() && ended.getLeft().code() != ErrorCode.RECORD_EXPIRED) {
                tally.disagreements.add(pair.key().toolCallId().value() + ": endUnfinished answered "
                        + ended.getLeft().code());
            }
        }
    }

    /**
     * What the agent was told against what Redis holds: a result means READY with that content by this
     * attempt; {@code STORE_UNAVAILABLE} means nothing was written and nothing ran; a record-ending code
     * means ERROR with that code; {@code STORE_OUTCOME_UNKNOWN} allows no record, ERROR, or READY by this
     * attempt, never PROJECTING. Any other code is not a possible answer to a fresh call here.
     */
    private static Option<String> disagreement(Call call, Map<String, String> record, int ran) {
        String status = record.getOrDefault("status", "none");
        boolean ours = call.token().exists(token -> token.value().equals(record.get("token")));
        if (status.equals("READY") && ran != 1) {
            return Option.of("READY after " + ran + " executions");
        }
        if (call.outcome().isRight()) {
            boolean agrees = status.equals("READY") && ours
                    && call.outcome().get().content().equals(record.get("content"));
            return agrees ? Option.none() : Option.of("agent got a result, record is " + status);
        }
        ErrorCode code = call.outcome().getLeft().code();
        if (code == ErrorCode.STORE_OUTCOME_UNKNOWN) {
            boolean allowed = status.equals("none") || status.equals("ERROR") || (status.equals("READY") && ours);
            return allowed ? Option.none() : Option.of("STORE_OUTCOME_UNKNOWN, record is " + status);
        }
        if (code == ErrorCode.STORE_UNAVAILABLE) {
            return status.equals("none") && ran == 0 ? Option.none()
                    : Option.of("STORE_UNAVAILABLE, record is " + status + " after " + ran + " executions");
        }
        if (RECORD_ENDING.contains(code)) {
            return status.equals("ERROR") && code.name().equals(record.get("errorCode")) ? Option.none()
                    : Option.of(code + ", record is " + status + "/" + record.getOrDefault("errorCode", "-"));
        }
        return Option.of("unexpected code " + code + " for a fresh call, record is " + status);
    }

    static boolean isStoreError(ErrorCode code) {
        return code == ErrorCode.STORE_OUTCOME_UNKNOWN || code == ErrorCode.STORE_UNAVAILABLE;
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    @Override
    public void close() {
        try {
            tool.openGate();
            threads.shutdownNow();
            proxy.forEach(FaultProxy::close);
            if (redis.isAlive() && redis.isFrozen()) {
                redis.thaw();
            }
            store.close();
            admin.close();
        } finally {
            redis.close();
        }
    }

    /** A pair {@code onUnfinished} handed over. */
    record Unfinished(InvocationKey key, AttemptToken token) {
    }

    /** One call through the boundary, with the token it was given and how long it took. */
    record Call(String toolCallId, Either<BoundaryError, AgentResult> outcome, Option<AttemptToken> token,
            Duration elapsed, Duration storeTime) {

        Option<ErrorCode> code() {
            return outcome.isLeft() ? Option.of(outcome.getLeft().code()) : Option.none();
        }
    }

    /** What one scenario did, as counts; {@link #check()} prints its line and asserts the zeros. */
    static final class Tally {
        final String scenario;
        int rounds;
        int calls;
        int faults;
        int toolRuns;
        int handedOver;
        int projectingBeforeEnd;
        int projectingLeft;
        int duplicateExecutions;
        int replayStoreErrors;
        int keysWithoutTtl;
        /** The bound every call's time is held to, when the scenario has one. */
        Option<Duration> bound = Option.none();
        Duration maxInvoke = Duration.ZERO;
        Duration maxStore = Duration.ZERO;
        final List<String> disagreements = new ArrayList<>();
        final Map<String, Integer> outcomes = new TreeMap<>();
        final Map<String, Integer> records = new TreeMap<>();

        Tally(String scenario) {
            this.scenario = scenario;
        }

        String line() {
            return "RELIABILITY " + scenario + " rounds=" + rounds + " calls=" + calls + " faults=" + faults
                    + " toolRuns=" + toolRuns + " handedOver=" + handedOver
                    + " projectingBeforeEnd=" + projectingBeforeEnd + " projectingLeft=" + projectingLeft
                    + " disagreements=" + disagreements.size() + " duplicateExecutions=" + duplicateExecutions
                    + " keysWithoutTtl=" + keysWithoutTtl + " replayStoreErrors=" + replayStoreErrors
                    + bound.map(limit -> " boundMillis=" + limit.toMillis()).getOrElse("")
                    + " maxInvokeMillis=" + maxInvoke.toMillis() + " maxStoreMillis=" + maxStore.toMillis()
                    + " outcomes=" + compact(outcomes) + " records=" + compact(records);
        }

        /** Prints the line, then asserts: nothing left PROJECTING, no disagreement, no duplicate execution, every key with a TTL. */
        void check(AmbiguityRig rig) {
            int[] left = rig.projectingAndKeysWithoutTtl();
            projectingLeft = Math.max(projectingLeft, left[0]);
            keysWithoutTtl = left[1];
            System.out.println(line());
            if (!disagreements.isEmpty()) {
                System.out.println("RELIABILITY-DETAIL " + scenario + " " + disagreements);
            }
            assertThat(disagreements).as("disagreements between the agent's code and the record").isEmpty();
            assertThat(projectingLeft).as("records left PROJECTING after endUnfinished").isZero();
            assertThat(duplicateExecutions).as("duplicate executions").isZero();
            assertThat(keysWithoutTtl).as("keys without a TTL").isZero();
        }

        private static String compact(Map<String, Integer> counts) {
            return counts.toString().replace(" ", "").replace("{", "").replace("}", "").replace('=', ':');
        }
    }
}
