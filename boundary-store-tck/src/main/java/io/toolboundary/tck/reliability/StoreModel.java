package io.toolboundary.tck.reliability;

import io.toolboundary.application.AttemptToken;
import io.toolboundary.application.CanonicalInvocationStore;
import io.toolboundary.application.StoreErrors;
import io.toolboundary.application.StoreFailure;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.StoreRules;
import io.toolboundary.tck.store.StoreFixture;
import io.toolboundary.testkit.MutableClock;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The reference model of one sequence of {@link StoreModelContract}: the lives of records, the budget counters and
 * their expiry windows as the domain's rules predict them, and the checks of the store's answers against them.
 */
abstract class StoreModel {

    /** How far the store's own clock may be from this JVM's when it keeps its own time. */
    private static final Duration SLACK = Duration.ofMillis(5);
    /** A write never runs on a record that could end within this time: the record is ended first. */
    private static final Duration WRITE_GUARD = Duration.ofSeconds(1);

    /** What the run found; only the first findings are quoted. */
    static final class Counts {
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
    record Expiry(Instant earliest, Instant latest) {
    }

    /** One life of a record in the model. */
    static final class Life {
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
    static final class Counter {
        long used;
        final Expiry expiry;

        Counter(Expiry expiry) {
            this.expiry = expiry;
        }
    }

    enum State { LIVE, GONE, UNSURE }

    final StoreFixture fixture;
    final Counts counts;
    final int number;
    final Map<InvocationKey, Life> lives = new HashMap<>();
    final Map<String, Counter> counters = new HashMap<>();
    final Option<MutableClock> clock;
    int step;

    StoreModel(StoreFixture fixture, Counts counts, int number) {
        this.fixture = fixture;
        this.counts = counts;
        this.number = number;
        this.clock = fixture.storeClock();
    }

    // -- hooks of the fixture -----------------------------------------------------------------------

    CanonicalInvocationStore store() {
        return fixture.store();
    }

    Option<Duration> remainingTtl(InvocationKey key) {
        return fixture.remainingTtl(key);
    }

    void expire(InvocationKey key) {
        fixture.expire(key);
    }

    // -- checks -------------------------------------------------------------------------------

    void checkTtl(InvocationKey key) {
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

    void checkTransition(InvocationKey key, Life life, Option<CanonicalRecord> found) {
        CanonicalRecord now = found.get();
        if (life.lastSeen.isEmpty()) {
            if (!(now instanceof CanonicalRecord.Projecting)) {
                illegal(key, "a new record is " + now.status());
            }
        } else {
            CanonicalRecord last = life.lastSeen.get();
            boolean legal = last.equals(now)
                    || (last instanceof CanonicalRecord.Projecting && now instanceof CanonicalRecord.Final
                    && last.tool().equals(now.tool()) && last.arguments().equals(now.arguments())
                    && last.requestFingerprint().equals(now.requestFingerprint())
                    && last.createdAt().equals(now.createdAt()));
            if (!legal) {
                illegal(key, last.status() + " became " + now.status()
                        + (last instanceof CanonicalRecord.Final ? " (a final record changed)" : ""));
            }
        }
        life.lastSeen = found;
    }

    void illegal(InvocationKey key, String what) {
        counts.illegalTransitions++;
        counts.finding(where() + "illegal transition of " + key.toolCallId() + ": " + what);
    }

    <T> void compare(String what, Either<StoreFailure, T> expected, Either<StoreFailure, T> actual) {
        if (!expected.equals(actual)) {
            mismatch(what + ": expected " + show(expected) + ", got " + show(actual));
        }
    }

    void mismatch(String what) {
        counts.mismatches++;
        counts.finding(where() + what);
    }

    String where() {
        return "sequence " + number + " step " + step + ": ";
    }

    // -- time ---------------------------------------------------------------------------------

    Instant now() {
        return clock.isDefined() ? clock.get().instant() : Instant.now();
    }

    Expiry expiryOf(Instant before, Instant after, Duration ttl) {
        return clock.isDefined()
                ? new Expiry(before.plus(ttl), before.plus(ttl))
                : new Expiry(before.plus(ttl).minus(SLACK), after.plus(ttl).plus(SLACK));
    }

    /** Whether something with this expiry lives for the whole of [from, to]. */
    State state(Expiry expiry, Instant from, Instant to) {
        if (to.isBefore(expiry.earliest())) {
            return State.LIVE;
        }
        return from.isBefore(expiry.latest()) ? State.UNSURE : State.GONE;
    }

    /**
     * Brings the model up to date for {@code key} before a write: a life that has ended is dropped; one that could end
     * while the write runs is ended now, so that the write's outcome is certain.
     */
    Instant settleBeforeWrite(InvocationKey key) {
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

    void checkWriteInTime(InvocationKey key, Life life, Instant after) {
        if (life != null && !clock.isDefined() && !after.isBefore(life.expiry.earliest())) {
            throw new IllegalStateException("a write on " + key.toolCallId() + " took longer than " + WRITE_GUARD
                    + "; the model cannot tell whether the record ended during it");
        }
    }

    long used(String counter, Instant at) {
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

    void reserve(String counter, Expiry expiry, Instant at) {
        used(counter, at);
        counters.computeIfAbsent(counter, c -> new Counter(expiry)).used++;
    }

    /** The rules' view of a life: its record, and whether {@code token} began it. */
    Option<StoreRules.Held> held(Life life, AttemptToken token) {
        return life == null ? Option.none() : Option.some(new StoreRules.Held(life.record, life.token.equals(token)));
    }

    private static String show(Either<StoreFailure, ?> result) {
        if (result.isLeft()) {
            return StoreErrors.code(result.getLeft()).name();
        }
        return result.get() instanceof CanonicalRecord record
                ? record.status() + "(" + record.key().toolCallId() + ", " + record.requestFingerprint() + ")"
                : String.valueOf(result.get());
    }
}
