/** Spring Boot auto-configuration of the tool boundary and its Spring AI tool calling manager. */
package io.toolboundary.springai.autoconfigure;
