package io.toolboundary.application.bad;

/** Breaks "ports are not named Port". */
public interface RecordStorePort {

    /** Whether a record exists. */
    boolean exists(String key);
}
