/** Application classes that break the architecture rules on purpose, and well-behaved ones for contrast. */
package io.toolboundary.application.bad;
