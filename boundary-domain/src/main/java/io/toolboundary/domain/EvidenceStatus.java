package io.toolboundary.domain;

/** What a completed invocation says about the world. */
public enum EvidenceStatus {
    /** The tool found something; the result may be cited as evidence. */
    EVIDENCE_FOUND,
    /** The tool found nothing within a stated scope; a negative observation, never a success. */
    NO_EVIDENCE,
    /** The invocation failed; it says nothing and may not be referenced. */
    ERROR
}
