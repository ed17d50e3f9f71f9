package io.toolboundary.application;

import io.toolboundary.application.json.JsonArguments;
import io.toolboundary.application.spi.AttemptToken;
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
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Step 1 of a call: the checks made before anything is stored or run, without I/O. The checks run in
 * the order the specification fixes and the first refusal wins, so later checks (the access policy
 * among them) are not consulted. The last check, that the arguments are one JSON object, also yields
 * their fingerprint.
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

    /** {@return the admitted call, with the record to create and a fresh attempt token; or the first refusal} */
    Either<BoundaryError, AdmittedCall> check(RunContext run, ToolCallEnvelope envelope) {
        Call call = new Call(run, envelope);
        Option<ErrorCode> refusal = firstRefusal(call);
        return refusal.isDefined() ? Either.left(error(refusal.get())) : argumentsAreOneJsonObject(call);
    }

    /** The agent's error for a refusal before the parse: arguments over the limit name the limit, as after it. */
    private BoundaryError error(ErrorCode code) {
        return code == ErrorCode.ARGUMENTS_TOO_LARGE ? BoundaryError.overLimit(code, argumentsLimitBytes)
                : BoundaryError.of(code);
    }

    /**
     * The checks before the arguments' parse, in their order: the first refusal, or none. An unsafe run
     * id or tool name is told apart from another run's or an unknown tool only when the call names
     * neither the run's own nor a registered one (those are safe and parsed no further).
     */
    private Option<ErrorCode> firstRefusal(Call call) {
        if (call.toolCallId.isLeft()) {
            return Option.some(call.toolCallId.getLeft().code());
        }
        if (!call.sameRun) {
            Either<BoundaryError, RunId> runId = RunId.of(call.envelope.runId());
            return Option.some(runId.isLeft() ? runId.getLeft().code() : ErrorCode.RUN_MISMATCH);
        }
        if (!call.run.active()) {
            return Option.some(ErrorCode.RUN_INACTIVE);
        }
        if (!clock.instant().isBefore(call.run.deadline())) {
            return Option.some(ErrorCode.RUN_DEADLINE_EXCEEDED);
        }
        if (call.run.runToken().isEmpty()) {
            return Option.some(ErrorCode.RUN_NOT_OPENED);
        }
        if (call.binding == null) {
            Either<BoundaryError, ToolName> tool = ToolName.of(call.envelope.toolName());
            return Option.some(tool.isLeft() ? tool.getLeft().code() : ErrorCode.TOOL_NOT_REGISTERED);
        }
        if (!accessIsGranted(call)) {
            return Option.some(ErrorCode.TOOL_NOT_AUTHORIZED);
        }
        if (!call.binding.readOnly()) {
            return Option.some(ErrorCode.TOOL_NOT_READ_ONLY);
        }
        return argumentsFitTheLimit(call) ? Option.none() : Option.some(ErrorCode.ARGUMENTS_TOO_LARGE);
    }

    /** A policy that throws denies. */
    private boolean accessIsGranted(Call call) {
        try {
            return accessPolicy.allows(call.run, call.binding.name());
        } catch (RuntimeException failure) {
            return false;
        }
    }

    /**
     * Every UTF-8 character takes at least one byte, so more characters than the limit's bytes are over
     * it without counting; the exact count is the record's, made once, in the last check.
     */
    private boolean argumentsFitTheLimit(Call call) {
        return call.arguments().length() <= argumentsLimitBytes;
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
            return Either.left(BoundaryError.overLimit(ErrorCode.ARGUMENTS_TOO_LARGE, argumentsLimitBytes));
        }
        return Either.right(new AdmittedCall(new ToolRequest(key, binding.name(), call.arguments()), binding, binding.executor(), record,
                tokens.get()));
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
