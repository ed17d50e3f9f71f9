-- The citation check's verdicts for MariaDB (10.3 and later) and MySQL (8.0.16 and later): one row per checked
-- answer, written by CitationAudit. A Flyway migration (location classpath:io/toolboundary/export/db/mysql), and
-- plain SQL that runs without Flyway.
--
-- check_id is a generated UUID. checked_at is the instant the check answered, UTC to the microsecond, the
-- nanoseconds below it in checked_nanos (0 to 999). seq is the order rows were written, which orders the checks
-- of one instant. verdicts holds one entry per citation in the order written, "<kind>:<tool call id>=<VERDICT>"
-- joined by ";", an id that is not a safe tool_call_id written as "?"; at most 256 entries, citations counts all.
CREATE TABLE toolboundary_citation_check (
    check_id      VARCHAR(36)  CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    seq           BIGINT       NOT NULL AUTO_INCREMENT,
    run_id        VARCHAR(128) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    checked_at    DATETIME(6)  NOT NULL,
    checked_nanos SMALLINT     NOT NULL,
    grounded      BOOLEAN      NOT NULL,
    uncited       BOOLEAN      NOT NULL,
    citations     INT          NOT NULL,
    verdicts      TEXT         CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    CONSTRAINT toolboundary_citation_check_pk PRIMARY KEY (check_id),
    CONSTRAINT toolboundary_citation_check_seq UNIQUE (seq),
    INDEX toolboundary_citation_check_run (run_id, checked_at),
    CONSTRAINT toolboundary_citation_check_nanos CHECK (checked_nanos BETWEEN 0 AND 999),
    CONSTRAINT toolboundary_citation_check_citations CHECK (citations >= 0)
) ENGINE = InnoDB DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;
