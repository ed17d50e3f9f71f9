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

    /**
     * {@return a projector that always answers EVIDENCE_FOUND with {@code content}}
     *
     * @param content the content of every projection, whatever the request and raw response
     * @throws NullPointerException when {@code content} is null
     */
    public static Projector evidenceFound(String content) {
        requireNonNull(content, "content is null");
        return (request, raw) -> Projection.evidenceFound(content);
    }

    /**
     * {@return a projector that always answers NO_EVIDENCE with {@code content} within {@code scope}}
     *
     * @param content the content of every projection
     * @param scope what every projection claims was searched
     * @throws NullPointerException when {@code content} or {@code scope} is null
     */
    public static Projector noEvidence(String content, String scope) {
        requireNonNull(content, "content is null");
        requireNonNull(scope, "scope is null");
        return (request, raw) -> Projection.noEvidence(content, scope);
    }

    /**
     * {@return a projector that always throws an {@link IllegalStateException} with {@code message}}
     *
     * @param message the message of the exception thrown on every call
     * @throws NullPointerException when {@code message} is null
     */
    public static Projector throwing(String message) {
        requireNonNull(message, "message is null");
        return (request, raw) -> {
            throw new IllegalStateException(message);
        };
    }

    /**
     * {@return a projector claiming the evidence status ERROR, which no projection may carry (content
     * {@code "projected"}, no scope)}
     */
    public static Projector invalidEvidenceStatus() {
        return (request, raw) -> new Projection("projected", EvidenceStatus.ERROR, Option.none());
    }

    /** {@return a projector whose every projection is NO_EVIDENCE with the blank scope {@code " "}} */
    public static Projector noEvidenceWithBlankScope() {
        return (request, raw) -> Projection.noEvidence("nothing found", " ");
    }

    /**
     * {@return a projector that always answers EVIDENCE_FOUND with content of exactly {@code utf8Bytes} UTF-8 bytes}
     *
     * @param utf8Bytes the size of the content, in UTF-8 bytes (see {@link Fixtures#textOfUtf8Bytes(int)})
     * @throws IllegalArgumentException when {@code utf8Bytes} is negative
     */
    public static Projector returningBytes(int utf8Bytes) {
        return evidenceFound(Fixtures.textOfUtf8Bytes(utf8Bytes));
    }

    /** {@return a projector that always returns {@code null}} */
    public static Projector returningNull() {
        return (request, raw) -> null;
    }

    /**
     * {@return a broken projector whose content is the whole raw response, to prove that the boundary bounds what it
     * returns}
     */
    public static Projector echoingRaw() {
        return (request, raw) -> Projection.evidenceFound(raw);
    }

    /**
     * {@return a wrapper that counts the calls and delegates each to {@code projector}}
     *
     * @param projector the projector every call is passed on to
     * @throws NullPointerException when {@code projector} is null
     */
    public static CountingProjector counting(Projector projector) {
        return new CountingProjector(projector);
    }
}
