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

class MariaDbServerTest {

    @Test
    void startsConnectsStopsAndStartsAgainOnTheSameData() throws SQLException {
        long started = System.nanoTime();
        MariaDbServer server = MariaDbServer.startNew();
        System.out.printf("%s made and started in %d ms%n", server, Duration.ofNanos(System.nanoTime() - started).toMillis());
        Path directory = server.directory();
        try (server) {
            assertThat(server.product()).isEqualTo("MariaDB");
            assertThat(server.port()).isNotEqualTo(3306);
            try (Connection connection = SqlServerContract.connect(server); Statement statement = connection.createStatement();
                    ResultSet row = statement.executeQuery("SELECT VERSION(), DATABASE(), CURRENT_USER(), @@port, @@datadir")) {
                assertThat(row.next()).isTrue();
                assertThat(row.getString(1)).contains("MariaDB");
                assertThat(row.getString(2)).isEqualTo(MariaDbServer.DATABASE);
                assertThat(row.getString(3)).startsWith(MariaDbServer.USER + "@");
                assertThat(row.getInt(4)).isEqualTo(server.port());
                assertThat(Path.of(row.getString(5))).isEqualTo(directory.resolve("data"));
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
        MariaDbServer shared = MariaDbServer.shared();
        assertThat(MariaDbServer.shared()).isSameAs(shared);
        assertThatThrownBy(shared::stop).isInstanceOf(IllegalStateException.class).hasMessageContaining("startNew()");
        assertThatThrownBy(shared::close).isInstanceOf(IllegalStateException.class);
        assertThat(shared.isRunning()).isTrue();
        try (Connection connection = SqlServerContract.connect(shared); Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT 1")) {
            assertThat(row.next()).isTrue();
        }
    }
}
