package io.toolboundary.tck.reliability;

import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;

import io.toolboundary.application.AttemptToken;
import io.toolboundary.application.InvocationStart;
import io.toolboundary.application.RunOpening;
import io.toolboundary.application.RunToken;
import io.toolboundary.application.StoreErrors;
import io.toolboundary.application.StoreFailure;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.Completion;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RawResponse;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.StoreRules;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import io.toolboundary.tck.store.StoreFixture;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/**
 * One sequence of {@link StoreModelContract}: its own run, random begins, completions, reads and the passing of time,
 * each acted on the store and on the {@link StoreModel} and compared.
 */
final class ModelSequence extends StoreModel {

    private static final int KEYS = 5;
    private static final int GENEROUS = 10_000;
    private static final List<ToolName> TOOLS = List.of(new ToolName("tool_a"), new ToolName("tool_b"));
    private static final List<String> FINGERPRINTS = List.of("fp-alpha", "fp-beta");
    private static final Duration LONG_TTL = Duration.ofMinutes(10);
    private static final Duration MEDIUM_TTL = Duration.ofSeconds(30);

    /** A begin that was tried: its token, the record it wanted (or got), and its last completion. */
    static final class Attempt {
        final AttemptToken token;
        CanonicalRecord.Projecting record;
        Option<CanonicalRecord.Final> lastOutcome = Option.none();

        Attempt(AttemptToken token, CanonicalRecord.Projecting record) {
            this.token = token;
            this.record = record;
        }
    }

    private final Random random;
    private static final RunToken RUN_TOKEN = new RunToken("model-run");
    private static final Duration RUN_TTL = Duration.ofDays(365);

    private final RunId run = new RunId("model-" + UUID.randomUUID());
    private final List<InvocationKey> keys = new ArrayList<>();
    private final List<Attempt> attempts = new ArrayList<>();
    private final int runBudget;
    /** When the run, which holds the budget counters, ends: long after the sequence. */
    private Expiry runExpiry;
    /** The run's ledger: the fingerprint of every call it began, kept as long as the run. */
    private final java.util.Map<InvocationKey, String> begun = new java.util.HashMap<>();
    private long stamp;
    private final int actionsPerSequence;

    ModelSequence(StoreFixture fixture, int actionsPerSequence, Random random, Counts counts, int number) {
        super(fixture, counts, number);
        this.actionsPerSequence = actionsPerSequence;
        this.random = random;
        for (int i = 0; i < KEYS; i++) {
            keys.add(InvocationKey.of(run, new ToolCallId("call-" + i)));
        }
        this.runBudget = 1 + random.nextInt(12);
    }

    private int actionsPerSequence() {
        return actionsPerSequence;
    }

    void run() {
        counts.sequences++;
        // The run outlives every record of the sequence: the model's runs are never lost.
        Instant openedBefore = now();
        Either<StoreFailure, RunToken> opened = store().openRun(new RunOpening(run, RUN_TOKEN, RUN_TTL), TIMEOUT);
        runExpiry = expiryOf(openedBefore, now(), RUN_TTL);
        if (!opened.equals(Either.right(RUN_TOKEN))) {
            counts.unexpected++;
            counts.finding(where() + "openRun answered " + opened);
            return;
        }
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
        InvocationStart start = new InvocationStart(attempt.record, attempt.token, RUN_TOKEN, ttl,
                ttl, budget, toolBudget, Long.MAX_VALUE);

        Instant before = settleBeforeWrite(key);
        Life life = lives.get(key);
        StoreRules.Begin decided = StoreRules.begin(new StoreRules.BeginFacts(
                Option.some(new StoreRules.RunLedger(Option.of(begun.get(key)), used("run", before),
                        used("tool:" + attempt.record.tool().value(), before))),
                held(life, attempt.token), attempt.record.requestFingerprint(), budget, toolBudget));
        boolean creates = decided instanceof StoreRules.Begin.Create;
        Either<StoreFailure, CanonicalRecord.Projecting> expected = decided.fold(
                () -> Either.right(attempt.record), Either::right, refusal -> Either.left(StoreFailure.refused(refusal)));

        counts.outcome("begin:" + (creates ? "created" : expected.isRight() ? "retried" : StoreErrors.code(expected.getLeft())));
        Either<StoreFailure, CanonicalRecord.Projecting> actual = store().begin(start, TIMEOUT);
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
            begun.put(key, attempt.record.requestFingerprint());
            reserve("run", runExpiry, before);
            reserve("tool:" + attempt.record.tool().value(), runExpiry, before);
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
        Either<StoreFailure, CanonicalRecord.Final> decided = StoreRules.complete(held(life, token), outcome.completion())
                .fold(Either::right, Either::right, refusal -> Either.left(StoreFailure.refused(refusal)));
        Either<StoreFailure, Completion> expected = decided.map(CanonicalRecord.Final::completion);

        counts.outcome("complete:" + (expected.isLeft() ? StoreErrors.code(expected.getLeft()).name()
                : life.record instanceof CanonicalRecord.Final ? "repeated" : "applied-" + outcome.status()));
        Either<StoreFailure, Completion> actual = store().complete(key, token, outcome.completion(), TIMEOUT);
        checkWriteInTime(key, life, now());
        compare("complete " + key.toolCallId() + " as " + outcome.status(), expected, actual);
        if (expected.isRight() && actual.isRight()) {
            life.record = decided.get();
        }
        if (token.equals(attempt.token)) {
            attempt.lastOutcome = Option.of(outcome);
        }
    }

    private void find(InvocationKey key) {
        counts.finds++;
        Instant before = now();
        Either<StoreFailure, Option<CanonicalRecord>> actual = store().find(key, TIMEOUT);
        Instant after = now();
        Life life = lives.get(key);
        State state = life == null ? State.GONE : state(life.expiry, before, after);
        if (actual.isLeft()) {
            mismatch("find " + key.toolCallId() + ": " + StoreErrors.code(actual.getLeft()));
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

    private Duration chooseTtl(ToolName tool) {
        if (clock.isDefined()) {
            Duration[] ttls = {Duration.ofSeconds(1), Duration.ofSeconds(3), Duration.ofSeconds(10),
                Duration.ofSeconds(60), LONG_TTL};
            return ttls[random.nextInt(ttls.length)];
        }
        return switch (random.nextInt(5)) {
            case 0, 1 -> Duration.ofMillis(1 + random.nextInt(20));
            case 2 -> MEDIUM_TTL;
            default -> LONG_TTL;
        };
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
     * The record an outcome completes. A token that began the live record under the key completes that very record (the
     * token proves it, so the store never compares the two); any other token may come with the attempt's record or, now
     * and then, a tampered one.
     */
    private CanonicalRecord.Projecting baseOfOutcome(Attempt attempt, AttemptToken token) {
        Life life = lives.get(attempt.record.key());
        if (life != null && life.token.equals(token)) {
            return life.begun;
        }
        return random.nextInt(10) == 0 ? tampered(attempt.record) : attempt.record;
    }

    /** Whether {@code outcome} completes {@code record}: the same key, tool, request and creation. */
    private static boolean completes(CanonicalRecord.Final outcome, CanonicalRecord.Projecting record) {
        return outcome.key().equals(record.key()) && outcome.tool().equals(record.tool())
                && outcome.arguments().equals(record.arguments())
                && outcome.requestFingerprint().equals(record.requestFingerprint())
                && outcome.createdAt().equals(record.createdAt());
    }

    private CanonicalRecord.Projecting tampered(CanonicalRecord.Projecting record) {
        return switch (random.nextInt(3)) {
            case 0 -> new CanonicalRecord.Projecting(record.key(), record.tool(), record.arguments() + " ",
                    record.requestFingerprint(), record.createdAt());
            case 1 -> new CanonicalRecord.Projecting(record.key(),
                    TOOLS.get(0).equals(record.tool()) ? TOOLS.get(1) : TOOLS.get(0), record.arguments(),
                    record.requestFingerprint(), record.createdAt());
            default -> new CanonicalRecord.Projecting(record.key(), record.tool(), record.arguments(),
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
            return record.complete(new Completion.Succeeded(raw, result,
                    at.isBefore(record.createdAt()) ? record.createdAt() : at));
        }
        ErrorCode[] codes = {ErrorCode.EXECUTION_FAILED, ErrorCode.PROJECTION_FAILED, ErrorCode.PROJECTION_INVALID,
            ErrorCode.RESULT_TOO_LARGE, ErrorCode.STORE_OUTCOME_UNKNOWN};
        return record.failed(codes[random.nextInt(codes.length)],
                random.nextBoolean() ? Option.of(RawResponse.of(raw).get()) : Option.none(), at);
    }

    /** A timestamp for records: the store's clock when the suite moves it, else a strictly growing instant. */
    private Instant nextStamp() {
        stamp++;
        return clock.isDefined()
                ? clock.get().instant().plusNanos(stamp)
                : Instant.parse("2031-05-06T07:08:09.123456789Z").plusMillis(stamp).plusNanos(stamp);
    }
}
