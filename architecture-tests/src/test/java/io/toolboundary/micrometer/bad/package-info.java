/** Micrometer integration classes that break the integration rules on purpose. */
package io.toolboundary.micrometer.bad;
