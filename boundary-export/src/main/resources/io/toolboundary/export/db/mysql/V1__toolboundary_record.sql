-- Tool Boundary's audit table for MariaDB (10.3 and later) and MySQL (8.0.16 and later): one row per final
-- record, keyed by (run_id, tool_call_id). A Flyway migration (location
-- classpath:io/toolboundary/export/db/mysql), and plain SQL that runs without Flyway.
--
-- Ids, tool names and codes are ASCII compared byte for byte (ascii_bin): "Call-1" and "call-1" are two calls,
-- and tool_call_id order is the order of their bytes. Texts are utf8mb4 (4-byte characters round-trip).
-- The arguments are kept exactly as the framework supplied them: a LONGTEXT that must hold valid JSON. This is
-- what MariaDB's JSON type is (an alias of LONGTEXT with a JSON_VALID check); MySQL's own JSON type would
-- rewrite the text (key order, spaces, numbers), so it is not used.
-- Instants are UTC, to the microsecond, whatever the session's time zone: the writer binds them as UTC; the
-- nanoseconds below the microsecond are in created_nanos and updated_nanos (0 to 999), so a record reads back
-- exactly as it was stored.
CREATE TABLE toolboundary_record (
    run_id              VARCHAR(128) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    tool_call_id        VARCHAR(128) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    tool                VARCHAR(128) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    status              VARCHAR(16)  CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    evidence            VARCHAR(16)  CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    arguments           LONGTEXT     CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    request_fingerprint VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    content             LONGTEXT     CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
    scope               LONGTEXT     CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
    error_code          VARCHAR(64)  CHARACTER SET ascii COLLATE ascii_bin NULL,
    failure_type        LONGTEXT     CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
    failure_message     LONGTEXT     CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
    raw_response        LONGTEXT     CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
    raw_policy          VARCHAR(8)   CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    created_at          DATETIME(6)  NOT NULL,
    created_nanos       SMALLINT     NOT NULL,
    updated_at          DATETIME(6)  NOT NULL,
    updated_nanos       SMALLINT     NOT NULL,
    exported_at         DATETIME(6)  NOT NULL,
    CONSTRAINT toolboundary_record_pk PRIMARY KEY (run_id, tool_call_id),
    INDEX toolboundary_record_tool_created_at (tool, created_at),
    CONSTRAINT toolboundary_record_status CHECK (status IN ('READY', 'ERROR')),
    CONSTRAINT toolboundary_record_evidence CHECK (evidence IN ('EVIDENCE_FOUND', 'NO_EVIDENCE', 'ERROR')),
    CONSTRAINT toolboundary_record_raw_policy CHECK (raw_policy IN ('KEEP', 'MASK', 'OMIT')),
    CONSTRAINT toolboundary_record_arguments CHECK (JSON_VALID(arguments)),
    CONSTRAINT toolboundary_record_nanos CHECK (created_nanos BETWEEN 0 AND 999 AND updated_nanos BETWEEN 0 AND 999)
) ENGINE = InnoDB DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;
