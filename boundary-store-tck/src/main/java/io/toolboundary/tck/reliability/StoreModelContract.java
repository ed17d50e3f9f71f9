package io.toolboundary.tck.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.AttemptToken;
import io.toolboundary.application.CanonicalInvocationStore;
import io.toolboundary.application.InvocationStart;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.StoreRules;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import io.toolboundary.testkit.MutableClock;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A model-based check of a {@link CanonicalInvocationStore}: seeded random sequences of begins (keys
 * from a small pool, reused tokens, two fingerprints, random budgets and TTLs), completions (READY or
 * ERROR, with the right token, a wrong one (then sometimes a tampered outcome), a repeated one), reads
 * and the passing of time, run against the store and against a reference model whose decisions are the
 * domain's {@link StoreRules}: a store that decides otherwise than the rules fails here.
 *
 * <p>After every step: each result equals the model's prediction (record or error code); a key has
 * at most one successful begin per life (one execution); each key moves only from nothing to
 * PROJECTING, from PROJECTING to READY or ERROR, and a final record never changes; the remaining TTL
 * never grows; budgets hold exactly. One {@code RELIABILITY} line reports the counts.
 *
 * <p>Time: when the store's expiry follows an injected {@link MutableClock} ({@link #storeClock()}),
 * the suite moves it and the model predicts every expiry exactly. When the store keeps its own time
 * (Redis), the suite gives some records a short TTL, ends a record's life with {@link #expire}, and the
 * model allows for the store's clock running while a step runs: a record near its end is either
 * found or not, and before a write to such a record the suite ends its life so that the write's
 * outcome is certain.
 */
public abstract class StoreModelContract {

    /** The sequences per run when {@link HostileInputContract#TRIES_PROPERTY} is not set. */
    public static final int DEFAULT_SEQUENCES = 200;

    /** Actions per sequence. */
    public static final int DEFAULT_ACTIONS = 50;

    private static final int KEYS = 5;
    private static final int GENEROUS = 10_000;
    private static final List<ToolName> TOOLS = List.of(new ToolName("tool_a"), new ToolName("tool_b"));
    private static final List<String> FINGERPRINTS = List.of("fp-alpha", "fp-beta");
    private static final Duration LONG_TTL = Duration.ofMinutes(10);
    private static final Duration MEDIUM_TTL = Duration.ofSeconds(30);
    /** How far the store's own clock may be from this JVM's when it keeps its own time. */
    private static final Duration SLACK = Duration.ofMillis(5);
    /** A write never runs on a record that could end within this time: the record is ended first. */
    private static final Duration WRITE_GUARD = Duration.ofSeconds(1);

    // ---------------------------------------------------------------------------------------------
    // Hooks
    // ---------------------------------------------------------------------------------------------

    /**
     * The store under test; may be the same instance for every run (each sequence uses its own run id).
     *
     * @return the store the sequences act on and compare with the model
     */
    protected abstract CanonicalInvocationStore store();

    /**
     * The store's name in the printed line.
     *
     * @return the store's name, for example {@code in-memory}
     */
    protected abstract String storeName();

    /**
     * The time the record under {@code key} has left, read without changing it.
     *
     * @param key the run and tool call whose record is read
     * @return none when there is no live record under the key
     */
    protected abstract Option<Duration> remainingTtl(InvocationKey key);

    /**
     * The clock the store's expiry follows, when the suite may move it; none when the store keeps its own time.
     *
     * @return the store's clock, or none when records must be ended through {@link #expire(InvocationKey)}
     */
    protected abstract Option<MutableClock> storeClock();

    /**
     * Ends the life of the record under {@code key} now, as if its TTL had run out. Called only when
     * {@link #storeClock()} is none.
     *
     * @param key the run and tool call whose record is to expire
     * @throws UnsupportedOperationException always, unless overridden; a store that keeps its own time
     *     must override it
     */
    protected void expire(InvocationKey key) {
        throw new UnsupportedOperationException("a store that keeps its own time must end a record's life on request");
    }

    /**
     * Sequences per run; by default {@value #DEFAULT_SEQUENCES}, scaled up by the fuzz tries property.
     *
     * @return how many random sequences of actions a run checks against the model
     */
    protected int sequences() {
        return scaled(DEFAULT_SEQUENCES);
    }

    /**
     * Actions per sequence.
     *
     * @return how many random store actions each sequence performs
     */
    protected int actionsPerSequence() {
        return DEFAULT_ACTIONS;
    }

    /**
     * The seed: {@link HostileInputContract#SEED_PROPERTY} when set, else a fixed number.
     *
     * @return the seed of the random sequences, offset from the hostile-input seed
     */
    protected long seed() {
        return Long.getLong(HostileInputContract.SEED_PROPERTY, 20_261_202L) + 7;
    }

    /**
     * {@code base}, times the fuzz tries property over its default when the property is set.
     *
     * @param base the count for the default number of tries
     * @return {@code base} scaled by {@link HostileInputContract#TRIES_PROPERTY} over its default, never
     *     below {@code base} and capped at {@link Integer#MAX_VALUE}
     */
    protected static int scaled(int base) {
        Integer tries = Integer.getInteger(HostileInputContract.TRIES_PROPERTY);
        if (tries == null || tries <= HostileInputContract.DEFAULT_TRIES) {
            return base;
        }
        return (int) Math.min(Integer.MAX_VALUE, (long) base * tries / HostileInputContract.DEFAULT_TRIES);
    }

    // ---------------------------------------------------------------------------------------------
    // The test
    // ---------------------------------------------------------------------------------------------

    @Test
    void agreesWithTheReferenceModelAfterEveryStep() {
        long seed = seed();
        Random random = new Random(seed);
        Counts counts = new Counts();
        for (int s = 0; s < sequences(); s++) {
            new Sequence(random, counts, s).run();
        }
        System.out.println("RELIABILITY model/" + storeName() + " sequences=" + counts.sequences + " actions="
                + counts.actions + " begins=" + counts.begins + " completes=" + counts.completes + " finds="
                + counts.finds + " expiries=" + counts.expiries + " mismatches=" + counts.mismatches
                + " illegalTransitions=" + counts.illegalTransitions + " ttlGrowths=" + counts.ttlGrowths
                + " duplicateExecutions=" + counts.duplicateExecutions + " unexpected=" + counts.unexpected);
        StringBuilder detail = new StringBuilder("RELIABILITY-DETAIL model/" + storeName());
        counts.outcomes.forEach((what, n) -> detail.append(' ').append(what).append('=').append(n));
        System.out.println(detail);
        assertThat(counts.findings).as("model run of %s, seed %d", storeName(), seed).isEmpty();
        assertThat(counts.actions).isEqualTo((long) sequences() * actionsPerSequence());
    }

    // ---------------------------------------------------------------------------------------------
    // The model
    // ---------------------------------------------------------------------------------------------

    /** What the run found; only the first findings are quoted. */
    private static final class Counts {
        long sequences;
        long actions;
        long begins;
        long completes;
        long finds;
        long expiries;
        long mismatches;
        long illegalTransitions;
        long ttlGrowths;
        long duplicateExecutions;
        long unexpected;
        final List<String> findings = new ArrayList<>();
        final Map<String, Long> outcomes = new TreeMap<>();

        void outcome(String what) {
            outcomes.merge(what, 1L, Long::sum);
        }

        void finding(String what) {
            if (findings.size() < 20) {
                findings.add(what);
            }
        }
    }

    /** The end of a life, known exactly (an injected clock) or within a window (the store's own clock). */
    private record Expiry(Instant earliest, Instant latest) {
    }

    /** One life of a record in the model. */
    private static final class Life {
        CanonicalRecord record;
        /** The PROJECTING record this life began with. */
        final CanonicalRecord.Projecting begun;
        final AttemptToken token;
        final Duration ttl;
        final Expiry expiry;
        Option<Duration> lastTtl = Option.none();
        Option<CanonicalRecord> lastSeen = Option.none();

        Life(CanonicalRecord.Projecting record, AttemptToken token, Duration ttl, Expiry expiry) {
            this.record = record;
            this.begun = record;
            this.token = token;
            this.ttl = ttl;
            this.expiry = expiry;
        }
    }

    /** A budget counter in the model. */
    private static final class Counter {
        long used;
        final Expiry expiry;

        Counter(Expiry expiry) {
            this.expiry = expiry;
        }
    }

    /** A begin that was tried: its token, the record it wanted (or got), and its last completion. */
    private static final class Attempt {
        final AttemptToken token;
        CanonicalRecord.Projecting record;
        Option<CanonicalRecord.Final> lastOutcome = Option.none();

        Attempt(AttemptToken token, CanonicalRecord.Projecting record) {
            this.token = token;
            this.record = record;
        }
    }

    private enum State { LIVE, GONE, UNSURE }

    /** One sequence: its own run, its own model, run step by step against the store. */
    private final class Sequence {
        private final Random random;
        private final Counts counts;
        private final int number;
        private final RunId run = new RunId("model-" + UUID.randomUUID());
        private final List<InvocationKey> keys = new ArrayList<>();
        private final Map<InvocationKey, Life> lives = new HashMap<>();
        private final Map<String, Counter> counters = new HashMap<>();
        private final List<Attempt> attempts = new ArrayList<>();
        private final Option<MutableClock> clock = storeClock();
        private final int runBudget;
        private int step;
        private long stamp;

        Sequence(Random random, Counts counts, int number) {
            this.random = random;
            this.counts = counts;
            this.number = number;
            for (int i = 0; i < KEYS; i++) {
                keys.add(InvocationKey.of(run, new ToolCallId("call-" + i)));
            }
            this.runBudget = 1 + random.nextInt(12);
        }

        void run() {
            counts.sequences++;
            for (step = 0; step < actionsPerSequence(); step++) {
                counts.actions++;
                try {
                    int action = random.nextInt(20);
                    if (action < 9) {
                        begin();
                    } else if (action < 15) {
                        complete();
                    } else if (action < 17) {
                        find(keys.get(random.nextInt(KEYS)));
                    } else {
                        passTime();
                    }
                    for (InvocationKey key : keys) {
                        find(key);
                        checkTtl(key);
                    }
                } catch (Throwable failure) {
                    counts.unexpected++;
                    counts.finding(where() + "unexpected " + failure);
                }
            }
        }

        // -- actions ------------------------------------------------------------------------------

        private void begin() {
            counts.begins++;
            Attempt attempt = nextAttempt();
            InvocationKey key = attempt.record.key();
            Duration ttl = chooseTtl(attempt.record.tool());
            int toolBudget = random.nextInt(4) == 0 ? GENEROUS : 1 + random.nextInt(6);
            int budget = random.nextInt(10) == 0 ? random.nextInt(3) : runBudget;
            InvocationStart start = new InvocationStart(attempt.record, attempt.token, ttl,
                    ttl, budget, toolBudget, Long.MAX_VALUE);

            Instant before = settleBeforeWrite(key);
            Life life = lives.get(key);
            Either<BoundaryError, Option<CanonicalRecord.Projecting>> decided = StoreRules.begin(held(life, attempt.token),
                    attempt.record.requestFingerprint(), used("run", before), budget,
                    used("tool:" + attempt.record.tool().value(), before), toolBudget);
            boolean creates = decided.isRight() && decided.get().isEmpty();
            Either<BoundaryError, CanonicalRecord.Projecting> expected =
                    decided.map(stored -> stored.getOrElse(attempt.record));

            counts.outcome("begin:" + (creates ? "created" : expected.isRight() ? "retried" : expected.getLeft().code()));
            Either<BoundaryError, CanonicalRecord.Projecting> actual = store().begin(start);
            Instant after = now();
            checkWriteInTime(key, life, after);
            compare("begin " + key.toolCallId() + " token#" + attempts.indexOf(attempt), expected, actual);

            if (actual.isRight() && !creates && !(life != null && life.token.equals(attempt.token))) {
                counts.duplicateExecutions++;
                counts.finding(where() + "second successful begin of a live key " + key.toolCallId());
            }
            if (creates && actual.isRight()) {
                Expiry expiry = expiryOf(before, after, ttl);
                lives.put(key, new Life(attempt.record, attempt.token, ttl, expiry));
                reserve("run", expiry, before);
                reserve("tool:" + attempt.record.tool().value(), expiry, before);
            }
            if (actual.isRight()) {
                attempt.record = actual.get();
            }
        }

        private void complete() {
            counts.completes++;
            Attempt attempt = attempts.isEmpty() || random.nextInt(10) == 0
                    ? new Attempt(AttemptToken.random(), newRecord(keys.get(random.nextInt(KEYS))))
                    : attempts.get(random.nextInt(attempts.size()));
            AttemptToken token = attempt.token;
            int tokenChoice = random.nextInt(8);
            if (tokenChoice == 0) {
                token = AttemptToken.random();
            } else if (tokenChoice == 1 && !attempts.isEmpty()) {
                token = attempts.get(random.nextInt(attempts.size())).token;
            }
            CanonicalRecord.Projecting base = baseOfOutcome(attempt, token);
            Option<CanonicalRecord.Final> repeatable = attempt.lastOutcome.filter(last -> completes(last, base));
            CanonicalRecord.Final outcome = repeatable.isDefined() && random.nextInt(4) == 0
                    ? repeatable.get()
                    : newOutcome(base);
            InvocationKey key = outcome.key();

            settleBeforeWrite(key);
            Life life = lives.get(key);
            Either<BoundaryError, CanonicalRecord.Final> expected = StoreRules.complete(held(life, token), outcome);

            counts.outcome("complete:" + (expected.isLeft() ? expected.getLeft().code().name()
                    : life.record instanceof CanonicalRecord.Final ? "repeated" : "applied-" + outcome.status()));
            Either<BoundaryError, CanonicalRecord.Final> actual = store().complete(token, outcome);
            checkWriteInTime(key, life, now());
            compare("complete " + key.toolCallId() + " as " + outcome.status(), expected, actual);
            if (expected.isRight() && actual.isRight()) {
                life.record = expected.get();
            }
            if (token.equals(attempt.token)) {
                attempt.lastOutcome = Option.of(outcome);
            }
        }

        private void find(InvocationKey key) {
            counts.finds++;
            Instant before = now();
            Either<BoundaryError, Option<CanonicalRecord>> actual = store().find(key);
            Instant after = now();
            Life life = lives.get(key);
            State state = life == null ? State.GONE : state(life.expiry, before, after);
            if (actual.isLeft()) {
                mismatch("find " + key.toolCallId() + ": " + actual.getLeft().code());
                return;
            }
            Option<CanonicalRecord> found = actual.get();
            if (state == State.GONE || (state == State.UNSURE && found.isEmpty())) {
                if (life != null) {
                    counts.outcome("find:ended-by-ttl");
                }
                lives.remove(key);
                if (found.isDefined()) {
                    mismatch("find " + key.toolCallId() + ": found a record the model says is gone: " + found.get().status());
                }
                return;
            }
            if (!found.contains(life.record)) {
                mismatch("find " + key.toolCallId() + ": expected " + life.record.status() + ", found "
                        + found.map(r -> r.status().name()).getOrElse("nothing"));
            }
            if (found.isDefined()) {
                checkTransition(key, life, found);
            }
        }

        private void passTime() {
            counts.expiries++;
            if (clock.isDefined()) {
                Duration[] moves = {Duration.ofMillis(1), Duration.ofMillis(500), Duration.ofSeconds(1),
                    Duration.ofSeconds(5), Duration.ofSeconds(31), Duration.ofMinutes(11)};
                clock.get().advance(moves[random.nextInt(moves.length)]);
                return;
            }
            InvocationKey key = keys.get(random.nextInt(KEYS));
            counts.outcome("expire:time-passes");
            expire(key);
            lives.remove(key);
        }

        // -- checks -------------------------------------------------------------------------------

        private void checkTtl(InvocationKey key) {
            Instant before = now();
            Option<Duration> remaining = remainingTtl(key);
            Instant after = now();
            Life life = lives.get(key);
            State state = life == null ? State.GONE : state(life.expiry, before, after);
            if (state == State.GONE || (state == State.UNSURE && remaining.isEmpty())) {
                lives.remove(key);
                if (remaining.isDefined()) {
                    mismatch("ttl " + key.toolCallId() + ": a record the model says is gone has " + remaining.get());
                }
                return;
            }
            if (remaining.isEmpty()) {
                mismatch("ttl " + key.toolCallId() + ": no TTL on a live record");
                return;
            }
            Duration left = remaining.get();
            boolean grew = left.compareTo(life.ttl) > 0 || life.lastTtl.exists(last -> left.compareTo(last) > 0);
            if (clock.isDefined() && !left.equals(Duration.between(before, life.expiry.latest()))) {
                mismatch("ttl " + key.toolCallId() + ": " + left + " left, the model says "
                        + Duration.between(before, life.expiry.latest()));
            }
            if (grew) {
                counts.ttlGrowths++;
                counts.finding(where() + "ttl of " + key.toolCallId() + " grew to " + left + " after " + life.lastTtl);
            }
            life.lastTtl = Option.of(left);
        }

        private void checkTransition(InvocationKey key, Life life, Option<CanonicalRecord> found) {
            CanonicalRecord now = found.get();
            if (life.lastSeen.isEmpty()) {
                if (!(now instanceof CanonicalRecord.Projecting)) {
                    illegal(key, "a new record is " + now.status());
                }
            } else {
                CanonicalRecord last = life.lastSeen.get();
                boolean legal = last.equals(now)
                        || (last instanceof CanonicalRecord.Projecting && now instanceof CanonicalRecord.Final
                        && last.tool().equals(now.tool()) && last.request().equals(now.request())
                        && last.requestFingerprint().equals(now.requestFingerprint())
                        && last.createdAt().equals(now.createdAt()));
                if (!legal) {
                    illegal(key, last.status() + " became " + now.status()
                            + (last instanceof CanonicalRecord.Final ? " (a final record changed)" : ""));
                }
            }
            life.lastSeen = found;
        }

        private void illegal(InvocationKey key, String what) {
            counts.illegalTransitions++;
            counts.finding(where() + "illegal transition of " + key.toolCallId() + ": " + what);
        }

        private <T> void compare(String what, Either<BoundaryError, T> expected, Either<BoundaryError, T> actual) {
            if (!expected.equals(actual)) {
                mismatch(what + ": expected " + show(expected) + ", got " + show(actual));
            }
        }

        private void mismatch(String what) {
            counts.mismatches++;
            counts.finding(where() + what);
        }

        private String where() {
            return "sequence " + number + " step " + step + ": ";
        }

        // -- time ---------------------------------------------------------------------------------

        private Instant now() {
            return clock.isDefined() ? clock.get().instant() : Instant.now();
        }

        private Expiry expiryOf(Instant before, Instant after, Duration ttl) {
            return clock.isDefined()
                    ? new Expiry(before.plus(ttl), before.plus(ttl))
                    : new Expiry(before.plus(ttl).minus(SLACK), after.plus(ttl).plus(SLACK));
        }

        /** Whether something with this expiry lives for the whole of [from, to]. */
        private State state(Expiry expiry, Instant from, Instant to) {
            if (to.isBefore(expiry.earliest())) {
                return State.LIVE;
            }
            return from.isBefore(expiry.latest()) ? State.UNSURE : State.GONE;
        }

        /**
         * Brings the model up to date for {@code key} before a write: a life that has ended is dropped;
         * one that could end while the write runs is ended now, so that the write's outcome is certain.
         */
        private Instant settleBeforeWrite(InvocationKey key) {
            Instant before = now();
            Life life = lives.get(key);
            if (life != null) {
                State state = state(life.expiry, before, clock.isDefined() ? before : before.plus(WRITE_GUARD));
                if (state == State.UNSURE) {
                    counts.outcome("expire:before-write");
                    expire(key);
                    counts.expiries++;
                    before = now();
                }
                if (state != State.LIVE) {
                    lives.remove(key);
                }
            }
            return before;
        }

        private void checkWriteInTime(InvocationKey key, Life life, Instant after) {
            if (life != null && !clock.isDefined() && !after.isBefore(life.expiry.earliest())) {
                throw new IllegalStateException("a write on " + key.toolCallId() + " took longer than " + WRITE_GUARD
                        + "; the model cannot tell whether the record ended during it");
            }
        }

        private Duration chooseTtl(ToolName tool) {
            if (clock.isDefined()) {
                Duration[] ttls = {Duration.ofSeconds(1), Duration.ofSeconds(3), Duration.ofSeconds(10),
                    Duration.ofSeconds(60), LONG_TTL};
                return ttls[random.nextInt(ttls.length)];
            }
            // Counters take the TTL of the record that creates them: keep them long, so that budgets
            // never end while a sequence runs on a store with its own clock.
            if (!counters.containsKey("run") || !counters.containsKey("tool:" + tool.value())) {
                return LONG_TTL;
            }
            return switch (random.nextInt(5)) {
                case 0, 1 -> Duration.ofMillis(1 + random.nextInt(20));
                case 2 -> MEDIUM_TTL;
                default -> LONG_TTL;
            };
        }

        private long used(String counter, Instant at) {
            Counter count = counters.get(counter);
            if (count == null) {
                return 0;
            }
            State state = state(count.expiry, at, at);
            if (state == State.GONE) {
                counters.remove(counter);
                return 0;
            }
            if (state == State.UNSURE) {
                throw new IllegalStateException("a budget counter may have ended; the model keeps them long");
            }
            return count.used;
        }

        private void reserve(String counter, Expiry expiry, Instant at) {
            used(counter, at);
            counters.computeIfAbsent(counter, c -> new Counter(expiry)).used++;
        }

        // -- data ---------------------------------------------------------------------------------

        private Attempt nextAttempt() {
            int choice = random.nextInt(10);
            Attempt attempt;
            if (!attempts.isEmpty() && choice < 2) {
                attempt = attempts.get(random.nextInt(attempts.size()));
            } else if (!attempts.isEmpty() && choice < 4) {
                Attempt other = attempts.get(random.nextInt(attempts.size()));
                attempt = new Attempt(other.token, newRecord(keys.get(random.nextInt(KEYS))));
                attempts.add(attempt);
            } else {
                attempt = new Attempt(AttemptToken.random(), newRecord(keys.get(random.nextInt(KEYS))));
                attempts.add(attempt);
            }
            return attempt;
        }

        private CanonicalRecord.Projecting newRecord(InvocationKey key) {
            String fingerprint = FINGERPRINTS.get(random.nextInt(FINGERPRINTS.size()));
            ToolName tool = TOOLS.get(random.nextInt(TOOLS.size()));
            return new CanonicalRecord.Projecting(key, tool, "{\"q\":\"" + fingerprint + "\"}", fingerprint, nextStamp());
        }

        /**
         * The record an outcome completes. A token that began the live record under the key completes
         * that very record (the token proves it, so the store never compares the two); any other token
         * may come with the attempt's record or, now and then, a tampered one.
         */
        private CanonicalRecord.Projecting baseOfOutcome(Attempt attempt, AttemptToken token) {
            Life life = lives.get(attempt.record.key());
            if (life != null && life.token.equals(token)) {
                return life.begun;
            }
            return random.nextInt(10) == 0 ? tampered(attempt.record) : attempt.record;
        }

        /** The rules' view of a life: its record, and whether {@code token} began it. */
        private Option<StoreRules.Held> held(Life life, AttemptToken token) {
            return life == null ? Option.none() : Option.some(new StoreRules.Held(life.record, life.token.equals(token)));
        }

        /** Whether {@code outcome} completes {@code record}: the same key, tool, request and creation. */
        private static boolean completes(CanonicalRecord.Final outcome, CanonicalRecord.Projecting record) {
            return outcome.key().equals(record.key()) && outcome.tool().equals(record.tool())
                    && outcome.request().equals(record.request())
                    && outcome.requestFingerprint().equals(record.requestFingerprint())
                    && outcome.createdAt().equals(record.createdAt());
        }

        private CanonicalRecord.Projecting tampered(CanonicalRecord.Projecting record) {
            return switch (random.nextInt(3)) {
                case 0 -> new CanonicalRecord.Projecting(record.key(), record.tool(), record.request() + " ",
                        record.requestFingerprint(), record.createdAt());
                case 1 -> new CanonicalRecord.Projecting(record.key(),
                        TOOLS.get(0).equals(record.tool()) ? TOOLS.get(1) : TOOLS.get(0), record.request(),
                        record.requestFingerprint(), record.createdAt());
                default -> new CanonicalRecord.Projecting(record.key(), record.tool(), record.request(),
                        record.requestFingerprint(), record.createdAt().plusNanos(1));
            };
        }

        private CanonicalRecord.Final newOutcome(CanonicalRecord.Projecting record) {
            Instant at = nextStamp();
            String raw = "raw " + random.nextInt(1000) + " \u00e9\ud83d\ude00";
            if (random.nextBoolean()) {
                AgentResult result = random.nextBoolean()
                        ? new AgentResult("found " + random.nextInt(100), EvidenceStatus.EVIDENCE_FOUND, Option.none())
                        : new AgentResult("nothing", EvidenceStatus.NO_EVIDENCE, Option.of("scope " + random.nextInt(9)));
                return new CanonicalRecord.Ready(record.key(), record.tool(), record.request(),
                        record.requestFingerprint(), record.createdAt(), at.isBefore(record.createdAt()) ? record.createdAt() : at,
                        raw, result);
            }
            ErrorCode[] codes = {ErrorCode.EXECUTION_FAILED, ErrorCode.PROJECTION_FAILED, ErrorCode.PROJECTION_INVALID,
                ErrorCode.RESULT_TOO_LARGE, ErrorCode.STORE_OUTCOME_UNKNOWN};
            return record.fail(codes[random.nextInt(codes.length)], random.nextBoolean() ? Option.of(raw) : Option.none(), at);
        }

        /** A timestamp for records: the store's clock when the suite moves it, else a strictly growing instant. */
        private Instant nextStamp() {
            stamp++;
            return clock.isDefined()
                    ? clock.get().instant().plusNanos(stamp)
                    : Instant.parse("2031-05-06T07:08:09.123456789Z").plusMillis(stamp).plusNanos(stamp);
        }
    }

    private static <T> Either<BoundaryError, T> refusal(ErrorCode code) {
        return Either.left(BoundaryError.of(code));
    }

    private static String show(Either<BoundaryError, ?> result) {
        if (result.isLeft()) {
            return result.getLeft().code().name();
        }
        return result.get() instanceof CanonicalRecord record
                ? record.status() + "(" + record.key().toolCallId() + ", " + record.requestFingerprint() + ")"
                : String.valueOf(result.get());
    }
}
