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

/**
 * Steps 3 to 5 of a call whose record the store confirmed: run the tool, check its raw response, project
 * it. Each step either passes its value on as it got it or stops the call with the ERROR record to
 * complete, keeping the raw response once it has been checked.
 */
final class Execution {

    /** Step 3's code: the call's tool, run on its request. */
    private static final Diagnostics.Step<ToolRequest, String> EXECUTE =
            (call, request) -> call.binding().executor().execute(request);
    /** Step 5's code: the call's projector, given the checked raw response's text. */
    private static final Diagnostics.Step<RawResponse, Projection> PROJECT =
            (call, rawResponse) -> call.binding().projector().project(call.request(), rawResponse.text());

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

    /** Step 3: runs the tool once; what it returned, or what it threw ({@link #toolFailed} ends the record then). */
    Either<Throwable, String> execute(AdmittedCall call) {
        ToolRequest request = call.request();
        return diagnostics.quiet() ? diagnostics.untimed(EXECUTE, call, request)
                : diagnostics.timed(EXECUTE, call, request,
                        elapsed -> listener.onExecuted(request.key(), request.tool(), elapsed));
    }

    /**
     * A tool that threw ends the record in {@code EXECUTION_FAILED}, keeping the output of a
     * {@link ToolFailure} when it passes the raw response's checks.
     */
    CanonicalRecord.Failed toolFailed(AdmittedCall call, Throwable failure) {
        ToolRequest request = call.request();
        listener.onToolFailed(request.key(), request.tool(), failure.getClass());
        if (failure instanceof ToolFailure reported) {
            Either<BoundaryError, RawResponse> output = checkRawResponse(call, reported.output());
            return output.isLeft() ? failed(call, ErrorCode.EXECUTION_FAILED)
                    : keeping(call, ErrorCode.EXECUTION_FAILED, output.get());
        }
        return failed(call, ErrorCode.EXECUTION_FAILED);
    }

    /**
     * Step 4: the raw response must be there, be Unicode, and fit both its own limit and the room the
     * record has left. It is measured here, once; the record and the store use that count.
     *
     * @return the checked raw response, or the error whose code ends the record ({@link #failed})
     */
    Either<BoundaryError, RawResponse> checkRawResponse(AdmittedCall call, String rawResponse) {
        if (rawResponse == null) {
            return Either.left(BoundaryError.of(ErrorCode.EXECUTION_FAILED));
        }
        Either<BoundaryError, RawResponse> checked = RawResponse.of(rawResponse);
        if (checked.isLeft()) {
            return checked;
        }
        long roomInRecord = limits.recordBytes() - call.record().byteSize();
        if (checked.get().byteSize() > Math.min(limits.rawResponseBytes(), roomInRecord)) {
            return Either.left(BoundaryError.of(ErrorCode.RESULT_TOO_LARGE));
        }
        return checked;
    }

    /**
     * Step 5: projects the checked raw response into the READY record; a projector that throws, returns
     * nothing or returns a result the limits refuse ends the record in ERROR with the raw response kept.
     */
    CanonicalRecord.Final project(AdmittedCall call, RawResponse rawResponse) {
        ToolRequest request = call.request();
        Either<Throwable, Projection> projected = diagnostics.quiet() ? diagnostics.untimed(PROJECT, call, rawResponse)
                : diagnostics.timed(PROJECT, call, rawResponse,
                        elapsed -> listener.onProjected(request.key(), request.tool(), elapsed));
        if (projected.isLeft()) {
            listener.onProjectorFailed(request.key(), request.tool(), projected.getLeft().getClass());
            return keeping(call, ErrorCode.PROJECTION_FAILED, rawResponse);
        }
        if (projected.get() == null) {
            return keeping(call, ErrorCode.PROJECTION_INVALID, rawResponse);
        }
        Either<BoundaryError, AgentResult> result = AgentResult.of(projected.get(), limits.agentResultBytes());
        if (result.isLeft()) {
            return keeping(call, result.getLeft().code(), rawResponse);
        }
        Either<BoundaryError, CanonicalRecord.Ready> ready =
                call.record().ready(rawResponse, result.get(), clock.instant(), limits);
        return ready.isRight() ? ready.get() : keeping(call, ready.getLeft().code(), rawResponse);
    }

    private CanonicalRecord.Failed keeping(AdmittedCall call, ErrorCode code, RawResponse rawResponse) {
        return call.record().failed(code, Option.some(rawResponse), clock.instant());
    }

    /** The ERROR record of a call that ends with {@code code} before its raw response was checked. */
    CanonicalRecord.Failed failed(AdmittedCall call, ErrorCode code) {
        return call.record().failed(code, Option.none(), clock.instant());
    }
}
