/** Fakes, fixtures, a clock to move and the projector contract, for teams that write projectors and harnesses; the store suites are in the store TCK. */
package io.toolboundary.testkit;
