package io.toolboundary.export;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.toolboundary.testsupport.sql.MariaDbServer;
import io.toolboundary.testsupport.sql.PostgresServer;
import io.toolboundary.testsupport.sql.SqlServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.flywaydb.core.Flyway;

/**
 * One real audit database for tests: a server from redis-test-support's SQL servers, a HikariCP pool over it,
 * and the table migrated by Flyway from the shipped migrations. {@link #mariaDb()} and {@link #postgres()} are
 * shared by every test of the JVM (each test uses its own runs and tools); {@link #own} makes one a test may
 * stop.
 */
final class AuditDatabase implements AutoCloseable {

    private static AuditDatabase mariaDb;
    private static AuditDatabase postgres;

    private final SqlServer server;
    private final HikariDataSource pool;
    private final JdbcAudit audit;

    private AuditDatabase(SqlServer server, Consumer<HikariConfig> tuning) {
        this.server = server;
        this.pool = pool(server, tuning);
        this.audit = JdbcAudit.of(pool);
        Flyway.configure().dataSource(pool).locations(audit.flywayLocation()).load().migrate();
    }

    /** The JVM's MariaDB audit database, migrated. */
    static synchronized AuditDatabase mariaDb() {
        if (mariaDb == null) {
            mariaDb = new AuditDatabase(MariaDbServer.shared(), config -> { });
        }
        return mariaDb;
    }

    /** The JVM's PostgreSQL audit database, migrated. */
    static synchronized AuditDatabase postgres() {
        if (postgres == null) {
            postgres = new AuditDatabase(PostgresServer.shared(), config -> { });
        }
        return postgres;
    }

    /** A migrated database on a server of the caller's own, which it may stop and start; close it. */
    static AuditDatabase own(SqlServer server) {
        // A short wait for a connection: the test stops the server and counts on the pool giving up soon.
        return new AuditDatabase(server, config -> {
            config.setConnectionTimeout(1_000);
            config.setValidationTimeout(500);
        });
    }

    /** A new pool over {@code server}, tuned by {@code tuning}; the caller closes it. */
    static HikariDataSource pool(SqlServer server, Consumer<HikariConfig> tuning) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(server.jdbcUrl());
        config.setUsername(server.user());
        config.setPassword(server.password());
        config.setMaximumPoolSize(4);
        config.setMinimumIdle(1);
        config.setConnectionTimeout(2_000);
        config.setValidationTimeout(1_000);
        config.setPoolName("audit-" + server.product() + "-" + server.port());
        tuning.accept(config);
        return new HikariDataSource(config);
    }

    SqlServer server() {
        return server;
    }

    HikariDataSource pool() {
        return pool;
    }

    JdbcAudit audit() {
        return audit;
    }

    boolean isPostgres() {
        return server instanceof PostgresServer;
    }

    /** Runs each statement in its own auto-committed statement. */
    void execute(String... statements) {
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        } catch (SQLException failure) {
            throw new IllegalStateException("cannot run " + List.of(statements), failure);
        }
    }

    /** Creates {@code table} from the shipped migration, every name in it renamed, as a user without Flyway would. */
    void createTableLikeTheMigration(String table) {
        String location = audit.flywayLocation().substring("classpath:".length());
        String script;
        try (InputStream in = AuditDatabase.class.getClassLoader().getResourceAsStream(location + "/V1__toolboundary_record.sql")) {
            if (in == null) {
                throw new IllegalStateException("no migration at " + location);
            }
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
        List<String> statements = new ArrayList<>();
        StringBuilder withoutComments = new StringBuilder();
        for (String line : script.split("\n")) {
            if (!line.strip().startsWith("--")) {
                withoutComments.append(line).append('\n');
            }
        }
        for (String statement : withoutComments.toString().split(";")) {
            if (!statement.isBlank()) {
                statements.add(statement.replace(JdbcAudit.DEFAULT_TABLE, table));
            }
        }
        execute(statements.toArray(String[]::new));
    }

    /** Closes the pool and, for a database of its own, the server. */
    @Override
    public void close() {
        pool.close();
        if (this != mariaDb && this != postgres) {
            server.close();
        }
    }
}
