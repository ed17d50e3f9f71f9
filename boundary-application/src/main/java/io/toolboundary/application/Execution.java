package io.toolboundary.application;

import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.Limits;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.RawResponse;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Clock;
import java.util.concurrent.Callable;

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

    /**
     * Step 3: runs the tool once; a tool that throws ends the record in {@code EXECUTION_FAILED}, keeping
     * the output of a {@link ToolFailure} when it passes the raw response's checks.
     */
    Either<CanonicalRecord.Failed, String> execute(AdmittedCall call) {
        ToolRequest request = call.request();
        Callable<String> work = () -> call.binding().executor().execute(request);
        Either<Throwable, String> executed = diagnostics.quiet() ? diagnostics.untimed(work)
                : diagnostics.timed(work, elapsed -> listener.onExecuted(request.key(), request.tool(), elapsed));
        if (executed.isRight()) {
            return Either.right(executed.get());
        }
        Throwable failure = executed.getLeft();
        listener.onToolFailed(request.key(), request.tool(), failure.getClass());
        if (failure instanceof ToolFailure reported) {
            Either<CanonicalRecord.Failed, RawResponse> output = checkRawResponse(call, reported.output());
            return Either.left(output.isLeft() ? failed(call, ErrorCode.EXECUTION_FAILED)
                    : keeping(call, ErrorCode.EXECUTION_FAILED, output.get()));
        }
        return Either.left(failed(call, ErrorCode.EXECUTION_FAILED));
    }

    /**
     * Step 4: the raw response must be there, be Unicode, and fit both its own limit and the room the
     * record has left. It is measured here, once; the record and the store use that count.
     */
    Either<CanonicalRecord.Failed, RawResponse> checkRawResponse(AdmittedCall call, String rawResponse) {
        if (rawResponse == null) {
            return Either.left(failed(call, ErrorCode.EXECUTION_FAILED));
        }
        Either<BoundaryError, RawResponse> checked = RawResponse.of(rawResponse);
        if (checked.isLeft()) {
            return Either.left(failed(call, checked.getLeft().code()));
        }
        long roomInRecord = limits.recordBytes() - call.record().byteSize();
        if (checked.get().byteSize() > Math.min(limits.rawResponseBytes(), roomInRecord)) {
            return Either.left(failed(call, ErrorCode.RESULT_TOO_LARGE));
        }
        return Either.right(checked.get());
    }

    /**
     * Step 5: projects the checked raw response into the READY record; a projector that throws, returns
     * nothing or returns a result the limits refuse ends the record in ERROR with the raw response kept.
     */
    Either<CanonicalRecord.Failed, CanonicalRecord.Ready> project(AdmittedCall call, RawResponse rawResponse) {
        ToolRequest request = call.request();
        Callable<Projection> work = () -> call.binding().projector().project(request, rawResponse.text());
        Either<Throwable, Projection> projected = diagnostics.quiet() ? diagnostics.untimed(work)
                : diagnostics.timed(work, elapsed -> listener.onProjected(request.key(), request.tool(), elapsed));
        if (projected.isLeft()) {
            listener.onProjectorFailed(request.key(), request.tool(), projected.getLeft().getClass());
            return Either.left(keeping(call, ErrorCode.PROJECTION_FAILED, rawResponse));
        }
        if (projected.get() == null) {
            return Either.left(keeping(call, ErrorCode.PROJECTION_INVALID, rawResponse));
        }
        Either<BoundaryError, AgentResult> result = AgentResult.of(projected.get(), limits.agentResultBytes());
        Either<BoundaryError, CanonicalRecord.Ready> ready = result.isRight()
                ? call.record().ready(rawResponse, result.get(), clock.instant(), limits)
                : Either.left(result.getLeft());
        return ready.isRight() ? Either.right(ready.get()) : Either.left(keeping(call, ready.getLeft().code(), rawResponse));
    }

    private CanonicalRecord.Failed keeping(AdmittedCall call, ErrorCode code, RawResponse rawResponse) {
        return call.record().failed(code, Option.some(rawResponse), clock.instant());
    }

    private CanonicalRecord.Failed failed(AdmittedCall call, ErrorCode code) {
        return call.record().failed(code, Option.none(), clock.instant());
    }
}
