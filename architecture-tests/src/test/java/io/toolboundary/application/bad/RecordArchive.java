package io.toolboundary.application.bad;

/** Follows "ports are not named Port": named by what it is. */
public interface RecordArchive {

    /** Whether a record exists. */
    boolean exists(String key);
}
