/**
 * Real Redis servers for tests: a standalone server and a 3-master cluster, servers a test may kill, freeze
 * and restart, a sentinel group whose replication link can be cut, a fault proxy, and a plain command
 * connection.
 */
package io.toolboundary.testsupport.redis;
