package io.toolboundary.adapter.inmemory;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.InvocationStart;
import io.toolboundary.application.spi.RunOpening;
import io.toolboundary.application.spi.RunToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import io.toolboundary.testkit.MutableClock;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import java.util.function.UnaryOperator;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;

/**
 * The store's operations as Lincheck calls them, on a key space small enough for races to meet: one run
 * (opened with token 1 before the operations start), two tool_call_ids, two tools, two attempts, and the
 * store's clock moved one tick at a time. Every answer is reduced to a string ({@code PROJECTING:search},
 * {@code READY:fetch}, {@code ERROR:search:EXECUTION_ABANDONED}, a refusal's name, {@code NONE}, a run token)
 * that {@link StoreModel} gives too.
 */
@Param(name = "call", gen = IntGen.class, conf = "0:1")
@Param(name = "tool", gen = IntGen.class, conf = "0:1")
@Param(name = "attempt", gen = IntGen.class, conf = "1:2")
@Param(name = "token", gen = IntGen.class, conf = "1:2")
public class StoreOperations {

    /** The store clock's first reading; also every record's {@code createdAt} and {@code updatedAt}. */
    static final Instant START = Instant.parse("2031-01-01T00:00:00Z");
    /** How far {@link #advance()} moves the store's clock. */
    static final Duration TICK = Duration.ofSeconds(10);
    /** A record's execution lease, in ticks. */
    static final int LEASE_TICKS = 1;
    /** A record's time to live, in ticks. */
    static final int RECORD_TTL_TICKS = 2;
    /** A run state's time to live, in ticks. */
    static final int RUN_TTL_TICKS = 3;
    /** Records the run may create in all. */
    static final int RUN_BUDGET = 2;
    /** Records the run may create per tool. */
    static final int TOOL_BUDGET = 1;
    /** The tool_call_ids, by the {@code call} parameter. */
    static final String[] CALLS = {"call-a", "call-b"};
    /** The tools, by the {@code tool} parameter; a call's request fingerprint is its tool's. */
    static final String[] TOOLS = {"search", "fetch"};
    /** The code {@link #end} ends a record with. */
    static final ErrorCode END_CODE = ErrorCode.STORE_OUTCOME_UNKNOWN;
    /** The run token every begin carries: the one the run was opened with first. */
    static final int BEGIN_RUN_TOKEN = 1;
    /** The answer of a read that finds no live record. */
    static final String NONE = "NONE";

    private static final RunId RUN = new RunId("run-1");
    private static final String ARGUMENTS = "{\"q\":1}";
    private static final Duration TIMEOUT = Duration.ofSeconds(1);
    private static final long RECORD_LIMIT = 1 << 20;
    private static final Duration RUN_TTL = TICK.multipliedBy(RUN_TTL_TICKS);
    private static final Duration RECORD_TTL = TICK.multipliedBy(RECORD_TTL_TICKS);
    private static final Duration LEASE = TICK.multipliedBy(LEASE_TICKS);
    private static final AgentResult FOUND = new AgentResult("found", EvidenceStatus.EVIDENCE_FOUND, Option.none());
    // Every value an operation passes is made once, here, so that the operations themselves only call the store.
    private static final InvocationKey[] KEYS = new InvocationKey[CALLS.length];
    private static final CanonicalRecord.Projecting[][] REQUESTS = new CanonicalRecord.Projecting[CALLS.length][];
    private static final CanonicalRecord.Ready[][] READY = new CanonicalRecord.Ready[CALLS.length][];
    /** Attempt tokens by number, 1 and 2. */
    private static final AttemptToken[] ATTEMPTS = {null, new AttemptToken("attempt-1"), new AttemptToken("attempt-2")};
    /** Run tokens by number, 1 and 2. */
    private static final RunToken[] RUN_TOKENS = {null, new RunToken("1"), new RunToken("2")};

    static {
        for (int call = 0; call < CALLS.length; call++) {
            KEYS[call] = new InvocationKey(RUN, new ToolCallId(CALLS[call]));
            REQUESTS[call] = new CanonicalRecord.Projecting[TOOLS.length];
            READY[call] = new CanonicalRecord.Ready[TOOLS.length];
            for (int tool = 0; tool < TOOLS.length; tool++) {
                REQUESTS[call][tool] = new CanonicalRecord.Projecting(KEYS[call], new ToolName(TOOLS[tool]), ARGUMENTS,
                        "fp-" + TOOLS[tool], START);
                READY[call][tool] = REQUESTS[call][tool].ready("raw", FOUND, START);
            }
        }
    }

    private final MutableClock clock = MutableClock.at(START);
    private final CanonicalInvocationStore store;

    /** Drives a fresh in-memory store. */
    public StoreOperations() {
        this(UnaryOperator.identity());
    }

    /**
     * Drives a fresh in-memory store as {@code wrap} wraps it.
     *
     * @param wrap what the operations call in place of the store
     */
    protected StoreOperations(UnaryOperator<CanonicalInvocationStore> wrap) {
        store = wrap.apply(InMemoryCanonicalInvocationStore.create(clock));
        openRun(BEGIN_RUN_TOKEN);
    }

    /**
     * Opens the run, offering run token {@code token}.
     *
     * @param token 1 or 2
     * @return the run's token number, or the failure
     */
    @Operation
    public String openRun(@Param(name = "token") int token) {
        Either<StoreFailure, RunToken> opened = store.openRun(new RunOpening(RUN, runToken(token), RUN_TTL), TIMEOUT);
        return opened.fold(StoreOperations::failure, RunToken::value);
    }

    /**
     * Begins {@code call} of {@code tool} as attempt {@code attempt}, under the run's first token.
     *
     * @param call 0 or 1
     * @param tool 0 or 1
     * @param attempt 1 or 2
     * @return the PROJECTING record answered, or the failure
     */
    @Operation
    public String begin(@Param(name = "call") int call, @Param(name = "tool") int tool,
            @Param(name = "attempt") int attempt) {
        InvocationStart start = new InvocationStart(request(call, tool), attempt(attempt), runToken(BEGIN_RUN_TOKEN),
                RECORD_TTL, LEASE, RUN_BUDGET, TOOL_BUDGET, RECORD_LIMIT);
        return answer(store.begin(start, TIMEOUT));
    }

    /**
     * Completes {@code call}, begun for {@code tool}, as READY, by attempt {@code attempt}.
     *
     * @param call 0 or 1
     * @param tool 0 or 1
     * @param attempt 1 or 2
     * @return the final record answered, or the failure
     */
    @Operation
    public String complete(@Param(name = "call") int call, @Param(name = "tool") int tool,
            @Param(name = "attempt") int attempt) {
        return answer(store.complete(attempt(attempt), READY[call][tool], TIMEOUT));
    }

    /**
     * Ends {@code call} in ERROR by attempt {@code attempt}'s token alone.
     *
     * @param call 0 or 1
     * @param attempt 1 or 2
     * @return the final record answered, or the failure
     */
    @Operation
    public String end(@Param(name = "call") int call, @Param(name = "attempt") int attempt) {
        return answer(store.end(key(call), attempt(attempt), END_CODE, START, TIMEOUT));
    }

    /**
     * Abandons {@code call} when its lease has passed.
     *
     * @param call 0 or 1
     * @return the ERROR record answered, or the failure
     */
    @Operation
    public String abandon(@Param(name = "call") int call) {
        return answer(store.abandon(key(call), START, TIMEOUT));
    }

    /**
     * Reads {@code call}.
     *
     * @param call 0 or 1
     * @return the live record, {@link #NONE}, or the failure
     */
    @Operation
    public String find(@Param(name = "call") int call) {
        return store.find(key(call), TIMEOUT).fold(StoreOperations::failure,
                held -> held.map(StoreOperations::describe).getOrElse(NONE));
    }

    /** Moves the store's clock one {@link #TICK} forward. */
    @Operation
    public void advance() {
        clock.advance(TICK);
    }

    /** {@return the reduced answer: the record's description, or the failure's} */
    static String answer(Either<StoreFailure, ? extends CanonicalRecord> answer) {
        return answer.fold(StoreOperations::failure, StoreOperations::describe);
    }

    /** {@return the refusal's name, else the failure's kind} */
    static String failure(StoreFailure failure) {
        return failure.refusal().map(Enum::name).getOrElse(() -> failure.kind().name());
    }

    /** {@return status and tool, and the error code when there is one} */
    static String describe(CanonicalRecord record) {
        String described = record.status().name() + ":" + record.tool().value();
        return record.errorCode().map(code -> described + ":" + code.name()).getOrElse(described);
    }

    private static InvocationKey key(int call) {
        return KEYS[call];
    }

    private static CanonicalRecord.Projecting request(int call, int tool) {
        return REQUESTS[call][tool];
    }

    private static AttemptToken attempt(int attempt) {
        return ATTEMPTS[attempt];
    }

    private static RunToken runToken(int token) {
        return RUN_TOKENS[token];
    }
}
