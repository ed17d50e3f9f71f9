package io.toolboundary.export;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.toolboundary.testsupport.sql.MariaDbServer;
import io.toolboundary.testsupport.sql.PostgresServer;
import io.toolboundary.testsupport.sql.SqlServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.function.Supplier;
import org.flywaydb.core.Flyway;

/** The two databases export is tested on, each a real server the test support starts, migrated by Flyway. */
enum AuditDatabases {
    MARIADB(MariaDbServer::shared, MariaDbServer::startNew, "mysql"),
    POSTGRESQL(PostgresServer::shared, PostgresServer::startNew, "postgresql");

    private final Supplier<SqlServer> shared;
    private final Supplier<SqlServer> own;
    private final String migrations;

    AuditDatabases(Supplier<? extends SqlServer> shared, Supplier<? extends SqlServer> own, String migrations) {
        this.shared = shared::get;
        this.own = own::get;
        this.migrations = migrations;
    }

    /** {@return the server every test of this database shares} */
    SqlServer shared() {
        return shared.get();
    }

    /** {@return a server of this test's own, which it may stop and start} */
    SqlServer startNew() {
        return own.get();
    }

    /** {@return a pool on {@code server}, its table migrated and emptied} */
    HikariDataSource migratedAndEmpty(SqlServer server) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(server.jdbcUrl());
        config.setUsername(server.user());
        config.setPassword(server.password());
        config.setMaximumPoolSize(4);
        config.setConnectionTimeout(Duration.ofSeconds(2).toMillis());
        config.setInitializationFailTimeout(-1);
        HikariDataSource pool = new HikariDataSource(config);
        Flyway.configure().dataSource(pool).locations("classpath:io/toolboundary/export/db/" + migrations).load().migrate();
        execute(pool, "DELETE FROM toolboundary_record");
        return pool;
    }

    static void execute(javax.sql.DataSource database, String sql) {
        try (Connection connection = database.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    static long count(javax.sql.DataSource database, String sql) {
        try (Connection connection = database.getConnection(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }
}
