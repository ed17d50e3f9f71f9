package io.toolboundary.export;

import javax.sql.DataSource;

/** {@link CitationAudit} on a real PostgreSQL server, migrated by Flyway. */
class PostgresCitationAuditTest extends CitationAuditContract {

    @Override
    DataSource dataSource() {
        return AuditDatabase.postgres().pool();
    }

    @Override
    String migrations() {
        return "postgresql";
    }
}
