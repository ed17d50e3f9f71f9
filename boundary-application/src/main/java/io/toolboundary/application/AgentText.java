package io.toolboundary.application;

import static java.util.Objects.requireNonNull;

import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.vavr.control.Either;

/**
 * The text a model receives as the result of a tool call, the one format of every integration:
 * {@code EVIDENCE_FOUND}, {@code EVIDENCE_FOUND (scope: <scope>)} or {@code NO_EVIDENCE (scope: <scope>)},
 * then a line break and the content exactly as projected; or {@code ERROR <CODE>: <safe message>} alone.
 * Nothing comes from a raw response, an exception, the request or a store key.
 */
final class AgentText {

    private AgentText() {
    }

    /** {@return the text of what the boundary returned for a call} */
    static String of(Either<BoundaryError, AgentResult> outcome) {
        requireNonNull(outcome, "outcome is null");
        return outcome.fold(AgentText::of, AgentText::of);
    }

    /** {@return the text of a checked result: its label line, then its content} */
    static String of(AgentResult result) {
        requireNonNull(result, "result is null");
        String label = result.evidence().name() + result.scope().map(scope -> " (scope: " + scope + ")").getOrElse("");
        return label + "\n" + result.content();
    }

    /** {@return the text of a safe error: {@code ERROR <CODE>: <safe message>}} */
    static String of(BoundaryError error) {
        requireNonNull(error, "error is null");
        return "ERROR " + error.code().name() + ": " + error.message();
    }
}
