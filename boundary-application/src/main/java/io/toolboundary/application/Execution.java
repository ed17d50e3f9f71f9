package io.toolboundary.application;

import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.Limits;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.Utf8;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Clock;

/**
 * Steps 3 to 5 of a call whose record the store confirmed: run the tool, check its raw response, project
 * it. Each step either passes its value on or stops the call with the ERROR record to complete, keeping
 * the raw response once it has been checked.
 */
final class Execution {

    private final Clock clock;
    private final Limits limits;
    private final Diagnostics diagnostics;
    private final BoundaryListener listener;

    Execution(Clock clock, Limits limits, Diagnostics diagnostics) {
        this.clock = clock;
        this.limits = limits;
        this.diagnostics = diagnostics;
        this.listener = diagnostics.listener();
    }

    /** Step 3: runs the tool once; a tool that throws ends the record in {@code EXECUTION_FAILED}. */
    Either<CanonicalRecord.Failed, String> execute(AdmittedCall call) {
        ToolRequest request = call.request();
        return diagnostics.timed(() -> call.binding().executor().execute(request),
                        elapsed -> listener.onExecuted(request.key(), request.tool(), elapsed))
                .peekLeft(failure -> listener.onToolFailed(request.key(), request.tool(), failure.getClass()))
                .mapLeft(failure -> failed(call, ErrorCode.EXECUTION_FAILED, Option.none()));
    }

    /**
     * Step 4: the raw response must be there, be Unicode, and fit both its own limit and the room the
     * record has left.
     */
    Either<CanonicalRecord.Failed, String> checkRawResponse(AdmittedCall call, String rawResponse) {
        if (rawResponse == null) {
            return Either.left(failed(call, ErrorCode.EXECUTION_FAILED, Option.none()));
        }
        long bytes = Utf8.wellFormedByteLength(rawResponse);
        if (bytes < 0) {
            return Either.left(failed(call, ErrorCode.TEXT_NOT_UNICODE, Option.none()));
        }
        long roomInRecord = limits.recordBytes() - call.record().byteSize();
        if (bytes > Math.min(limits.rawResponseBytes(), roomInRecord)) {
            return Either.left(failed(call, ErrorCode.RESULT_TOO_LARGE, Option.none()));
        }
        return Either.right(rawResponse);
    }

    /**
     * Step 5: projects the checked raw response into the READY record; a projector that throws, returns
     * nothing or returns a result the limits refuse ends the record in ERROR with the raw response kept.
     */
    Either<CanonicalRecord.Failed, CanonicalRecord.Ready> project(AdmittedCall call, String rawResponse) {
        ToolRequest request = call.request();
        Option<String> kept = Option.of(rawResponse);
        Either<Throwable, Projection> projected = diagnostics.timed(
                () -> call.binding().projector().project(request, rawResponse),
                elapsed -> listener.onProjected(request.key(), request.tool(), elapsed));
        if (projected.isLeft()) {
            listener.onProjectorFailed(request.key(), request.tool(), projected.getLeft().getClass());
            return Either.left(failed(call, ErrorCode.PROJECTION_FAILED, kept));
        }
        if (projected.get() == null) {
            return Either.left(failed(call, ErrorCode.PROJECTION_INVALID, kept));
        }
        return AgentResult.of(projected.get(), limits.agentResultBytes())
                .flatMap(result -> call.record().ready(rawResponse, result, clock.instant(), limits))
                .mapLeft(refused -> failed(call, refused.code(), kept));
    }

    private CanonicalRecord.Failed failed(AdmittedCall call, ErrorCode code, Option<String> rawResponse) {
        return call.record().fail(code, rawResponse, clock.instant());
    }
}
