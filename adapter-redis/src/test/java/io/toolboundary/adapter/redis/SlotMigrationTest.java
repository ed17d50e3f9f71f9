package io.toolboundary.adapter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.BoundaryListener;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testsupport.redis.OwnCluster;
import io.toolboundary.testsupport.redis.RedisEndpoint;
import io.toolboundary.testsupport.redis.RedisServerFixture;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.redisson.config.Config;

/**
 * Migrates the slot of a run's hash tag from master to master, with the real procedure
 * ({@code CLUSTER SETSLOT IMPORTING/MIGRATING}, {@code MIGRATE} in batches, {@code SETSLOT NODE}),
 * while {@value #CALLERS} callers make calls of that run through a {@link ToolBoundary} with the
 * default configuration: fresh tool call ids, and replays of ids that succeeded. The slot is held
 * migrating with some keys moved and some not, so that multi-key scripts ({@code begin.lua}) meet
 * {@code TRYAGAIN} and single-key ones ({@code complete.lua}) meet {@code ASK}; the target's script
 * cache is flushed first, so that the scripts meet {@code NOSCRIPT} there.
 *
 * <p>Checks: no tool call id ran twice; a replay never runs and is answered
 * {@code DUPLICATE_TOOL_CALL} (or a safe store code); every call succeeds or ends with a safe store
 * code, within the store budget plus a margin; while every migration is short beside begin's share of
 * the store budget (half of it), every call succeeds; no record is left PROJECTING once the pairs reported to
 * {@link BoundaryListener#onUnfinished} are ended. Runs on a cluster of its own. Prints
 * {@code RELIABILITY slot-migration ...}. {@value #ROUNDS_PROPERTY} sets the number of migrations
 * (default {@value #DEFAULT_ROUNDS}; the {@code soak} profile raises it).
 */
class SlotMigrationTest {

    static final String ROUNDS_PROPERTY = "toolboundary.migration.rounds";
    static final int DEFAULT_ROUNDS = 4;
    static final int CALLERS = 6;
    static final String PREFIX = "tbmigrate";
    static final String TOOL = "search_logs";
    /** How long the slot stays MIGRATING/IMPORTING with about half of its keys moved. */
    static final long HOLD_MILLIS = 400;
    /** Keys moved per {@code MIGRATE} after the hold, with a short pause between batches. */
    static final int BATCH = 10;
    /** Time for the store beyond its budget: scheduling on two shared cores, the final script reply. */
    static final Duration MARGIN = Duration.ofSeconds(1);
    /** Room for the last pause between tries (at most 200 ms) and the try that finds the slot settled. */
    static final Duration SLACK = Duration.ofMillis(500);
    static final Set<ErrorCode> SAFE_STORE_CODES = EnumSet.of(ErrorCode.STORE_UNAVAILABLE,
            ErrorCode.STORE_OUTCOME_UNKNOWN);

    private final Map<String, AtomicInteger> executions = new ConcurrentHashMap<>();
    private final ThreadLocal<long[]> toolNanos = ThreadLocal.withInitial(() -> new long[1]);

    @Test
    void migratingTheSlotOfARunDuringCallsRunsNothingTwiceAndEveryCallEndsInBound() throws Exception {
        int rounds = Integer.getInteger(ROUNDS_PROPERTY, DEFAULT_ROUNDS);
        StoreFailureLog storeFailures = StoreFailureLog.open();
        ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
        try (OwnCluster cluster = RedisServerFixture.ownCluster();
                RedisCanonicalInvocationStore store = RedisCanonicalInvocationStoreFactory.create(config(cluster),
                        RedisStoreOptions.custom().keyPrefix(PREFIX).build())) {
            ToolBoundaryConfig boundaryConfig = ToolBoundaryConfig.ofDefaults();
            Queue unfinished = new Queue();
            ToolBoundary boundary = ToolBoundary.builder()
                    .store(store)
                    .config(boundaryConfig)
                    .accessPolicy(AccessPolicy.allowAll())
                    .listener(unfinished)
                    .tool(ToolBinding.readOnly(TOOL, this::execute,
                            (request, raw) -> Projection.evidenceFound("found for " + request.key().toolCallId().value())))
                    .build();
            RunContext run = Fixtures.opened(boundary,
                    Fixtures.runContext("migrating-" + Fixtures.anyToolCallId().substring(5, 17)));
            int slot = (int) (long) (Long) cluster.callOn(cluster.nodes().get(0), "CLUSTER", "KEYSLOT",
                    "{" + run.runId().value() + "}");
            Map<RedisEndpoint, String> ids = new java.util.LinkedHashMap<>();
            for (RedisEndpoint node : cluster.nodes()) {
                ids.put(node, (String) cluster.callOn(node, "CLUSTER", "MYID"));
            }

            Tally tally = new Tally();
            AtomicBoolean stop = new AtomicBoolean();
            List<String> succeeded = new CopyOnWriteArrayList<>();
            AtomicLong sequence = new AtomicLong();
            List<Future<?>> workers = new ArrayList<>();
            for (int i = 0; i < CALLERS; i++) {
                workers.add(callers.submit(() -> {
                    while (!stop.get()) {
                        boolean replay = !succeeded.isEmpty() && ThreadLocalRandom.current().nextInt(10) < 3;
                        String id = replay
                                ? succeeded.get(ThreadLocalRandom.current().nextInt(succeeded.size()))
                                : "call-" + sequence.incrementAndGet();
                        Call call = invoke(boundary, run, id);
                        tally.add(call, replay);
                        if (!replay && call.outcome().isRight()) {
                            succeeded.add(id);
                        }
                    }
                    return null;
                }));
            }

            long longestWindowNanos = 0;
            List<String> moves = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                pause(300);
                RedisEndpoint source = owner(cluster, ids, slot);
                List<RedisEndpoint> others = new ArrayList<>(cluster.nodes());
                others.remove(source);
                RedisEndpoint target = others.get(round % others.size());
                long window = migrate(cluster, ids, slot, source, target);
                longestWindowNanos = Math.max(longestWindowNanos, window);
                moves.add(source.port() + "->" + target.port() + "(" + TimeUnit.NANOSECONDS.toMillis(window) + "ms)");
            }
            pause(300);
            stop.set(true);
            for (Future<?> worker : workers) {
                worker.get(60, TimeUnit.SECONDS);
            }

            // The harness's part: end what the boundary could not.
            int endedLater = 0;
            List<String> notEnded = new ArrayList<>();
            for (Unfinished pair : unfinished.pairs) {
                Either<BoundaryError, CanonicalRecord.Final> ended = boundary.endUnfinished(pair.key(), pair.token());
                if (ended.isRight() || ended.getLeft().code() == ErrorCode.RECORD_EXPIRED) {
                    endedLater++;
                } else {
                    notEnded.add(pair.key().toolCallId().value() + " -> " + ended.getLeft().code());
                }
            }
            int projectingLeft = 0;
            int records = 0;
            int unreadable = 0;
            for (String id : freshIds(sequence.get())) {
                Either<StoreFailure, Option<CanonicalRecord>> found =
                        store.find(InvocationKey.of(run.runId(), new ToolCallId(id)), boundaryConfig.storeTimeout());
                if (found.isLeft()) {
                    unreadable++;
                    continue;
                }
                Option<CanonicalRecord> record = found.get();
                if (record.isDefined()) {
                    records++;
                    if (record.get().status() == InvocationStatus.PROJECTING) {
                        projectingLeft++;
                    }
                }
            }
            RedisEndpoint finalOwner = owner(cluster, ids, slot);
            long keysElsewhere = 0;
            for (RedisEndpoint node : cluster.nodes()) {
                if (!node.equals(finalOwner)) {
                    keysElsewhere += (Long) cluster.callOn(node, "CLUSTER", "COUNTKEYSINSLOT", Integer.toString(slot));
                }
            }
            long tryAgain = errorCount(cluster, "TRYAGAIN");
            long ask = errorCount(cluster, "ASK");
            long noScript = errorCount(cluster, "NOSCRIPT");
            int duplicateExecutions = executions.values().stream().mapToInt(count -> Math.max(0, count.get() - 1)).sum();
            Duration bound = boundaryConfig.storeTimeout().plus(MARGIN);

            System.out.println("RELIABILITY slot-migration migrations=" + rounds + " calls=" + tally.calls.get()
                    + " replays=" + tally.replays.get() + " replaysDuplicate=" + tally.replaysDuplicate.get()
                    + " executions=" + executions.values().stream().mapToInt(AtomicInteger::get).sum()
                    + " duplicateExecutions=" + duplicateExecutions
                    + " storeErrors=" + tally.storeErrors.get() + " unexpected=" + tally.unexpected.size()
                    + " unfinished=" + unfinished.pairs.size() + " endedLater=" + endedLater
                    + " projectingLeft=" + projectingLeft + " records=" + records + " unreadable=" + unreadable
                    + " tryagain=" + tryAgain + " ask=" + ask + " noscript=" + noScript
                    + " longestMigrationMillis=" + TimeUnit.NANOSECONDS.toMillis(longestWindowNanos)
                    + " maxStoreMillis=" + TimeUnit.NANOSECONDS.toMillis(tally.maxStoreNanos.get())
                    + " boundMillis=" + bound.toMillis()
                    + " outcomes=" + new TreeMap<>(tally.outcomes).toString().replace(" ", "").replace("{", "")
                            .replace("}", "").replace('=', ':'));
            System.out.println("MIGRATION slot=" + slot + " moves=" + moves + " storeFailures=" + storeFailures.counts());

            assertThat(duplicateExecutions).as("tool call ids that ran more than once").isZero();
            assertThat(tally.replayExecutions.get()).as("replays of a succeeded call that ran the tool").isZero();
            assertThat(tally.unexpected).as("calls answered neither with a result nor with a safe code").isEmpty();
            assertThat(Duration.ofNanos(tally.maxStoreNanos.get())).as("the store's share of the slowest call")
                    .isLessThan(bound);
            assertThat(notEnded).as("unfinished calls endUnfinished could not end once the slot was settled").isEmpty();
            assertThat(projectingLeft).as("records left PROJECTING after endUnfinished").isZero();
            assertThat(unreadable).as("records the store could not read once the slot was settled").isZero();
            assertThat(keysElsewhere).as("keys of the slot left outside its final owner").isZero();
            assertThat(tryAgain).as("TRYAGAIN replies the migrations caused").isPositive();
            assertThat(ask).as("ASK redirections the migrations caused").isPositive();
            if (longestWindowNanos + SLACK.toNanos() < boundaryConfig.storeTimeout().toNanos() / 2) {
                // TRYAGAIN and ASK are retried within the budget: a migration well inside begin's share of it
                // (half the store budget) costs no call an error, only waiting.
                assertThat(tally.storeErrors.get()).as("store errors although every migration ended in %s ms",
                        TimeUnit.NANOSECONDS.toMillis(longestWindowNanos)).isZero();
            }
            assertThat(tally.replaysDuplicate.get()).as("replays answered DUPLICATE_TOOL_CALL").isPositive();
        } finally {
            callers.shutdownNow();
            callers.awaitTermination(30, TimeUnit.SECONDS);
            storeFailures.close();
        }
    }

    /** Every tool call id the test may have used: the fresh ones are numbered. */
    private static List<String> freshIds(long last) {
        List<String> ids = new ArrayList<>();
        for (long i = 1; i <= last; i++) {
            ids.add("call-" + i);
        }
        return ids;
    }

    private String execute(io.toolboundary.application.ToolRequest request) {
        long started = System.nanoTime();
        executions.computeIfAbsent(request.key().toolCallId().value(), ignored -> new AtomicInteger()).incrementAndGet();
        // Some calls stay in the tool long enough for a migration to start under them, so that their
        // completion meets a moved record (ASK).
        if (ThreadLocalRandom.current().nextInt(4) == 0) {
            pause(250);
        }
        toolNanos.get()[0] += System.nanoTime() - started;
        return "raw for " + request.key().toolCallId().value();
    }

    private Call invoke(ToolBoundary boundary, RunContext run, String id) {
        toolNanos.get()[0] = 0;
        int before = executions.getOrDefault(id, new AtomicInteger()).get();
        long started = System.nanoTime();
        Either<BoundaryError, AgentResult> outcome = boundary.invoke(run,
                Fixtures.envelope(run).withToolCallId(id).withToolName(TOOL).build());
        long storeNanos = System.nanoTime() - started - toolNanos.get()[0];
        int after = executions.getOrDefault(id, new AtomicInteger()).get();
        return new Call(id, outcome, storeNanos, after > before);
    }

    /**
     * Moves {@code slot} from {@code source} to {@code target}; answers how long the slot was in
     * migration, from {@code IMPORTING} to the last {@code SETSLOT NODE}.
     */
    static long migrate(OwnCluster cluster, Map<RedisEndpoint, String> ids, int slot, RedisEndpoint source,
            RedisEndpoint target) {
        String slotText = Integer.toString(slot);
        // The target has never run these scripts, or has forgotten them: NOSCRIPT after ASK and MOVED.
        cluster.callOn(target, "SCRIPT", "FLUSH");
        long started = System.nanoTime();
        cluster.callOn(target, "CLUSTER", "SETSLOT", slotText, "IMPORTING", ids.get(source));
        cluster.callOn(source, "CLUSTER", "SETSLOT", slotText, "MIGRATING", ids.get(target));
        List<String> keys = keysInSlot(cluster, source, slot, 10_000);
        moveKeys(cluster, source, target, keys.subList(0, keys.size() / 2));
        pause(HOLD_MILLIS);
        for (List<String> batch = keysInSlot(cluster, source, slot, BATCH); !batch.isEmpty();
                batch = keysInSlot(cluster, source, slot, BATCH)) {
            moveKeys(cluster, source, target, batch);
            pause(20);
        }
        cluster.callOn(target, "CLUSTER", "SETSLOT", slotText, "NODE", ids.get(target));
        cluster.callOn(source, "CLUSTER", "SETSLOT", slotText, "NODE", ids.get(target));
        for (RedisEndpoint node : cluster.nodes()) {
            if (!node.equals(source) && !node.equals(target)) {
                cluster.callOn(node, "CLUSTER", "SETSLOT", slotText, "NODE", ids.get(target));
            }
        }
        return System.nanoTime() - started;
    }

    @SuppressWarnings("unchecked")
    private static List<String> keysInSlot(OwnCluster cluster, RedisEndpoint node, int slot, int count) {
        return (List<String>) cluster.callOn(node, "CLUSTER", "GETKEYSINSLOT", Integer.toString(slot),
                Integer.toString(count));
    }

    private static void moveKeys(OwnCluster cluster, RedisEndpoint source, RedisEndpoint target, List<String> keys) {
        if (keys.isEmpty()) {
            return;
        }
        List<String> command = new ArrayList<>(List.of("MIGRATE", target.host(), Integer.toString(target.port()), "",
                "0", "5000", "KEYS"));
        command.addAll(keys);
        cluster.callOn(source, command.toArray(String[]::new));
    }

    /** The master that owns {@code slot}: the one whose own line of {@code CLUSTER NODES} lists it. */
    static RedisEndpoint owner(OwnCluster cluster, Map<RedisEndpoint, String> ids, int slot) {
        for (RedisEndpoint node : cluster.nodes()) {
            String reply = String.valueOf(cluster.callOn(node, "CLUSTER", "NODES"));
            for (String line : reply.split("\n")) {
                if (!line.contains("myself")) {
                    continue;
                }
                String[] fields = line.trim().split(" ");
                for (int i = 8; i < fields.length; i++) {
                    String range = fields[i];
                    if (range.startsWith("[")) {
                        continue;
                    }
                    int dash = range.indexOf('-');
                    int from = Integer.parseInt(dash < 0 ? range : range.substring(0, dash));
                    int to = Integer.parseInt(dash < 0 ? range : range.substring(dash + 1));
                    if (from <= slot && slot <= to) {
                        return node;
                    }
                }
            }
        }
        throw new AssertionError("no master owns slot " + slot + " in " + ids.keySet());
    }

    /** How many error replies of {@code kind} the masters have sent, from {@code INFO errorstats}. */
    private static long errorCount(OwnCluster cluster, String kind) {
        long count = 0;
        for (RedisEndpoint node : cluster.nodes()) {
            for (String line : String.valueOf(cluster.callOn(node, "INFO", "errorstats")).split("\r?\n")) {
                if (line.startsWith("errorstat_" + kind + ":count=")) {
                    count += Long.parseLong(line.substring(line.indexOf('=') + 1).split(",")[0].trim());
                }
            }
        }
        return count;
    }

    private static Config config(OwnCluster cluster) {
        Config config = new Config();
        var servers = config.useClusterServers();
        for (RedisEndpoint node : cluster.nodes()) {
            servers.addNodeAddress(node.uri());
        }
        return config;
    }

    private static void pause(long millis) {
        long wakeUp = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        for (long left = wakeUp - System.nanoTime(); left > 0; left = wakeUp - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    record Call(String id, Either<BoundaryError, AgentResult> outcome, long storeNanos, boolean ran) {
    }

    record Unfinished(InvocationKey key, AttemptToken token) {
    }

    /** The harness's listener: keeps the pairs the boundary could not end. */
    static final class Queue implements BoundaryListener {
        final ConcurrentLinkedQueue<Unfinished> pairs = new ConcurrentLinkedQueue<>();

        @Override
        public void onUnfinished(InvocationKey key, AttemptToken token) {
            pairs.add(new Unfinished(key, token));
        }
    }

    /** What the callers saw. */
    static final class Tally {
        final AtomicInteger calls = new AtomicInteger();
        final AtomicInteger replays = new AtomicInteger();
        final AtomicInteger replaysDuplicate = new AtomicInteger();
        final AtomicInteger replayExecutions = new AtomicInteger();
        final AtomicInteger storeErrors = new AtomicInteger();
        final AtomicLong maxStoreNanos = new AtomicLong();
        final Map<String, Integer> outcomes = new ConcurrentHashMap<>();
        final List<String> unexpected = new CopyOnWriteArrayList<>();

        void add(Call call, boolean replay) {
            calls.incrementAndGet();
            maxStoreNanos.accumulateAndGet(call.storeNanos(), Math::max);
            String name = call.outcome().fold(error -> error.code().name(), result -> "ok");
            outcomes.merge((replay ? "replay-" : "") + name, 1, Integer::sum);
            Option<ErrorCode> code = call.outcome().isLeft() ? Option.of(call.outcome().getLeft().code()) : Option.none();
            if (code.exists(SAFE_STORE_CODES::contains)) {
                storeErrors.incrementAndGet();
            }
            if (replay) {
                replays.incrementAndGet();
                if (call.ran()) {
                    replayExecutions.incrementAndGet();
                }
                if (code.contains(ErrorCode.DUPLICATE_TOOL_CALL)) {
                    replaysDuplicate.incrementAndGet();
                } else if (!code.exists(SAFE_STORE_CODES::contains)) {
                    unexpected.add("replay " + call.id() + " -> " + name);
                }
            } else if (code.isDefined() && !SAFE_STORE_CODES.contains(code.get())) {
                unexpected.add(call.id() + " -> " + name);
            } else if (code.isEmpty() && !call.outcome().get().content().equals("found for " + call.id())) {
                unexpected.add(call.id() + " -> wrong content");
            }
        }
    }
}
