/** Spring Boot auto-configuration of the boundary's Micrometer meters. */
package io.toolboundary.micrometer.autoconfigure;
