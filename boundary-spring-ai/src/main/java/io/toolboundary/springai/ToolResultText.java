package io.toolboundary.springai;

import static java.util.Objects.requireNonNull;

import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.vavr.control.Either;

/**
 * The text a model receives as the result of one tool call: only the bounded agent result or the safe
 * error, never the raw response, the request or an exception text.
 *
 * <p>The format has two shapes. A result is a header line, then the content:
 * <pre>
 * EVIDENCE_FOUND
 * &lt;content&gt;
 *
 * EVIDENCE_FOUND (scope: &lt;scope&gt;)
 * &lt;content&gt;
 *
 * NO_EVIDENCE (scope: &lt;scope&gt;)
 * &lt;content&gt;
 * </pre>
 * The header names the evidence status and, when the projector stated one, the scope of the observation
 * (NO_EVIDENCE always has one: it is a negative observation within that scope, not a success). An error
 * is one line, the stable code and its fixed catalogue message:
 * <pre>
 * ERROR &lt;CODE&gt;: &lt;safe message&gt;
 * </pre>
 * for example {@code ERROR DUPLICATE_TOOL_CALL: This tool_call_id was already used in this run; the tool
 * was not run again.}
 */
public final class ToolResultText {

    /** The first word of an error text. */
    public static final String ERROR_PREFIX = "ERROR ";

    private ToolResultText() {
    }

    /** The text for the outcome of {@code ToolBoundary.invoke}. */
    public static String of(Either<BoundaryError, AgentResult> outcome) {
        requireNonNull(outcome, "outcome is null");
        return outcome.fold(ToolResultText::error, ToolResultText::result);
    }

    /** The text for a bounded result: the header line, a line feed, the content. */
    public static String result(AgentResult result) {
        requireNonNull(result, "result is null");
        String header = result.evidence().name()
                + result.scope().map(scope -> " (scope: " + scope + ")").getOrElse("");
        return header + "\n" + result.content();
    }

    /** The text for a safe error: {@code ERROR <CODE>: <safe message>}. */
    public static String error(BoundaryError error) {
        requireNonNull(error, "error is null");
        return ERROR_PREFIX + error.code().name() + ": " + error.message();
    }
}
