package io.toolboundary.testkit;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.Projector;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.Projection;
import io.vavr.control.Option;

/**
 * Ready-made {@link Projector}s for tests: well-behaved ones (evidence found, no evidence within a
 * scope) and every way a projector can misbehave (throwing, an invalid status, a blank scope, too
 * many bytes, {@code null}, echoing the raw response).
 */
public final class FakeProjectors {

    private FakeProjectors() {
    }

    /** Always EVIDENCE_FOUND with {@code content}. */
    public static Projector evidenceFound(String content) {
        requireNonNull(content, "content is null");
        return (request, raw) -> Projection.evidenceFound(content);
    }

    /** Always NO_EVIDENCE with {@code content}, within {@code scope}. */
    public static Projector noEvidence(String content, String scope) {
        requireNonNull(content, "content is null");
        requireNonNull(scope, "scope is null");
        return (request, raw) -> Projection.noEvidence(content, scope);
    }

    /** Always throws an {@link IllegalStateException} with {@code message}. */
    public static Projector throwing(String message) {
        requireNonNull(message, "message is null");
        return (request, raw) -> {
            throw new IllegalStateException(message);
        };
    }

    /** Claims the evidence status ERROR, which no projection may carry. */
    public static Projector invalidEvidenceStatus() {
        return (request, raw) -> new Projection("projected", EvidenceStatus.ERROR, Option.none());
    }

    /** Claims NO_EVIDENCE with a blank scope: a negative observation without its scope. */
    public static Projector noEvidenceWithBlankScope() {
        return (request, raw) -> Projection.noEvidence("nothing found", " ");
    }

    /** EVIDENCE_FOUND with content of exactly {@code utf8Bytes} UTF-8 bytes. */
    public static Projector returningBytes(int utf8Bytes) {
        return evidenceFound(Fixtures.textOfUtf8Bytes(utf8Bytes));
    }

    /** Returns {@code null} instead of a projection. */
    public static Projector returningNull() {
        return (request, raw) -> null;
    }

    /**
     * EVIDENCE_FOUND with the whole raw response as content: a broken projector, used to prove that
     * the boundary bounds what it returns.
     */
    public static Projector echoingRaw() {
        return (request, raw) -> Projection.evidenceFound(raw);
    }

    /** Counts the calls of {@code projector}. */
    public static CountingProjector counting(Projector projector) {
        return new CountingProjector(projector);
    }
}
