/**
 * The citation check: what an agent's answer cites, held against the run's canonical records. Build a
 * {@link io.toolboundary.citations.CitationCheck} over the boundary; it reads the records an answer names
 * in one store read and gives each {@link io.toolboundary.citations.Citation} a
 * {@link io.toolboundary.citations.CitationVerdict}. The framework modules run it where each framework checks
 * answers.
 */
package io.toolboundary.citations;
