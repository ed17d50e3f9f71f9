package io.toolboundary.domain;

import static java.util.Objects.requireNonNull;

import io.vavr.control.Option;

/**
 * What a projector says about a raw tool response, before the boundary has checked it.
 *
 * <p>A projection may be invalid (evidence status ERROR, NO_EVIDENCE without a scope, text that is
 * not Unicode, too many bytes); {@link AgentResult#of(Projection, long)} decides. Only a checked
 * {@link AgentResult} ever reaches the agent.
 *
 * @param content the bounded text for the agent
 * @param evidence the claimed evidence status
 * @param scope what was searched, for example "service checkout, logs 10:00-10:15 UTC"; required for NO_EVIDENCE
 */
public record Projection(String content, EvidenceStatus evidence, Option<String> scope) {

    /**
     * Builds an unchecked projection.
     *
     * @param content the bounded text for the agent
     * @param evidence the claimed evidence status
     * @param scope what was searched; required for NO_EVIDENCE
     */
    public Projection {
        requireNonNull(content, "content is null");
        requireNonNull(evidence, "evidence is null");
        requireNonNull(scope, "scope is null");
        scope.forEach(s -> requireNonNull(s, "scope value is null"));
    }

    /**
     * Something was found.
     *
     * @param content the bounded text for the agent
     * @return an EVIDENCE_FOUND projection without a scope
     */
    public static Projection evidenceFound(String content) {
        return new Projection(content, EvidenceStatus.EVIDENCE_FOUND, Option.none());
    }

    /**
     * Something was found within a stated scope.
     *
     * @param content the bounded text for the agent
     * @param scope what was searched
     * @return an EVIDENCE_FOUND projection with that scope
     */
    public static Projection evidenceFound(String content, String scope) {
        return new Projection(content, EvidenceStatus.EVIDENCE_FOUND, Option.of(scope));
    }

    /**
     * Nothing was found within {@code scope}: a negative observation, not a success.
     *
     * @param content the bounded text for the agent
     * @param scope what was searched, for example "service checkout, logs 10:00-10:15 UTC"
     * @return a NO_EVIDENCE projection with that scope
     */
    public static Projection noEvidence(String content, String scope) {
        return new Projection(content, EvidenceStatus.NO_EVIDENCE, Option.of(scope));
    }
}
