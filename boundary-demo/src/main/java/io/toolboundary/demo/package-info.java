/** A scripted incident-triage agent run through the boundary. */
package io.toolboundary.demo;
