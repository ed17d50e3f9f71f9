package io.toolboundary.domain;

import static java.util.Objects.requireNonNull;

import io.toolboundary.domain.internal.Utf8;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.util.Objects;

/**
 * The only thing an agent receives from a successful tool call: bounded content, labelled
 * EVIDENCE_FOUND or NO_EVIDENCE, with the scope of the observation.
 *
 * <p>Valid by construction: the evidence is never ERROR, NO_EVIDENCE always has a non-blank scope,
 * and all text is well-formed Unicode. The byte bound is applied by {@link #of(Projection, long)}.
 * Each text is checked and measured once, when the result is made; {@link #byteSize()} is that count.
 * Two results are equal when their content, evidence and scope are.
 */
public final class AgentResult {

    private final String content;
    private final EvidenceStatus evidence;
    private final Option<String> scope;
    private final long byteSize;

    /**
     * Builds a trusted result.
     *
     * @param content the projected text
     * @param evidence EVIDENCE_FOUND or NO_EVIDENCE
     * @param scope the scope of the observation; always present for NO_EVIDENCE
     * @throws IllegalArgumentException when the evidence or scope break the rules above, or a text is
     *     not well-formed Unicode
     */
    public AgentResult(String content, EvidenceStatus evidence, Option<String> scope) {
        requireNonNull(content, "content is null");
        requireNonNull(evidence, "evidence is null");
        requireNonNull(scope, "scope is null");
        long contentBytes = Utf8.wellFormedByteLength(content);
        long scopeBytes = scope.isDefined() ? Utf8.wellFormedByteLength(scope.get()) : 0;
        if (violatesEvidenceRules(evidence, scope) || contentBytes < 0 || scopeBytes < 0) {
            throw new IllegalArgumentException(
                    "evidence must be EVIDENCE_FOUND or NO_EVIDENCE, NO_EVIDENCE needs a non-blank scope, text must be Unicode");
        }
        this.content = content;
        this.evidence = evidence;
        this.scope = scope;
        this.byteSize = contentBytes + scopeBytes;
    }

    /**
     * {@return the checked result, {@link ErrorCode#PROJECTION_INVALID} when it breaks an evidence rule,
     * {@link ErrorCode#TEXT_NOT_UNICODE} when it is not well-formed Unicode, or {@link ErrorCode#RESULT_TOO_LARGE}
     * when it is over the limit (never truncated)}
     *
     * @param projection what the projector returned
     * @param maxBytes the agent result limit, counted in UTF-8 over content and scope
     */
    public static Either<BoundaryError, AgentResult> of(Projection projection, long maxBytes) {
        requireNonNull(projection, "projection is null");
        Option<String> scope = projection.scope();
        if (violatesEvidenceRules(projection.evidence(), scope)) {
            return Either.left(BoundaryError.of(ErrorCode.PROJECTION_INVALID));
        }
        long contentBytes = Utf8.wellFormedByteLength(projection.content());
        long scopeBytes = scope.isDefined() ? Utf8.wellFormedByteLength(scope.get()) : 0;
        if (contentBytes < 0 || scopeBytes < 0) {
            return Either.left(BoundaryError.of(ErrorCode.TEXT_NOT_UNICODE));
        }
        if (contentBytes + scopeBytes > maxBytes) {
            return Either.left(BoundaryError.of(ErrorCode.RESULT_TOO_LARGE));
        }
        return Either.right(new AgentResult(projection.content(), projection.evidence(), scope, contentBytes + scopeBytes));
    }

    private AgentResult(String content, EvidenceStatus evidence, Option<String> scope, long byteSize) {
        this.content = content;
        this.evidence = evidence;
        this.scope = scope;
        this.byteSize = byteSize;
    }

    /** {@return the projected text} */
    public String content() {
        return content;
    }

    /** {@return EVIDENCE_FOUND or NO_EVIDENCE} */
    public EvidenceStatus evidence() {
        return evidence;
    }

    /** {@return the scope of the observation; always present for NO_EVIDENCE} */
    public Option<String> scope() {
        return scope;
    }

    /** {@return the UTF-8 size of content and scope together, counted once when the result was made} */
    public long byteSize() {
        return byteSize;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof AgentResult that && content.equals(that.content) && evidence == that.evidence
                && scope.equals(that.scope);
    }

    @Override
    public int hashCode() {
        return Objects.hash(content, evidence, scope);
    }

    @Override
    public String toString() {
        return "AgentResult[content=" + content + ", evidence=" + evidence + ", scope=" + scope + "]";
    }

    private static boolean violatesEvidenceRules(EvidenceStatus evidence, Option<String> scope) {
        return switch (evidence) {
            case EVIDENCE_FOUND -> false;
            case NO_EVIDENCE -> scope.map(String::isBlank).getOrElse(true);
            case ERROR -> true;
        };
    }
}
