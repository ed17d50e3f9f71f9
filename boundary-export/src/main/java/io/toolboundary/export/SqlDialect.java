package io.toolboundary.export;

import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Locale;

/**
 * What differs between the audit databases {@link JdbcAudit} writes to: the upsert whose repeat is a no-op,
 * how an instant is bound and read as UTC, how the arguments reach their JSON column, and where the schema's
 * migrations are.
 */
enum SqlDialect {

    /**
     * MariaDB and MySQL 8: {@code INSERT ... ON DUPLICATE KEY UPDATE run_id = run_id} (never {@code INSERT IGNORE},
     * which would turn a refused value into a warning); instants in {@code DATETIME(6)} columns that hold UTC,
     * bound and read as {@link LocalDateTime} in UTC so that neither the JVM's nor the session's time zone
     * applies.
     */
    MYSQL("mysql") {
        @Override
        String conflictClause() {
            return " ON DUPLICATE KEY UPDATE run_id = run_id";
        }

        @Override
        String argumentsParameter() {
            return "?";
        }

        @Override
        void bindInstant(PreparedStatement statement, int index, Instant instant) throws SQLException {
            statement.setObject(index, LocalDateTime.ofInstant(instant, ZoneOffset.UTC));
        }

        @Override
        Instant readInstant(ResultSet row, String column) throws SQLException {
            LocalDateTime value = row.getObject(column, LocalDateTime.class);
            return value == null ? null : value.toInstant(ZoneOffset.UTC);
        }

        @Override
        boolean updateCountsInserts() {
            return false;
        }
    },

    /**
     * PostgreSQL: {@code INSERT ... ON CONFLICT (run_id, tool_call_id) DO NOTHING}, whose update count is the
     * number of rows inserted; instants in {@code timestamptz} columns, bound and read as
     * {@link OffsetDateTime} at UTC; the arguments cast to {@code json}, which keeps their exact text.
     */
    POSTGRESQL("postgresql") {
        @Override
        String conflictClause() {
            return " ON CONFLICT (run_id, tool_call_id) DO NOTHING";
        }

        @Override
        String argumentsParameter() {
            return "CAST(? AS json)";
        }

        @Override
        boolean updateCountsInserts() {
            return true;
        }
    },

    /**
     * H2 2.x, embedded, for demos and an application's own tests (never the only database a deployment
     * audits to): no upsert clause, so only the rows whose keys have none are inserted, after reading the
     * batch's keys in the same transaction (a writer racing on one key is refused and tried again); the
     * arguments in a character large object, exactly as given; instants as {@code TIMESTAMP WITH TIME ZONE}.
     */
    H2("h2") {
        @Override
        String conflictClause() {
            return "";
        }

        @Override
        String argumentsParameter() {
            return "?";
        }

        @Override
        boolean updateCountsInserts() {
            return false;
        }
    };

    /** The first instant either database holds: 0001-01-01T00:00:00Z. */
    static final Instant FIRST_INSTANT = Instant.parse("0001-01-01T00:00:00Z");
    /** The first instant after the last one either database holds: 10000-01-01T00:00:00Z. */
    static final Instant END_OF_INSTANTS = Instant.parse("+10000-01-01T00:00:00Z");

    private final String folder;

    SqlDialect(String folder) {
        this.folder = folder;
    }

    /** The clause that makes an insert of an existing key change nothing. */
    abstract String conflictClause();

    /** The placeholder of the arguments in an insert. */
    abstract String argumentsParameter();

    /**
     * Binds {@code instant} (already truncated to microseconds) as UTC: an {@link OffsetDateTime} at UTC, for
     * a column with a time zone.
     */
    void bindInstant(PreparedStatement statement, int index, Instant instant) throws SQLException {
        statement.setObject(index, OffsetDateTime.ofInstant(instant, ZoneOffset.UTC));
    }

    /** Reads an instant written by {@link #bindInstant}; null for SQL NULL. */
    Instant readInstant(ResultSet row, String column) throws SQLException {
        OffsetDateTime value = row.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }

    /** True when an upsert's update count is exactly the number of rows it inserted, whatever the driver's settings. */
    abstract boolean updateCountsInserts();

    /** The Flyway location of this dialect's migrations. */
    String flywayLocation() {
        return "classpath:io/toolboundary/export/db/" + folder;
    }

    /**
     * {@return the dialect of the database {@code metadata} describes}
     *
     * @throws IllegalArgumentException for any other product or a version too old, naming it
     */
    static SqlDialect of(DatabaseMetaData metadata) throws SQLException {
        String product = String.valueOf(metadata.getDatabaseProductName());
        String version = String.valueOf(metadata.getDatabaseProductVersion());
        int major = metadata.getDatabaseMajorVersion();
        int minor = metadata.getDatabaseMinorVersion();
        String name = product.toLowerCase(Locale.ROOT);
        String named = product + " " + version;
        if (name.contains("mariadb") || (name.contains("mysql") && version.toLowerCase(Locale.ROOT).contains("mariadb"))) {
            // Through a MySQL driver, MariaDB reports itself as "5.5.5-10.x.y-MariaDB": its own version follows.
            int[] own = mariaDbVersion(version, major, minor);
            return require(MYSQL, own[0] > 10 || (own[0] == 10 && own[1] >= 3), named, "MariaDB 10.3");
        }
        if (name.contains("mysql")) {
            return require(MYSQL, major >= 8, named, "MySQL 8.0.16");
        }
        if (name.contains("postgresql")) {
            return require(POSTGRESQL, major > 9 || (major == 9 && minor >= 5), named, "PostgreSQL 9.5");
        }
        if (name.equals("h2")) {
            return require(H2, major >= 2, named, "H2 2.0");
        }
        throw new IllegalArgumentException("JdbcAudit does not support the database product " + named
                + ": it writes to MariaDB, MySQL 8 and PostgreSQL (and H2, embedded)");
    }

    private static SqlDialect require(SqlDialect dialect, boolean recentEnough, String named, String oldest) {
        if (!recentEnough) {
            throw new IllegalArgumentException("JdbcAudit does not support " + named + ": it needs " + oldest
                    + " or later");
        }
        return dialect;
    }

    private static int[] mariaDbVersion(String version, int major, int minor) {
        String own = version.startsWith("5.5.5-") ? version.substring("5.5.5-".length()) : version;
        String[] parts = own.split("[.-]");
        try {
            return new int[] {Integer.parseInt(parts[0]), Integer.parseInt(parts[1])};
        } catch (RuntimeException unparsed) {
            return new int[] {major, minor};
        }
    }
}
