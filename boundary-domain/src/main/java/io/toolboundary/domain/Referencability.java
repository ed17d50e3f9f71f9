package io.toolboundary.domain;

/** How a stored invocation may be referred to in what the agent says or cites. */
public enum Referencability {
    /** READY with EVIDENCE_FOUND: may be cited as evidence. */
    CITABLE_EVIDENCE,
    /** READY with NO_EVIDENCE: may be cited only as "nothing found within this scope". */
    SCOPED_NEGATIVE_OBSERVATION,
    /** PROJECTING or ERROR: may not be referenced at all. */
    NOT_REFERENCABLE
}
