package io.toolboundary.micrometer;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.toolboundary.application.BoundaryListener;
import io.toolboundary.application.ToolBoundaryBuilder;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.ToolName;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Records the boundary's work as Micrometer meters; install it with
 * {@link ToolBoundaryBuilder#listener(BoundaryListener)}. Thread-safe; meters are created on first use.
 *
 * <ul>
 *   <li>{@value #CALLS}, counter, tags {@code tool}, {@code outcome}, {@code evidence}, {@code error.code}:
 *       each call once, when it ends;</li>
 *   <li>{@value #EXECUTION} and {@value #PROJECTION}, timers, tag {@code tool}: each run of a tool's
 *       executor or projector, returned or thrown.</li>
 * </ul>
 * {@code outcome} is {@code ready}, {@code error}, {@code rejected} (refused before the tool ran),
 * {@code store_failed}, {@code internal_error} or {@code replayed}; {@code evidence} and {@code error.code}
 * are {@code none} when absent, so every meter of a name has the same tag keys.
 *
 * <p>No tag holds a run id, tool_call_id, arguments, payload or exception text. A rejected call's tool name is
 * the model's untrusted text, so it is {@value #UNKNOWN_TOOL} unless given to
 * {@link #of(MeterRegistry, Collection)}; {@code store_failed} and internal errors are {@value #UNKNOWN_TOOL}
 * too (the listener is not told their tool).
 */
public final class MicrometerBoundaryListener implements BoundaryListener {

    /** Counter of calls by how they ended. */
    public static final String CALLS = "toolboundary.calls";
    /** Timer of tool executions. */
    public static final String EXECUTION = "toolboundary.execution";
    /** Timer of projections. */
    public static final String PROJECTION = "toolboundary.projection";

    /** Tag key: the tool. */
    public static final String TAG_TOOL = "tool";
    /** Tag key: how the call ended. */
    public static final String TAG_OUTCOME = "outcome";
    /** Tag key: the evidence status. */
    public static final String TAG_EVIDENCE = "evidence";
    /** Tag key: the error code. */
    public static final String TAG_ERROR_CODE = "error.code";

    /** Tool tag value when the tool is not known to be registered. */
    public static final String UNKNOWN_TOOL = "unknown";
    /** Tag value for an absent evidence status or error code. */
    public static final String NONE = "none";

    /** Outcome tag value: the record ended READY. */
    public static final String OUTCOME_READY = "ready";
    /** Outcome tag value: the record ended in ERROR. */
    public static final String OUTCOME_ERROR = "error";
    /** Outcome tag value: the call was refused before its tool ran. */
    public static final String OUTCOME_REJECTED = "rejected";
    /** Outcome tag value: the store did not record the end of the call. */
    public static final String OUTCOME_STORE_FAILED = "store_failed";
    /** Outcome tag value: the boundary closed the call with INTERNAL_ERROR. */
    public static final String OUTCOME_INTERNAL_ERROR = "internal_error";
    /** Outcome tag value: a repeated call was answered from its READY record, the tool not run. */
    public static final String OUTCOME_REPLAYED = "replayed";

    private final MeterRegistry registry;
    private final Set<String> registeredTools;

    private MicrometerBoundaryListener(MeterRegistry registry, Set<String> registeredTools) {
        this.registry = registry;
        this.registeredTools = registeredTools;
    }

    /**
     * {@return a listener tagging every rejected call's tool as {@value #UNKNOWN_TOOL}}
     *
     * @param registry where the meters go
     */
    public static MicrometerBoundaryListener of(MeterRegistry registry) {
        return of(registry, List.of());
    }

    /**
     * A listener that tags a rejected call with its tool name when the name is one of
     * {@code registeredTools}, else {@value #UNKNOWN_TOOL}.
     *
     * @param registry where the meters go
     * @param registeredTools the names of the tools registered with the boundary
     * @throws IllegalArgumentException when a name is not a safe tool name
     * @return the listener
     */
    public static MicrometerBoundaryListener of(MeterRegistry registry, Collection<String> registeredTools) {
        requireNonNull(registry, "registry is null");
        requireNonNull(registeredTools, "registeredTools is null");
        Set<String> names = registeredTools.stream()
                .map(name -> new ToolName(requireNonNull(name, "registeredTools holds null")).value())
                .collect(Collectors.toUnmodifiableSet());
        return new MicrometerBoundaryListener(registry, names);
    }

    @Override
    public void onRejected(ToolCallEnvelope envelope, BoundaryError error) {
        String tool = registeredTools.contains(envelope.toolName()) ? envelope.toolName() : UNKNOWN_TOOL;
        count(tool, OUTCOME_REJECTED, NONE, error.code().name());
    }

    @Override
    public void onCompleted(CanonicalRecord.Final record) {
        String outcome = switch (record.status()) {
            case READY -> OUTCOME_READY;
            case ERROR -> OUTCOME_ERROR;
            case PROJECTING -> throw new IllegalStateException("a final record is never PROJECTING");
        };
        count(record.tool().value(), outcome, record.evidence().map(Enum::name).getOrElse(NONE),
                record.errorCode().map(Enum::name).getOrElse(NONE));
    }

    @Override
    public void onReplayed(CanonicalRecord.Ready record) {
        count(record.tool().value(), OUTCOME_REPLAYED, record.evidence().map(Enum::name).getOrElse(NONE), NONE);
    }

    @Override
    public void onStoreFailed(InvocationKey key, BoundaryError error) {
        count(UNKNOWN_TOOL, OUTCOME_STORE_FAILED, NONE, error.code().name());
    }

    @Override
    public void onUnexpectedFailure(Class<? extends Throwable> failure) {
        count(UNKNOWN_TOOL, OUTCOME_INTERNAL_ERROR, NONE, ErrorCode.INTERNAL_ERROR.name());
    }

    @Override
    public void onExecuted(InvocationKey key, ToolName tool, Duration elapsed) {
        Timer.builder(EXECUTION)
                .description("Time a tool's executor ran, whether it returned or threw")
                .tag(TAG_TOOL, tool.value())
                .register(registry)
                .record(elapsed);
    }

    @Override
    public void onProjected(InvocationKey key, ToolName tool, Duration elapsed) {
        Timer.builder(PROJECTION)
                .description("Time a tool's projector ran, whether it returned or threw")
                .tag(TAG_TOOL, tool.value())
                .register(registry)
                .record(elapsed);
    }

    private void count(String tool, String outcome, String evidence, String errorCode) {
        Counter.builder(CALLS)
                .description("Tool calls through the boundary, counted once when each ends")
                .tag(TAG_TOOL, tool)
                .tag(TAG_OUTCOME, outcome)
                .tag(TAG_EVIDENCE, evidence)
                .tag(TAG_ERROR_CODE, errorCode)
                .register(registry)
                .increment();
    }
}
