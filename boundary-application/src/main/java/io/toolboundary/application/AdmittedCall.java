package io.toolboundary.application;

import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.InvocationKey;

/**
 * A call that passed preflight: what its tool and projector see, its registration, the record it will
 * create (or, after begin, the record the store holds) and its attempt's token.
 */
record AdmittedCall(ToolRequest request, ToolBinding binding, CanonicalRecord.Projecting record,
        AttemptToken token) {

    InvocationKey key() {
        return request.key();
    }

    /** The same call with the record as the store returned it. */
    AdmittedCall withRecord(CanonicalRecord.Projecting stored) {
        return stored == record ? this : new AdmittedCall(request, binding, stored, token);
    }
}
