package io.toolboundary.application;

import static java.util.Objects.requireNonNull;

import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.vavr.control.Either;

/**
 * The text a model receives as the result of a tool call: the bounded, evidence-labelled result or the
 * safe error, and nothing else.
 *
 * <p>The format is small and fixed:
 * <pre>
 * EVIDENCE_FOUND
 * &lt;content&gt;
 *
 * EVIDENCE_FOUND (scope: &lt;scope&gt;)
 * &lt;content&gt;
 *
 * NO_EVIDENCE (scope: &lt;scope&gt;)
 * &lt;content&gt;
 *
 * ERROR &lt;CODE&gt;: &lt;safe message&gt;
 * </pre>
 * The content follows the label exactly as the projector returned it; an error has no further lines.
 * Nothing comes from a raw response, an exception, the request or a store key. Every framework
 * integration answers the model with this one formatter.
 */
final class AgentText {

    private AgentText() {
    }

    /**
     * {@return the text of a boundary outcome}
     *
     * @param outcome what the boundary returned for a call
     */
    static String of(Either<BoundaryError, AgentResult> outcome) {
        requireNonNull(outcome, "outcome is null");
        return outcome.fold(AgentText::of, AgentText::of);
    }

    /**
     * {@return the text of a bounded result: its label line, then its content}
     *
     * @param result a checked result
     */
    static String of(AgentResult result) {
        requireNonNull(result, "result is null");
        String label = result.evidence().name() + result.scope().map(scope -> " (scope: " + scope + ")").getOrElse("");
        return label + "\n" + result.content();
    }

    /**
     * {@return the text of a safe error: {@code ERROR <CODE>: <safe message>}}
     *
     * @param error a safe error
     */
    static String of(BoundaryError error) {
        requireNonNull(error, "error is null");
        return "ERROR " + error.code().name() + ": " + error.message();
    }
}
