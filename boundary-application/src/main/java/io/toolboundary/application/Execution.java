package io.toolboundary.application;

import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.internal.Utf8;
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
            (call, request) -> call.executor().execute(request);
    /** Step 5's code: the call's projector, given the checked raw response's text. */
    private static final Diagnostics.Step<String, Projection> PROJECT =
            (call, rawResponse) -> call.binding().projector().project(call.request(), rawResponse);

    /** The most UTF-8 bytes of a failure's message a record keeps. */
    static final int FAILURE_MESSAGE_BYTES = 512;
    /** The most UTF-8 bytes of a failure's type name a record keeps. */
    static final int FAILURE_TYPE_BYTES = 256;

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
     * A tool that threw ends the record in {@code EXECUTION_FAILED}, saying why for the harness and keeping
     * the output of a {@link ToolFailure} when it passes the raw response's checks.
     */
    CanonicalRecord.Failed toolFailed(AdmittedCall call, Throwable failure) {
        ToolRequest request = call.request();
        listener.onToolFailed(request.key(), request.tool(), failure.getClass());
        if (failure instanceof ToolFailure reported) {
            Either<BoundaryError, String> output = checkRawResponse(call, reported.output());
            return because(output.isLeft() ? failed(call, ErrorCode.EXECUTION_FAILED)
                    : keeping(call, ErrorCode.EXECUTION_FAILED, output.get()), failure);
        }
        return because(failed(call, ErrorCode.EXECUTION_FAILED), failure);
    }

    /**
     * The record with the failure's type and message, for the harness only: the message masked as
     * {@link Projector#mask} masks and cut to {@link #FAILURE_MESSAGE_BYTES}. A record that the reason would
     * take over the record limit keeps its raw response and goes without the reason.
     */
    private CanonicalRecord.Failed because(CanonicalRecord.Failed failed, Throwable failure) {
        String message = failure.getMessage() == null ? ""
                : ProjectorText.cut(ProjectorText.mask(failure.getMessage()), FAILURE_MESSAGE_BYTES);
        CanonicalRecord.Failed explained =
                failed.because(ProjectorText.cut(failure.getClass().getName(), FAILURE_TYPE_BYTES), message);
        return explained.byteSize() <= limits.recordBytes() ? explained : failed;
    }

    /**
     * {@return the raw response (step 4), checked to be there, Unicode and within its limit and the record's room, or
     * the error that ends the record ({@link #failed})}
     */
    Either<BoundaryError, String> checkRawResponse(AdmittedCall call, String rawResponse) {
        if (rawResponse == null) {
            return Either.left(BoundaryError.of(ErrorCode.EXECUTION_FAILED));
        }
        long bytes = Utf8.wellFormedByteLength(rawResponse);
        if (bytes < 0) {
            return Either.left(BoundaryError.of(ErrorCode.TEXT_NOT_UNICODE));
        }
        long roomInRecord = limits.recordBytes() - call.record().byteSize();
        if (bytes > Math.min(limits.rawResponseBytes(), roomInRecord)) {
            return Either.left(BoundaryError.of(ErrorCode.RESULT_TOO_LARGE));
        }
        return Either.right(rawResponse);
    }

    /**
     * Step 5: projects the checked raw response into the READY record; a projector that throws, returns
     * nothing or returns a result the limits refuse ends the record in ERROR with the raw response kept.
     */
    CanonicalRecord.Final project(AdmittedCall call, String rawResponse) {
        ToolRequest request = call.request();
        Either<Throwable, Projection> projected = diagnostics.quiet() ? diagnostics.untimed(PROJECT, call, rawResponse)
                : diagnostics.timed(PROJECT, call, rawResponse,
                        elapsed -> listener.onProjected(request.key(), request.tool(), elapsed));
        if (projected.isLeft()) {
            listener.onProjectorFailed(request.key(), request.tool(), projected.getLeft().getClass());
            return because(keeping(call, ErrorCode.PROJECTION_FAILED, rawResponse), projected.getLeft());
        }
        if (projected.get() == null) {
            return keeping(call, ErrorCode.PROJECTION_INVALID, rawResponse);
        }
        Either<BoundaryError, AgentResult> result = AgentResult.of(projected.get(), limits.agentResultBytes());
        if (result.isLeft()) {
            return keeping(call, result.getLeft().code(), rawResponse);
        }
        CanonicalRecord.Ready ready = call.record().ready(rawResponse, result.get(), clock.instant());
        return ready.byteSize() > limits.recordBytes() ? keeping(call, ErrorCode.RESULT_TOO_LARGE, rawResponse) : ready;
    }

    private CanonicalRecord.Failed keeping(AdmittedCall call, ErrorCode code, String rawResponse) {
        return call.record().failed(code, Option.some(rawResponse), clock.instant());
    }

    /** The ERROR record of a call that ends with {@code code} before its raw response was checked. */
    CanonicalRecord.Failed failed(AdmittedCall call, ErrorCode code) {
        return call.record().failed(code, Option.none(), clock.instant());
    }
}
