/** Runs every tool call of a LangChain4j AI service through the Tool Boundary. */
package io.toolboundary.langchain4j;
