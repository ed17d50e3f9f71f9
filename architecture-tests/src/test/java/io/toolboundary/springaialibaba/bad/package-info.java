/** Spring AI Alibaba integration classes that break the integration rules on purpose. */
package io.toolboundary.springaialibaba.bad;
