package io.toolboundary.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.h2.jdbcx.JdbcDataSource;
import org.hsqldb.jdbc.JDBCDataSource;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/** What {@link JdbcAudit#of} refuses before any record is written. */
class JdbcAuditOfTest {

    @Test
    void aDatabaseOtherThanMariaDbMySqlPostgresAndH2IsRefusedByName() {
        JDBCDataSource hsqldb = new JDBCDataSource();
        hsqldb.setURL("jdbc:hsqldb:mem:audit-" + System.nanoTime());
        hsqldb.setUser("SA");

        assertThatThrownBy(() -> JdbcAudit.of(hsqldb)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("HSQL").hasMessageContaining("MariaDB, MySQL 8 and PostgreSQL");
    }

    @Test
    void aTableNameThatIsNotAPlainIdentifierIsRefused() {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:audit-" + System.nanoTime());
        for (String bad : new String[] {"", "1table", "bad-name", "x; DROP TABLE y", "a.b.c", "\"quoted\"", "t".repeat(64)}) {
            assertThatThrownBy(() -> JdbcAudit.of(h2, bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("table name");
        }
        assertThatThrownBy(() -> JdbcAudit.of(null)).isInstanceOf(NullPointerException.class).hasMessageContaining("dataSource");
        assertThatThrownBy(() -> JdbcAudit.of(h2, null)).isInstanceOf(NullPointerException.class).hasMessageContaining("table");
    }

    @Test
    void aDatabaseThatCannotBeReachedIsNamedByItsSqlStateOnly() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        PGSimpleDataSource unreachable = new PGSimpleDataSource();
        unreachable.setServerNames(new String[] {"127.0.0.1"});
        unreachable.setPortNumbers(new int[] {closedPort});
        unreachable.setDatabaseName("toolboundary");
        unreachable.setUser("someone");
        unreachable.setPassword("a-password-never-shown");

        assertThatThrownBy(() -> JdbcAudit.of(unreachable)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("SQLSTATE 08").hasMessageNotContaining("a-password-never-shown")
                .hasMessageNotContaining(Integer.toString(closedPort)).hasNoCause();
        assertThat(closedPort).isPositive();
    }
}
