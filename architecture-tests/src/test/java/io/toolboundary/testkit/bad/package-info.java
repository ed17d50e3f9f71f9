/** Testkit classes that break the testkit rule on purpose, and a well-behaved one for contrast. */
package io.toolboundary.testkit.bad;
