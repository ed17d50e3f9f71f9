/**
 * Real SQL servers for tests: a MariaDB ({@link io.toolboundary.testsupport.sql.MariaDbServer}) and a
 * PostgreSQL ({@link io.toolboundary.testsupport.sql.PostgresServer}) process, each on a free loopback port
 * with its own data directory, database and user, which a test may stop and start again. Never a server that
 * was already running on the machine.
 */
package io.toolboundary.testsupport.sql;
