package io.toolboundary.citations;

/** What the run's records say of one citation. Only {@link #ACCEPTED} lets an answer through. */
public enum CitationVerdict {
    /** Evidence cited as evidence, or a negative observation cited as "nothing found". */
    ACCEPTED,
    /** The call failed, is unfinished, or has no record in this run: it may not be cited at all. */
    NOT_REFERENCABLE,
    /** A NO_EVIDENCE result cited as evidence: a scoped negative observation is never a finding. */
    NEGATIVE_AS_EVIDENCE,
    /** An EVIDENCE_FOUND result cited as "nothing found". */
    EVIDENCE_AS_NOT_FOUND,
    /** A call the conversation showed under another run: a run cites only its own calls. */
    OTHER_RUN,
    /** Beyond the most calls one answer may cite ({@value CitationCheck#MAX_CITED_CALLS}): not read. */
    NOT_CHECKED
}
