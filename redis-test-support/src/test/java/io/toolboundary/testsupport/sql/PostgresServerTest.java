package io.toolboundary.testsupport.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class PostgresServerTest {

    @Test
    void startsConnectsStopsAndStartsAgainOnTheSameData() throws SQLException {
        long started = System.nanoTime();
        PostgresServer server = PostgresServer.startNew();
        System.out.printf("%s made and started in %d ms%n", server, Duration.ofNanos(System.nanoTime() - started).toMillis());
        Path directory = server.directory();
        try (server) {
            assertThat(server.product()).isEqualTo("PostgreSQL");
            assertThat(server.port()).isNotEqualTo(5432);
            try (Connection connection = SqlServerContract.connect(server); Statement statement = connection.createStatement();
                    ResultSet row = statement.executeQuery("SELECT version(), current_database(), current_user, inet_server_port(), inet_server_addr()")) {
                assertThat(row.next()).isTrue();
                assertThat(row.getString(1)).contains("PostgreSQL");
                assertThat(row.getString(2)).isEqualTo(PostgresServer.DATABASE);
                assertThat(row.getString(3)).isEqualTo(PostgresServer.USER);
                assertThat(row.getInt(4)).isEqualTo(server.port());
                assertThat(row.getString(5)).isEqualTo("127.0.0.1");
            }
            SqlServerContract.refusesAWrongPassword(server);
            SqlServerContract.keepsItsDataAcrossAStopAndAStart(server);
        }
        assertThat(server.isRunning()).isFalse();
        assertThat(Files.exists(directory)).as("close deletes the directory").isFalse();
        assertThatThrownBy(server::start).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void theSharedServerIsOneAndRefusesToStop() throws SQLException {
        PostgresServer shared = PostgresServer.shared();
        assertThat(PostgresServer.shared()).isSameAs(shared);
        assertThatThrownBy(shared::stop).isInstanceOf(IllegalStateException.class).hasMessageContaining("startNew()");
        assertThatThrownBy(shared::close).isInstanceOf(IllegalStateException.class);
        assertThat(shared.isRunning()).isTrue();
        try (Connection connection = SqlServerContract.connect(shared); Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT 1")) {
            assertThat(row.next()).isTrue();
        }
    }
}
