/** Micrometer metrics for the Tool Boundary, recorded by a boundary listener. */
package io.toolboundary.micrometer;
