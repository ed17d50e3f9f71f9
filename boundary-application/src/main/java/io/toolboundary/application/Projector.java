package io.toolboundary.application;

import io.toolboundary.domain.Projection;

/**
 * Turns a raw tool response into the bounded, evidence-labelled text an agent may see. This is the
 * interface RAG, log and SQL tool teams implement.
 *
 * <p>A projector should return {@link Projection#evidenceFound} when it found something and
 * {@link Projection#noEvidence} with the scope it searched when it did not. The boundary checks the
 * result: a wrong evidence status, a missing scope or too many bytes end the record in ERROR; nothing
 * is ever truncated.
 */
@FunctionalInterface
public interface Projector {

    /**
     * Projects a raw response.
     *
     * @param request the request that produced it
     * @param rawResponse the complete raw response, within the raw limit
     * @return the projection
     * @throws Exception on any failure; the record ends in ERROR/PROJECTION_FAILED
     */
    Projection project(ToolRequest request, String rawResponse) throws Exception;
}
