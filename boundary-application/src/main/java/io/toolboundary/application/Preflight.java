package io.toolboundary.application;

import io.toolboundary.application.internal.JsonArguments;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Step 1 of a call: the checks made before anything is stored or run, without I/O. Each check is a
 * named function from the call to the error code that refuses it, or none; they run in the order the
 * specification fixes and the first refusal wins, so later checks (the access policy among them) are
 * not consulted. The last check, that the arguments are one JSON object, also yields their fingerprint.
 */
final class Preflight {

    private final Map<ToolName, ToolBinding> tools;
    /** The same tools by their names' text: a registered name is safe, so a call that names one is parsed no further. */
    private final Map<String, ToolBinding> toolsByName;
    private final AccessPolicy accessPolicy;
    private final Clock clock;
    private final long argumentsLimitBytes;
    private final JsonArguments json;
    private final Supplier<AttemptToken> tokens;
    /** The checks in their order, walked by index: no iterator, no intermediate value per call. */
    private final List<Function<Call, Option<ErrorCode>>> checks = List.of(
            this::toolCallIdIsSafe,
            this::runIdIsSafe,
            this::runMatches,
            this::runIsActive,
            this::deadlineIsAhead,
            this::runIsOpened,
            this::toolNameIsSafe,
            this::toolIsRegistered,
            this::accessIsGranted,
            this::toolIsReadOnly,
            this::argumentsFitTheLimit);

    Preflight(Map<ToolName, ToolBinding> tools, AccessPolicy accessPolicy, Clock clock, ToolBoundaryConfig config,
            Supplier<AttemptToken> tokens) {
        this.tools = Map.copyOf(tools);
        this.toolsByName = this.tools.values().stream()
                .collect(Collectors.toUnmodifiableMap(binding -> binding.name().value(), binding -> binding));
        this.accessPolicy = accessPolicy;
        this.clock = clock;
        this.argumentsLimitBytes = config.limits().argumentsBytes();
        this.json = new JsonArguments(config.maxJsonDepth(), config.maxNumberLength(), argumentsLimitBytes);
        this.tokens = tokens;
    }

    /** The registered tools' names; immutable. */
    Set<ToolName> toolNames() {
        return tools.keySet();
    }

    /**
     * Checks a call.
     *
     * @return the admitted call, with the record to create and a fresh attempt token; or the first refusal
     */
    Either<BoundaryError, AdmittedCall> check(RunContext run, ToolCallEnvelope envelope) {
        Call call = new Call(run, envelope);
        for (int i = 0; i < checks.size(); i++) {
            Option<ErrorCode> refusal = checks.get(i).apply(call);
            if (refusal.isDefined()) {
                return Either.left(BoundaryError.of(refusal.get()));
            }
        }
        return argumentsAreOneJsonObject(call);
    }

    private Option<ErrorCode> toolCallIdIsSafe(Call call) {
        return call.toolCallId.swap().toOption().map(BoundaryError::code);
    }

    /** The run's own id is safe; any other is parsed, to tell an unsafe id from another run's. */
    private Option<ErrorCode> runIdIsSafe(Call call) {
        return call.sameRun ? Option.none() : RunId.of(call.envelope.runId()).swap().toOption().map(BoundaryError::code);
    }

    private Option<ErrorCode> runMatches(Call call) {
        return refuseUnless(call.sameRun, ErrorCode.RUN_MISMATCH);
    }

    private Option<ErrorCode> runIsActive(Call call) {
        return refuseUnless(call.run.active(), ErrorCode.RUN_INACTIVE);
    }

    private Option<ErrorCode> deadlineIsAhead(Call call) {
        return refuseUnless(clock.instant().isBefore(call.run.deadline()), ErrorCode.RUN_DEADLINE_EXCEEDED);
    }

    private Option<ErrorCode> runIsOpened(Call call) {
        return refuseUnless(call.run.runToken().isDefined(), ErrorCode.RUN_NOT_OPENED);
    }

    /** A registered tool's name is safe; any other is parsed, to tell an unsafe name from an unknown one. */
    private Option<ErrorCode> toolNameIsSafe(Call call) {
        return call.binding != null ? Option.none()
                : ToolName.of(call.envelope.toolName()).swap().toOption().map(BoundaryError::code);
    }

    private Option<ErrorCode> toolIsRegistered(Call call) {
        return refuseUnless(call.binding != null, ErrorCode.TOOL_NOT_REGISTERED);
    }

    /** A policy that throws denies. */
    private Option<ErrorCode> accessIsGranted(Call call) {
        AccessPolicy.Decision decision;
        try {
            decision = accessPolicy.decide(call.run, call.binding.name());
        } catch (RuntimeException failure) {
            decision = AccessPolicy.Decision.DENIED;
        }
        return refuseUnless(decision == AccessPolicy.Decision.GRANTED, ErrorCode.TOOL_NOT_AUTHORIZED);
    }

    private Option<ErrorCode> toolIsReadOnly(Call call) {
        return refuseUnless(call.binding.readOnly(), ErrorCode.TOOL_NOT_READ_ONLY);
    }

    /**
     * Every UTF-8 character takes at least one byte, so more characters than the limit's bytes are over
     * it without counting; the exact count is the record's, made once, in the last check.
     */
    private Option<ErrorCode> argumentsFitTheLimit(Call call) {
        return refuseUnless(call.arguments().length() <= argumentsLimitBytes, ErrorCode.ARGUMENTS_TOO_LARGE);
    }

    /**
     * The last check: the arguments are one JSON object, within the limit in UTF-8 bytes; on success, the
     * call with its record (created now, which counts the arguments' bytes) and its attempt's token.
     */
    private Either<BoundaryError, AdmittedCall> argumentsAreOneJsonObject(Call call) {
        ToolBinding binding = call.binding;
        InvocationKey key = InvocationKey.of(call.run.runId(), call.toolCallId.get());
        Either<BoundaryError, String> fingerprint = json.fingerprint(binding.name(), call.arguments());
        if (fingerprint.isLeft()) {
            return Either.left(fingerprint.getLeft());
        }
        CanonicalRecord.Projecting record = new CanonicalRecord.Projecting(key, binding.name(), call.arguments(),
                fingerprint.get(), clock.instant());
        if (record.argumentsBytes() > argumentsLimitBytes) {
            return Either.left(BoundaryError.of(ErrorCode.ARGUMENTS_TOO_LARGE));
        }
        return Either.right(new AdmittedCall(new ToolRequest(key, binding.name(), call.arguments()), binding, record,
                tokens.get()));
    }

    private static Option<ErrorCode> refuseUnless(boolean passes, ErrorCode code) {
        return passes ? Option.none() : Option.some(code);
    }

    /**
     * The call under check: the envelope's tool_call_id parsed once, and its run id and tool name compared
     * with the run's and the registered tools' as text, so that only ids that are neither are parsed (by
     * their checks, for the error code). Each is read only after its own check passed.
     */
    private final class Call {
        final RunContext run;
        final ToolCallEnvelope envelope;
        final Either<BoundaryError, ToolCallId> toolCallId;
        /** Whether the envelope names the run's own id; the call then takes the run's {@link RunId}. */
        final boolean sameRun;
        /** The registered tool of that name, looked up once: null when the name is invalid or unknown. */
        final ToolBinding binding;

        Call(RunContext run, ToolCallEnvelope envelope) {
            this.run = run;
            this.envelope = envelope;
            this.toolCallId = ToolCallId.of(envelope.toolCallId());
            this.sameRun = envelope.runId().equals(run.runId().value());
            this.binding = toolsByName.get(envelope.toolName());
        }

        String arguments() {
            return envelope.arguments();
        }
    }
}
