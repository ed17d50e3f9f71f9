/** Fakes, fixtures and contract suites for teams that write stores, projectors and harnesses. */
package io.toolboundary.testkit;
