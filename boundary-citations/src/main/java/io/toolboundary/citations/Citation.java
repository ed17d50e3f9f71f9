package io.toolboundary.citations;

import static java.util.Objects.requireNonNull;

/**
 * One citation in an agent's answer: the tool call an answer rests on, by the tool_call_id the model was
 * shown, exactly as the model wrote it (it may name no call at all), and what the answer claims the call
 * showed.
 *
 * @param kind evidence, or "nothing found"
 * @param toolCallId the id as written, not blank
 */
public record Citation(Kind kind, String toolCallId) {

    /** What an answer claims a cited call showed. */
    public enum Kind {
        /** The call found what the answer states: only a READY record with EVIDENCE_FOUND backs it. */
        EVIDENCE,
        /** The call looked and found nothing within its scope: only a READY record with NO_EVIDENCE backs it. */
        NOT_FOUND
    }

    /**
     * @param kind evidence, or "nothing found"
     * @param toolCallId the id as written, not blank
     */
    public Citation {
        requireNonNull(kind, "kind is null");
        requireNonNull(toolCallId, "toolCallId is null");
        if (toolCallId.isBlank()) {
            throw new IllegalArgumentException("toolCallId is blank");
        }
    }

    /**
     * {@return a citation of {@code toolCallId} as evidence}
     *
     * @param toolCallId the id as written
     */
    public static Citation evidence(String toolCallId) {
        return new Citation(Kind.EVIDENCE, toolCallId);
    }

    /**
     * {@return a citation of {@code toolCallId} as "nothing found"}
     *
     * @param toolCallId the id as written
     */
    public static Citation notFound(String toolCallId) {
        return new Citation(Kind.NOT_FOUND, toolCallId);
    }
}
