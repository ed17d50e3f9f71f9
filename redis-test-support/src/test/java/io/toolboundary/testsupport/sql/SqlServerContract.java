package io.toolboundary.testsupport.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** What every {@link SqlServer} promises, checked over a real JDBC connection. */
final class SqlServerContract {

    private SqlServerContract() {
    }

    static Connection connect(SqlServer server) throws SQLException {
        return DriverManager.getConnection(server.jdbcUrl(), server.user(), server.password());
    }

    /** Writes a row, stops the server (the connection breaks, no new one is had), starts it again, reads the row. */
    static void keepsItsDataAcrossAStopAndAStart(SqlServer server) throws SQLException {
        assertThat(server.isRunning()).isTrue();
        assertThat(server.host()).isEqualTo("127.0.0.1");
        assertThat(server.jdbcUrl()).contains(":" + server.port() + "/" + server.database());
        int port = server.port();
        String fourBytes = "\uD83D\uDE00 caf\u00e9";
        Connection before = connect(server);
        try (Statement statement = before.createStatement()) {
            statement.execute("CREATE TABLE contract_probe (id INTEGER PRIMARY KEY, note VARCHAR(64))");
            statement.execute("INSERT INTO contract_probe VALUES (1, '" + fourBytes + "')");
        }

        long stopping = System.nanoTime();
        server.stop();
        System.out.printf("%s stopped in %d ms%n", server, Duration.ofNanos(System.nanoTime() - stopping).toMillis());
        assertThat(server.isRunning()).isFalse();
        assertThatThrownBy(() -> {
            try (Statement statement = before.createStatement()) {
                statement.executeQuery("SELECT 1");
            }
        }).as("the open connection is cut").isInstanceOf(SQLException.class);
        before.close();
        assertThatThrownBy(() -> connect(server).close()).as("no connection while stopped").isInstanceOf(SQLException.class);

        long started = System.nanoTime();
        server.start();
        System.out.printf("%s started again in %d ms%n", server, Duration.ofNanos(System.nanoTime() - started).toMillis());
        assertThat(server.isRunning()).isTrue();
        assertThat(server.port()).isEqualTo(port);
        try (Connection after = connect(server); Statement statement = after.createStatement();
                ResultSet rows = statement.executeQuery("SELECT id, note FROM contract_probe")) {
            List<String> notes = new ArrayList<>();
            while (rows.next()) {
                notes.add(rows.getInt(1) + ":" + rows.getString(2));
            }
            assertThat(notes).containsExactly("1:" + fourBytes);
            assertThat(fourBytes.getBytes(StandardCharsets.UTF_8)).hasSize(10);
        }
        server.start();
        assertThat(server.isRunning()).as("start() on a running server changes nothing").isTrue();
    }

    /** A wrong password is refused: the server checks passwords. */
    static void refusesAWrongPassword(SqlServer server) {
        assertThatThrownBy(() -> DriverManager.getConnection(server.jdbcUrl(), server.user(), server.password() + "x").close())
                .isInstanceOf(SQLException.class);
    }
}
