/** LangChain4j integration classes that break the integration rules on purpose. */
package io.toolboundary.langchain4j.bad;
