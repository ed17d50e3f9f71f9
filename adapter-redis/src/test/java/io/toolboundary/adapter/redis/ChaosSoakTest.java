package io.toolboundary.adapter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.Projection;
import io.toolboundary.testkit.Fixtures;
import io.vavr.control.Either;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A chaos soak on a real {@code redis-server} process of its own: {@value #CALLERS} callers drive
 * {@code ToolBoundary.invoke} over a Redis store (made by the factory with the fault rig's short timeouts
 * and one retry) for {@code toolboundary.soak.calls} calls (default {@value #DEFAULT_CALLS}; the
 * {@code soak} profile raises it), mixing fresh tool call ids, replays of ids already sent and ids
 * reused with other arguments, while a chaos thread injects faults at random, one at a time, with a
 * bounded pause between them: {@code CLIENT KILL} of the store's connections, short {@code SIGSTOP}
 * freezes thawed after a bounded number of milliseconds, and {@code maxmemory} squeezes released again.
 * No restart and no kill: those lose records by design and are covered by {@link FaultInjectionTest}.
 *
 * <p>The chaos runs on a single-threaded {@link ScheduledExecutorService}: each step schedules the next
 * (a thaw or a release after the fault's duration, the next fault after a pause), so nothing sleeps.
 * The seed comes from {@code toolboundary.soak.seed} or the clock and is printed first, so that a failing
 * run's fault sequence can be replayed (the callers' interleaving cannot).
 *
 * <p>Once the faults have stopped and the store answers again, the test reads the whole key space and
 * asserts: no key ran the tool twice (no record is lost in this soak, so every execution beyond a key's
 * first is a duplicate) and no executed key lost its record; no partial record; no key without a TTL;
 * no agent-visible text with the raw tool output, the request's text, {@code password=}, exception text,
 * Redis keys or the server's address; nothing thrown out of {@code invoke}; every error code from the
 * closed set of store, duplicate and execution codes; every call back within the bound of two store
 * calls of stacked retries plus two seconds. It prints
 * {@code RELIABILITY chaos-soak calls=… faults=… duplicateExecutions=… resurrected=… keysWithoutTtl=…
 * leaks=… unexpected=… projectingLeft=… outcomes=…}, where {@code resurrected} counts records without
 * their creation fields and records of ids never sent, and {@code unexpected} counts throws out of
 * {@code invoke} and codes outside the closed set. A second {@code SOAK} line gives the seed, the faults
 * by kind, the slowest call and, for the records left PROJECTING, the outcomes their callers saw.
 */
class ChaosSoakTest {

    static final String CALLS_PROPERTY = "toolboundary.soak.calls";
    static final String SEED_PROPERTY = "toolboundary.soak.seed";
    static final int DEFAULT_CALLS = 2_000;
    static final int CALLERS = 8;
    static final String SCENARIO = "chaos-soak";
    /** The longest freeze; a freeze longer than the 500 ms response timeout makes Redisson time out and retry. */
    static final int MAX_FREEZE_MILLIS = 700;
    static final int MAX_SQUEEZE_MILLIS = 300;
    /** The pause between the end of one fault and the start of the next: the bound on the fault rate. */
    static final int MIN_PAUSE_MILLIS = 50;
    static final int MAX_PAUSE_MILLIS = 250;
    /** Every code a soak call may give the agent: store faults, duplicates and reuse, a failed execution. */
    static final Set<ErrorCode> CLOSED_SET = EnumSet.of(ErrorCode.STORE_UNAVAILABLE,
            ErrorCode.STORE_OUTCOME_UNKNOWN, ErrorCode.STORE_FULL, ErrorCode.RECORD_EXPIRED,
            ErrorCode.RECORD_CONFLICT, ErrorCode.EXECUTION_FAILED, ErrorCode.DUPLICATE_TOOL_CALL,
            ErrorCode.TOOL_CALL_ID_REUSED);
    /** Where the request's text begins: its secret part must never reach the agent. */
    static final String REQUEST_MARKER = "needle-";
    static final String SECRET = "password=hunter2-";

    @Test
    void keepsEveryPromiseWhileConcurrentCallersMeetRandomConnectionKillsFreezesAndMemorySqueezes()
            throws InterruptedException {
        int callCount = Integer.getInteger(CALLS_PROPERTY, DEFAULT_CALLS);
        long seed = Long.getLong(SEED_PROPERTY, System.nanoTime());
        System.out.println("SOAK " + SCENARIO + " seed=" + seed + " calls=" + callCount + " callers=" + CALLERS
                + " (replay the fault sequence with -D" + SEED_PROPERTY + "=" + seed + ")");
        long started = System.nanoTime();
        try (FaultRig rig = FaultRig.start(SCENARIO, CALLERS)) {
            java.util.Queue<AmbiguityRig.Unfinished> unfinished = new java.util.concurrent.ConcurrentLinkedQueue<>();
            ToolBoundary boundary = ToolBoundary.builder()
                    .store(rig.store)
                    .accessPolicy(AccessPolicy.allowAll())
                    .listener(new io.toolboundary.application.BoundaryListener() {
                        @Override
                        public void onUnfinished(io.toolboundary.domain.InvocationKey key,
                                io.toolboundary.application.spi.AttemptToken token) {
                            unfinished.add(new AmbiguityRig.Unfinished(key, token));
                        }
                    })
                    .tool(ToolBinding.readOnly(FaultRig.TOOL, rig.executor, (request, raw) -> Projection
                            .evidenceFound(FaultRig.expectedContent(request.key().toolCallId().value()))))
                    .build();
            Chaos chaos = new Chaos(rig, new Random(seed));
            Callers callers = new Callers(rig, boundary, new Random(seed ^ 0x5DEECE66DL), callCount);

            chaos.start();
            List<SoakCall> calls = callers.runAll();
            chaos.stopAndAwait();
            rig.awaitStoreAnswers();
            // As a harness would once the store answers again: end every record the boundary handed over.
            int handedOver = unfinished.size();
            for (AmbiguityRig.Unfinished pair : unfinished) {
                org.awaitility.Awaitility.await("endUnfinished gets a definite answer").atMost(Duration.ofSeconds(15))
                        .pollInterval(Duration.ofMillis(25))
                        .until(() -> boundary.endUnfinished(pair.key(), pair.token())
                                .fold(error -> !AmbiguityRig.isStoreError(error.code()), record -> true));
            }

            Verdict verdict = Verdict.of(rig, calls, chaos.faults(), callers.sentIds());
            System.out.println(verdict.line());
            System.out.println("SOAK " + SCENARIO + " seed=" + seed + " faultsByKind=" + chaos.faultsByKind()
                    + " executions=" + rig.executor.executions() + " keys=" + callers.sentIds().size()
                    + " unconfirmedExecutions=" + rig.tool.unconfirmedExecutions()
                    + " maxCallMillis=" + verdict.maxCall().toMillis()
                    + " maxStoreMillis=" + verdict.maxStoreTime().toMillis()
                    + " projectingLeftByOutcome=" + verdict.projectingLeftBy() + " handedOver=" + handedOver
                    + " seconds=" + Duration.ofNanos(System.nanoTime() - started).toSeconds());

            assertThat(chaos.faults()).as("faults injected").isPositive();
            assertThat(calls).as("calls made").hasSize(callCount);
            assertThat(rig.executor.executions()).as("the counting executor agrees with the per-call counts")
                    .isEqualTo(rig.tool.executionsByCall().values().stream().mapToInt(Integer::intValue).sum());
            assertThat(verdict.duplicateExecutions()).as("keys run more than once").isZero();
            assertThat(verdict.lostRecords()).as("executed keys whose record is gone").isZero();
            assertThat(rig.tool.unconfirmedExecutions()).as("executions without a confirmed PROJECTING record")
                    .isZero();
            assertThat(verdict.successesBeyondExecutions()).as("keys answered with a result more often than run")
                    .isZero();
            assertThat(verdict.resurrected()).as("partial records and records of ids never sent").isZero();
            assertThat(verdict.keysWithoutTtl()).as("keys without a TTL").isZero();
            assertThat(verdict.projectingLeft()).as("records left PROJECTING once handed-over records were ended")
                    .isZero();
            assertThat(verdict.leaks()).as("agent outputs carrying raw data, request text, keys or addresses")
                    .isZero();
            assertThat(calls).as("calls that threw out of invoke").allSatisfy(
                    call -> assertThat(call.thrown()).isEmpty());
            assertThat(calls).as("calls answered with a code outside " + CLOSED_SET).allSatisfy(
                    call -> assertThat(call.code()).isIn(codeNames(CLOSED_SET)));
            assertThat(verdict.unexpected()).isZero();
            assertThat(verdict.maxStoreTime()).as("the store's share of the slowest call")
                    .isLessThan(rig.invokeStoreBound);
            assertThat(verdict.maxCall()).as("the slowest call, whose tool may wait out a freeze on its own check")
                    .isLessThan(rig.invokeStoreBound.plusMillis(MAX_FREEZE_MILLIS));

            // On the healthy server, an id with a record is refused without running; one never begun runs once.
            for (String toolCallId : callers.sample(200)) {
                boolean recorded = rig.redis.callLong("EXISTS", rig.recordKey(toolCallId)) == 1;
                int executionsBefore = rig.tool.executions(toolCallId);
                SoakCall replay = callers.invoke(toolCallId, 0);
                if (recorded) {
                    assertThat(replay.code()).as("replay of " + toolCallId)
                            .isIn(ErrorCode.DUPLICATE_TOOL_CALL.name(), ErrorCode.TOOL_CALL_ID_REUSED.name());
                    assertThat(rig.tool.executions(toolCallId)).as(toolCallId).isEqualTo(executionsBefore);
                } else {
                    assertThat(replay.code()).as("first begun call of " + toolCallId).isEqualTo("ok");
                    assertThat(rig.tool.executions(toolCallId)).as(toolCallId).isEqualTo(1);
                }
            }
        }
    }

    private static List<String> codeNames(Set<ErrorCode> codes) {
        List<String> names = new ArrayList<>(List.of("ok"));
        codes.forEach(code -> names.add(code.name()));
        return names;
    }

    /** The text of the arguments of {@code toolCallId} in {@code variant}: the agent must never see it. */
    static String arguments(String toolCallId, int variant) {
        return "{\"query\":\"" + REQUEST_MARKER + toolCallId + "-v" + variant + " " + SECRET + toolCallId + "\"}";
    }

    /**
     * One call through the boundary.
     *
     * @param thrown the class name of anything thrown out of {@code invoke}; empty when it returned
     * @param storeTime the call's time minus the time spent inside the tool
     */
    record SoakCall(String toolCallId, int variant, Either<BoundaryError, AgentResult> outcome, String thrown,
            Duration time, Duration storeTime) {

        /** {@code ok}, the error code's name, or {@code THROWN}. */
        String code() {
            if (!thrown.isEmpty()) {
                return "THROWN";
            }
            return outcome.isRight() ? "ok" : outcome.getLeft().code().name();
        }

        boolean leaks(String port, String recordKey) {
            if (!thrown.isEmpty()) {
                return false;
            }
            if (outcome.isRight()) {
                // Exactly the projection, nothing else: the id in it may contain the port's digits.
                return !outcome.get().content().equals(FaultRig.expectedContent(toolCallId));
            }
            String shown = outcome.getLeft().code() + " " + outcome.getLeft().message();
            return shown.contains(FaultTool.RAW_MARKER) || shown.contains(REQUEST_MARKER)
                    || shown.contains("password=") || shown.contains("hunter2") || shown.contains(FaultRig.PREFIX)
                    || shown.contains(recordKey) || shown.contains(toolCallId) || shown.contains(port)
                    || shown.contains("Exception") || shown.contains("redis://") || shown.contains("\tat ");
        }
    }

    /** The callers: a fixed pool that takes call numbers from a shared counter until all are made. */
    private static final class Callers {
        private final FaultRig rig;
        private final ToolBoundary boundary;
        private final Random random;
        private final int callCount;
        private final AtomicInteger next = new AtomicInteger();
        private final AtomicInteger freshIds = new AtomicInteger();
        /** Ids in the order they were first chosen; replays and reuses pick from them. */
        private final List<String> sent = new CopyOnWriteArrayList<>();
        private final List<SoakCall> calls = Collections.synchronizedList(new ArrayList<>());

        Callers(FaultRig rig, ToolBoundary boundary, Random random, int callCount) {
            this.rig = rig;
            this.boundary = boundary;
            this.random = random;
            this.callCount = callCount;
        }

        List<SoakCall> runAll() throws InterruptedException {
            ExecutorService pool = Executors.newFixedThreadPool(CALLERS);
            try {
                List<Future<?>> workers = new ArrayList<>();
                for (int i = 0; i < CALLERS; i++) {
                    workers.add(pool.submit(this::work));
                }
                for (Future<?> worker : workers) {
                    worker.get(30L + callCount / 50L, TimeUnit.SECONDS);
                }
            } catch (ExecutionException | TimeoutException failure) {
                throw new AssertionError("a caller did not finish", failure);
            } finally {
                pool.shutdownNow();
            }
            return List.copyOf(calls);
        }

        Set<String> sentIds() {
            return Set.copyOf(sent);
        }

        /** Up to {@code count} of the sent ids, spread evenly over the order they were first chosen in. */
        List<String> sample(int count) {
            List<String> ids = List.copyOf(sent);
            int size = Math.min(count, ids.size());
            List<String> sample = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                sample.add(ids.get(i * ids.size() / size));
            }
            return sample;
        }

        private void work() {
            while (next.getAndIncrement() < callCount) {
                String toolCallId;
                int variant;
                int dice;
                synchronized (random) {
                    dice = random.nextInt(100);
                    int known = sent.size();
                    if (dice < 55 || known == 0) {
                        toolCallId = "soak-" + freshIds.getAndIncrement();
                        sent.add(toolCallId);
                        variant = 0;
                    } else {
                        // Mostly recent ids, so that replays often race their first call.
                        int back = Math.min(known, dice < 80 ? 16 : known);
                        toolCallId = sent.get(known - 1 - random.nextInt(back));
                        variant = dice < 90 ? 0 : 1 + random.nextInt(3);
                    }
                }
                calls.add(invoke(toolCallId, variant));
            }
        }

        SoakCall invoke(String toolCallId, int variant) {
            rig.tool.takeNanosInside();
            long started = System.nanoTime();
            Either<BoundaryError, AgentResult> outcome = null;
            String thrown = "";
            try {
                outcome = boundary.invoke(rig.run, Fixtures.envelope(rig.run).withToolCallId(toolCallId)
                        .withToolName(FaultRig.TOOL).withArguments(arguments(toolCallId, variant)).build());
            } catch (RuntimeException | Error escaped) {
                thrown = escaped.getClass().getName();
            }
            long elapsed = System.nanoTime() - started;
            return new SoakCall(toolCallId, variant, outcome, thrown, Duration.ofNanos(elapsed),
                    Duration.ofNanos(elapsed - rig.tool.takeNanosInside()));
        }
    }

    /**
     * The chaos: one fault at a time on a single scheduler thread, chosen by the seeded random, each
     * undone after a bounded duration (freeze, squeeze) and followed by a bounded pause.
     */
    private static final class Chaos {
        private final FaultRig rig;
        private final Random random;
        private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "chaos");
            thread.setDaemon(true);
            return thread;
        });
        private final CompletableFuture<Void> stopped = new CompletableFuture<>();
        private final Map<String, Integer> byKind = new TreeMap<>();
        private volatile boolean stopping;

        Chaos(FaultRig rig, Random random) {
            this.rig = rig;
            this.random = random;
        }

        void start() {
            pause();
        }

        int faults() {
            synchronized (byKind) {
                return byKind.values().stream().mapToInt(Integer::intValue).sum();
            }
        }

        Map<String, Integer> faultsByKind() {
            synchronized (byKind) {
                return new TreeMap<>(byKind);
            }
        }

        /** Stops injecting, waits until the last fault is undone (at most 30 s) and leaves the server healthy. */
        void stopAndAwait() {
            stopping = true;
            try {
                stopped.get(30, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException failure) {
                throw new AssertionError("the chaos did not stop cleanly", failure);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", interrupted);
            } finally {
                scheduler.shutdownNow();
            }
            assertThat(rig.redis.isFrozen()).as("frozen after the chaos").isFalse();
            assertThat(String.valueOf(rig.redis.call("CONFIG", "GET", "maxmemory"))).endsWith(", 0]");
        }

        private void pause() {
            if (stopping) {
                stopped.complete(null);
                return;
            }
            scheduler.schedule(this::inject, between(MIN_PAUSE_MILLIS, MAX_PAUSE_MILLIS), TimeUnit.MILLISECONDS);
        }

        private void inject() {
            if (stopping) {
                stopped.complete(null);
                return;
            }
            try {
                int dice = random.nextInt(3);
                if (dice == 0) {
                    rig.killStoreConnections();
                    count("clientKill");
                    pause();
                } else if (dice == 1) {
                    int millis = between(10, MAX_FREEZE_MILLIS);
                    rig.redis.freeze();
                    count("freeze");
                    scheduler.schedule(() -> undo(rig.redis::thaw), millis, TimeUnit.MILLISECONDS);
                } else {
                    int millis = between(20, MAX_SQUEEZE_MILLIS);
                    long used = usedMemory();
                    rig.redis.call("CONFIG", "SET", "maxmemory", Long.toString(used + between(0, 64 * 1024)));
                    count("maxmemorySqueeze");
                    scheduler.schedule(() -> undo(() -> rig.redis.call("CONFIG", "SET", "maxmemory", "0")), millis,
                            TimeUnit.MILLISECONDS);
                }
            } catch (RuntimeException | Error failure) {
                stopped.completeExceptionally(failure);
            }
        }

        private void undo(Runnable action) {
            try {
                action.run();
                pause();
            } catch (RuntimeException | Error failure) {
                stopped.completeExceptionally(failure);
            }
        }

        private void count(String kind) {
            synchronized (byKind) {
                byKind.merge(kind, 1, Integer::sum);
            }
            rig.fault();
        }

        private int between(int low, int high) {
            return low + random.nextInt(high - low + 1);
        }

        private long usedMemory() {
            for (String line : String.valueOf(rig.redis.call("INFO", "memory")).split("\r?\n")) {
                if (line.startsWith("used_memory:")) {
                    return Long.parseLong(line.substring("used_memory:".length()).trim());
                }
            }
            throw new IllegalStateException("INFO memory has no used_memory");
        }
    }

    /** What the soak left behind, read after recovery, as counts. */
    record Verdict(int calls, int faults, int duplicateExecutions, int lostRecords, int successesBeyondExecutions,
            int resurrected, int keysWithoutTtl, int leaks, int unexpected, int projectingLeft, Duration maxCall,
            Duration maxStoreTime, Map<String, Integer> outcomes, Map<String, Integer> projectingLeftBy) {

        static Verdict of(FaultRig rig, List<SoakCall> calls, int faults, Set<String> sentIds) {
            int keysWithoutTtl = 0;
            int projectingLeft = 0;
            int resurrected = 0;
            Map<String, String> sentKeys = new HashMap<>();
            sentIds.forEach(id -> sentKeys.put(rig.recordKey(id), id));
            Set<String> projectingIds = new HashSet<>();
            for (String key : rig.redis.keys(FaultRig.PREFIX + ":*")) {
                if (rig.redis.callLong("PTTL", key) == -1) {
                    keysWithoutTtl++;
                }
                if (key.contains(":call:")) {
                    boolean complete = StoredRecord.token(rig.redis.call("GET", key)) instanceof String
                            && StoredRecord.createdAt(rig.redis.call("GET", key)) instanceof String;
                    if (!complete || !sentKeys.containsKey(key)) {
                        resurrected++;
                    }
                    if ("PROJECTING".equals(StoredRecord.status(rig.redis.call("GET", key)))) {
                        projectingLeft++;
                        projectingIds.add(sentKeys.getOrDefault(key, key));
                    }
                }
            }
            int duplicateExecutions = 0;
            int lostRecords = 0;
            Map<String, Integer> executions = rig.tool.executionsByCall();
            for (Map.Entry<String, Integer> executed : executions.entrySet()) {
                duplicateExecutions += Math.max(0, executed.getValue() - 1);
                if (rig.redis.callLong("EXISTS", rig.recordKey(executed.getKey())) == 0) {
                    lostRecords++;
                }
            }
            Map<String, Integer> successes = new HashMap<>();
            int leaks = 0;
            int unexpected = 0;
            long maxCall = 0;
            long maxStore = 0;
            Map<String, Integer> outcomes = new TreeMap<>();
            Map<String, String> projectingCause = new TreeMap<>();
            String port = String.valueOf(rig.redis.endpoint().port());
            for (SoakCall call : calls) {
                if (call.leaks(port, rig.recordKey(call.toolCallId()))) {
                    leaks++;
                    System.out.println("SOAK " + SCENARIO + " leak: " + call.toolCallId() + " " + call.code() + " "
                            + call.outcome().fold(error -> error.message(), AgentResult::content));
                }
                if (!call.thrown().isEmpty()
                        || (call.outcome().isLeft() && !CLOSED_SET.contains(call.outcome().getLeft().code()))) {
                    unexpected++;
                }
                if (call.thrown().isEmpty() && call.outcome().isRight()) {
                    successes.merge(call.toolCallId(), 1, Integer::sum);
                }
                outcomes.merge(call.code(), 1, Integer::sum);
                if (projectingIds.contains(call.toolCallId()) && !call.code().equals("DUPLICATE_TOOL_CALL")
                        && !call.code().equals("TOOL_CALL_ID_REUSED")) {
                    projectingCause.merge(call.toolCallId(), call.code(), (first, more) -> first + "+" + more);
                }
                maxCall = Math.max(maxCall, call.time().toNanos());
                maxStore = Math.max(maxStore, call.storeTime().toNanos());
            }
            int successesBeyondExecutions = 0;
            for (Map.Entry<String, Integer> succeeded : successes.entrySet()) {
                successesBeyondExecutions += Math.max(0,
                        succeeded.getValue() - executions.getOrDefault(succeeded.getKey(), 0));
            }
            Map<String, Integer> projectingLeftBy = new TreeMap<>();
            projectingCause.values().forEach(code -> projectingLeftBy.merge(code, 1, Integer::sum));
            return new Verdict(calls.size(), faults, duplicateExecutions, lostRecords, successesBeyondExecutions,
                    resurrected, keysWithoutTtl, leaks, unexpected, projectingLeft, Duration.ofNanos(maxCall),
                    Duration.ofNanos(maxStore), outcomes, projectingLeftBy);
        }

        String line() {
            StringBuilder codes = new StringBuilder();
            outcomes.forEach((code, count) -> codes.append(codes.isEmpty() ? "" : ",").append(code).append(':')
                    .append(count));
            return "RELIABILITY " + SCENARIO + " calls=" + calls + " faults=" + faults + " duplicateExecutions="
                    + duplicateExecutions + " resurrected=" + resurrected + " keysWithoutTtl=" + keysWithoutTtl
                    + " leaks=" + leaks + " unexpected=" + unexpected + " projectingLeft=" + projectingLeft
                    + " outcomes=" + codes;
        }
    }
}
