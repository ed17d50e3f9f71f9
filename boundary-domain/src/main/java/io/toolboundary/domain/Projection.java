package io.toolboundary.domain;

import static java.util.Objects.requireNonNull;

import io.vavr.control.Option;

/**
 * What a projector says about a raw tool response, unchecked: {@link AgentResult#of(Projection, long)} decides
 * whether it is valid, and only a checked {@link AgentResult} reaches the agent.
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
     * {@return an EVIDENCE_FOUND projection without a scope}
     *
     * @param content the bounded text for the agent
     */
    public static Projection evidenceFound(String content) {
        return new Projection(content, EvidenceStatus.EVIDENCE_FOUND, Option.none());
    }

    /**
     * {@return an EVIDENCE_FOUND projection within a stated scope}
     *
     * @param content the bounded text for the agent
     * @param scope what was searched
     */
    public static Projection evidenceFound(String content, String scope) {
        return new Projection(content, EvidenceStatus.EVIDENCE_FOUND, Option.of(scope));
    }

    /**
     * {@return a NO_EVIDENCE projection with that scope: a negative observation, not a success}
     *
     * @param content the bounded text for the agent
     * @param scope what was searched, for example "service checkout, logs 10:00-10:15 UTC"
     */
    public static Projection noEvidence(String content, String scope) {
        return new Projection(content, EvidenceStatus.NO_EVIDENCE, Option.of(scope));
    }
}
