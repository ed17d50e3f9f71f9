package io.toolboundary.export;

import javax.sql.DataSource;

/** {@link CitationAudit} on a real MariaDB server, migrated by Flyway. */
class MariaDbCitationAuditTest extends CitationAuditContract {

    @Override
    DataSource dataSource() {
        return AuditDatabase.mariaDb().pool();
    }

    @Override
    String migrations() {
        return "mysql";
    }
}
