-- The citation check's verdicts for PostgreSQL (9.5 and later): one row per checked answer, written by
-- CitationAudit. A Flyway migration (location classpath:io/toolboundary/export/db/postgresql), and plain SQL that
-- runs without Flyway.
--
-- check_id is a generated UUID. checked_at is the instant the check answered, to the microsecond, the
-- nanoseconds below it in checked_nanos (0 to 999). seq is the order rows were written, which orders the checks
-- of one instant. verdicts holds one entry per citation in the order written, "<kind>:<tool call id>=<VERDICT>"
-- joined by ";", an id that is not a safe tool_call_id written as "?"; at most 256 entries, citations counts all.
CREATE TABLE toolboundary_citation_check (
    check_id      varchar(36)  COLLATE "C" NOT NULL,
    seq           bigserial    NOT NULL,
    run_id        varchar(128) COLLATE "C" NOT NULL,
    checked_at    timestamptz  NOT NULL,
    checked_nanos smallint     NOT NULL,
    grounded      boolean      NOT NULL,
    uncited       boolean      NOT NULL,
    citations     integer      NOT NULL,
    verdicts      text         COLLATE "C" NOT NULL,
    CONSTRAINT toolboundary_citation_check_pk PRIMARY KEY (check_id),
    CONSTRAINT toolboundary_citation_check_nanos CHECK (checked_nanos BETWEEN 0 AND 999),
    CONSTRAINT toolboundary_citation_check_citations CHECK (citations >= 0)
);

CREATE INDEX toolboundary_citation_check_run ON toolboundary_citation_check (run_id, checked_at);
