package io.toolboundary.domain;

import static java.util.Objects.requireNonNull;

import io.vavr.control.Either;
import io.vavr.control.Option;

/**
 * The only thing an agent receives from a successful tool call: bounded content, labelled
 * EVIDENCE_FOUND or NO_EVIDENCE, with the scope of the observation.
 *
 * <p>Valid by construction: the evidence is never ERROR, NO_EVIDENCE always has a non-blank scope,
 * and all text is well-formed Unicode. The byte bound is applied by {@link #of(Projection, long)}.
 *
 * @param content the projected text
 * @param evidence EVIDENCE_FOUND or NO_EVIDENCE
 * @param scope the scope of the observation; always present for NO_EVIDENCE
 */
public record AgentResult(String content, EvidenceStatus evidence, Option<String> scope) {

    /**
     * Builds a trusted result.
     *
     * @param content the projected text
     * @param evidence EVIDENCE_FOUND or NO_EVIDENCE
     * @param scope the scope of the observation; always present for NO_EVIDENCE
     * @throws IllegalArgumentException when the evidence or scope break the rules above
     */
    public AgentResult {
        requireNonNull(content, "content is null");
        requireNonNull(evidence, "evidence is null");
        requireNonNull(scope, "scope is null");
        if (violatesRules(content, evidence, scope)) {
            throw new IllegalArgumentException(
                    "evidence must be EVIDENCE_FOUND or NO_EVIDENCE, NO_EVIDENCE needs a non-blank scope, text must be Unicode");
        }
    }

    /**
     * Checks a projector's output.
     *
     * @param projection what the projector returned
     * @param maxBytes the agent result limit, counted in UTF-8 over content and scope
     * @return the result, {@link ErrorCode#PROJECTION_INVALID} when it breaks an evidence rule,
     *     {@link ErrorCode#TEXT_NOT_UNICODE} when it is not well-formed Unicode, or
     *     {@link ErrorCode#RESULT_TOO_LARGE} when it is over the limit (never truncated)
     */
    public static Either<BoundaryError, AgentResult> of(Projection projection, long maxBytes) {
        requireNonNull(projection, "projection is null");
        String content = projection.content();
        Option<String> scope = projection.scope();
        if (violatesEvidenceRules(projection.evidence(), scope)) {
            return Either.left(BoundaryError.of(ErrorCode.PROJECTION_INVALID));
        }
        if (!isUnicode(content, scope)) {
            return Either.left(BoundaryError.of(ErrorCode.TEXT_NOT_UNICODE));
        }
        long scopeBytes = scope.map(Utf8::byteLength).getOrElse(0L);
        if (scopeBytes > maxBytes || Utf8.exceeds(content, maxBytes - scopeBytes)) {
            return Either.left(BoundaryError.of(ErrorCode.RESULT_TOO_LARGE));
        }
        return Either.right(new AgentResult(content, projection.evidence(), scope));
    }

    /** {@return the UTF-8 size of content and scope together} */
    public long byteSize() {
        return Utf8.byteLength(content) + scope.map(Utf8::byteLength).getOrElse(0L);
    }

    private static boolean violatesRules(String content, EvidenceStatus evidence, Option<String> scope) {
        return violatesEvidenceRules(evidence, scope) || !isUnicode(content, scope);
    }

    private static boolean violatesEvidenceRules(EvidenceStatus evidence, Option<String> scope) {
        return switch (evidence) {
            case EVIDENCE_FOUND -> false;
            case NO_EVIDENCE -> scope.map(String::isBlank).getOrElse(true);
            case ERROR -> true;
        };
    }

    private static boolean isUnicode(String content, Option<String> scope) {
        return Utf8.isWellFormed(content) && scope.map(Utf8::isWellFormed).getOrElse(true);
    }
}
