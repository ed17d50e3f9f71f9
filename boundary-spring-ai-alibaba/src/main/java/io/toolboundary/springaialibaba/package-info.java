/**
 * The tool calls of Spring AI Alibaba {@code ReactAgent}s, each through the Tool Boundary once, and the citation
 * check of their final answers ({@link io.toolboundary.springaialibaba.CitationInterceptor}).
 */
package io.toolboundary.springaialibaba;
