-- Tool Boundary's audit table for H2 2.x, embedded (demos and an application's own tests): the same columns
-- as the MariaDB and PostgreSQL tables. A Flyway migration (location classpath:io/toolboundary/export/db/h2),
-- and plain SQL that runs without Flyway. The arguments are a character large object, kept exactly as given;
-- instants are UTC timestamps to the microsecond, the nanoseconds below them in created_nanos and
-- updated_nanos.
CREATE TABLE toolboundary_record (
    run_id              VARCHAR(128)   NOT NULL,
    tool_call_id        VARCHAR(128)   NOT NULL,
    tool                VARCHAR(128)   NOT NULL,
    status              VARCHAR(16)    NOT NULL,
    evidence            VARCHAR(16)    NOT NULL,
    arguments           CHARACTER LARGE OBJECT NOT NULL,
    request_fingerprint VARCHAR(255)   NOT NULL,
    content             CHARACTER LARGE OBJECT NULL,
    scope               CHARACTER LARGE OBJECT NULL,
    error_code          VARCHAR(64)    NULL,
    failure_type        CHARACTER LARGE OBJECT NULL,
    failure_message     CHARACTER LARGE OBJECT NULL,
    raw_response        CHARACTER LARGE OBJECT NULL,
    raw_policy          VARCHAR(8)     NOT NULL,
    created_at          TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    created_nanos       SMALLINT       NOT NULL,
    updated_at          TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    updated_nanos       SMALLINT       NOT NULL,
    exported_at         TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    CONSTRAINT toolboundary_record_pk PRIMARY KEY (run_id, tool_call_id),
    CONSTRAINT toolboundary_record_status CHECK (status IN ('READY', 'ERROR')),
    CONSTRAINT toolboundary_record_evidence CHECK (evidence IN ('EVIDENCE_FOUND', 'NO_EVIDENCE', 'ERROR')),
    CONSTRAINT toolboundary_record_raw_policy CHECK (raw_policy IN ('KEEP', 'MASK', 'OMIT')),
    CONSTRAINT toolboundary_record_nanos CHECK (created_nanos BETWEEN 0 AND 999 AND updated_nanos BETWEEN 0 AND 999)
);

CREATE INDEX toolboundary_record_tool_created_at ON toolboundary_record (tool, created_at);
