/** Store-suite classes that break the store TCK rule on purpose, and a well-behaved one for contrast. */
package io.toolboundary.tck.bad;
