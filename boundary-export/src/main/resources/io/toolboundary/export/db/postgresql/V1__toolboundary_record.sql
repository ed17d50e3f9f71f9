-- Tool Boundary's audit table for PostgreSQL (9.5 and later): one row per final record, keyed by
-- (run_id, tool_call_id). A Flyway migration (location classpath:io/toolboundary/export/db/postgresql), and
-- plain SQL that runs without Flyway.
--
-- Ids, tool names and codes are compared byte for byte (COLLATE "C"): tool_call_id order is the order of
-- their bytes, whatever the database's collation. The arguments are json, which keeps the exact text it was
-- given (and checks that it is JSON). Instants are timestamptz, to the microsecond; the nanoseconds below the
-- microsecond are in created_nanos and updated_nanos (0 to 999), so a record reads back exactly as stored.
CREATE TABLE toolboundary_record (
    run_id              varchar(128) COLLATE "C" NOT NULL,
    tool_call_id        varchar(128) COLLATE "C" NOT NULL,
    tool                varchar(128) COLLATE "C" NOT NULL,
    status              varchar(16)  COLLATE "C" NOT NULL,
    evidence            varchar(16)  COLLATE "C" NOT NULL,
    arguments           json         NOT NULL,
    request_fingerprint varchar(255) NOT NULL,
    content             text         NULL,
    scope               text         NULL,
    error_code          varchar(64)  COLLATE "C" NULL,
    failure_type        text         NULL,
    failure_message     text         NULL,
    raw_response        text         NULL,
    raw_policy          varchar(8)   COLLATE "C" NOT NULL,
    created_at          timestamptz  NOT NULL,
    created_nanos       smallint     NOT NULL,
    updated_at          timestamptz  NOT NULL,
    updated_nanos       smallint     NOT NULL,
    exported_at         timestamptz  NOT NULL,
    CONSTRAINT toolboundary_record_pk PRIMARY KEY (run_id, tool_call_id),
    CONSTRAINT toolboundary_record_status CHECK (status IN ('READY', 'ERROR')),
    CONSTRAINT toolboundary_record_evidence CHECK (evidence IN ('EVIDENCE_FOUND', 'NO_EVIDENCE', 'ERROR')),
    CONSTRAINT toolboundary_record_raw_policy CHECK (raw_policy IN ('KEEP', 'MASK', 'OMIT')),
    CONSTRAINT toolboundary_record_nanos CHECK (created_nanos BETWEEN 0 AND 999 AND updated_nanos BETWEEN 0 AND 999)
);

CREATE INDEX toolboundary_record_tool_created_at ON toolboundary_record (tool, created_at);
