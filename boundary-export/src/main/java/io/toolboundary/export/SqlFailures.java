package io.toolboundary.export;

import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientConnectionException;
import java.util.Set;

/**
 * Turns an {@link SQLException} into an {@link AuditFailure}: its kind from the exception's type, its SQLSTATE
 * class and (for MariaDB and MySQL, whose refusals are not all in a standard class) its vendor code; its reason
 * from what was being done, the SQLSTATE and the vendor code. Never the exception's message, which may quote a
 * value, a URL or a user.
 */
final class SqlFailures {

    /** SQLSTATE classes of a value or statement the database refuses: cardinality, data, integrity, syntax or access, check option, triggered change. */
    private static final Set<String> REFUSING_CLASSES = Set.of("21", "22", "23", "27", "42", "44");
    /**
     * MariaDB/MySQL refusals reported as the general SQLSTATE HY000: 1364 no default, 1366 incorrect string or
     * value, 1411 incorrect value for a function, 3819 a CHECK constraint (MySQL), 4025 a CHECK constraint
     * (MariaDB, which reports 23000).
     */
    private static final Set<Integer> MYSQL_REFUSING_CODES = Set.of(1364, 1366, 1411, 3819, 4025);

    private SqlFailures() {
    }

    /** {@return the failure of {@code doing} (for example "writing 3 records") that {@code failure} ended} */
    static AuditFailure of(String doing, SQLException failure, SqlDialect dialect) {
        SQLException described = described(failure);
        String state = described.getSQLState();
        return new AuditFailure(kind(failure, described, dialect), doing + ": SQLSTATE " + (state == null ? "none" : state)
                + ", vendor code " + described.getErrorCode());
    }

    /** {@return a failure to get a connection: always UNAVAILABLE} */
    static AuditFailure noConnection(String doing, SQLException failure) {
        SQLException described = described(failure);
        String state = described.getSQLState();
        return new AuditFailure(AuditFailure.Kind.UNAVAILABLE, doing + ": no connection, SQLSTATE "
                + (state == null ? "none" : state) + ", vendor code " + described.getErrorCode());
    }

    private static AuditFailure.Kind kind(SQLException thrown, SQLException described, SqlDialect dialect) {
        if (isConnectionFailure(thrown) || isConnectionFailure(described)) {
            return AuditFailure.Kind.UNAVAILABLE;
        }
        String state = described.getSQLState();
        if (state != null && state.length() >= 2) {
            String stateClass = state.substring(0, 2);
            if (stateClass.equals("08")) {
                return AuditFailure.Kind.UNAVAILABLE;
            }
            if (REFUSING_CLASSES.contains(stateClass)) {
                return AuditFailure.Kind.REFUSED;
            }
        }
        if (dialect == SqlDialect.MYSQL && MYSQL_REFUSING_CODES.contains(described.getErrorCode())) {
            return AuditFailure.Kind.REFUSED;
        }
        if (state == null && (described instanceof SQLDataException
                || described instanceof SQLIntegrityConstraintViolationException
                || described instanceof SQLSyntaxErrorException)) {
            return AuditFailure.Kind.REFUSED;
        }
        // Anything else (a deadlock, a lock wait, the server shutting down or out of resources, an unknown
        // state) says nothing against the rows: a later attempt may succeed.
        return AuditFailure.Kind.UNAVAILABLE;
    }

    private static boolean isConnectionFailure(SQLException failure) {
        return failure instanceof SQLTransientConnectionException || failure instanceof SQLNonTransientConnectionException
                || failure instanceof SQLRecoverableException || failure instanceof SQLTimeoutException
                || failure instanceof SQLTransactionRollbackException;
    }

    /**
     * The exception that says what happened: {@code failure} when it has an SQLSTATE, else the first in its
     * chain (next exceptions, then causes) that has one, else {@code failure}.
     */
    private static SQLException described(SQLException failure) {
        if (failure.getSQLState() != null) {
            return failure;
        }
        SQLException next = failure.getNextException();
        for (int depth = 0; next != null && depth < 10; depth++, next = next.getNextException()) {
            if (next.getSQLState() != null) {
                return next;
            }
        }
        Throwable cause = failure.getCause();
        for (int depth = 0; cause != null && depth < 10; depth++, cause = cause.getCause()) {
            if (cause instanceof SQLException sql && sql.getSQLState() != null) {
                return sql;
            }
        }
        return failure;
    }
}
