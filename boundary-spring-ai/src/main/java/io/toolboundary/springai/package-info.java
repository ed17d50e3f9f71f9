/** Spring AI tool calls routed through the tool boundary: the tool calling manager, the run's tool context and the text the model sees. */
package io.toolboundary.springai;
