/** Spring Boot auto-configuration of the boundary's {@code ReactAgent} tool interceptor. */
package io.toolboundary.springaialibaba.autoconfigure;
