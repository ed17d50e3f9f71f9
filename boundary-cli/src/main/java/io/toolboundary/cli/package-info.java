/** The {@code toolboundary} command line: an operator's look at the records a Redis store holds. */
package io.toolboundary.cli;
