/** Real Redis servers for tests: a standalone server and a 3-master cluster, with a plain command connection. */
package io.toolboundary.testsupport.redis;
