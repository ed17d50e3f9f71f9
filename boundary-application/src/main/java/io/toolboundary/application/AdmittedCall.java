package io.toolboundary.application;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.InvocationKey;

/**
 * A call that passed preflight: what its tool and projector see, its registration, the executor that runs
 * it (the registration's, or the one given to this call), the record it will
 * create (or, after begin, the record the store holds) and its attempt's token.
 */
record AdmittedCall(ToolRequest request, ToolBinding binding, ToolExecutor executor,
        CanonicalRecord.Projecting record, AttemptToken token) {

    InvocationKey key() {
        return request.key();
    }

    /** The same call with the record as the store returned it. */
    AdmittedCall withRecord(CanonicalRecord.Projecting stored) {
        return stored == record ? this : new AdmittedCall(request, binding, executor, stored, token);
    }

    /** The same call run by {@code callExecutor} instead of its registration's executor. */
    AdmittedCall withExecutor(ToolExecutor callExecutor) {
        return new AdmittedCall(request, binding, callExecutor, record, token);
    }
}
