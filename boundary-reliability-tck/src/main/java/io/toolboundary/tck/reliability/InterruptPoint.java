package io.toolboundary.tck.reliability;

/** Where the interrupt lands. */
public enum InterruptPoint {
    /** The caller's flag is already set when it calls {@code invoke}. */
    BEFORE_INVOKE,
    /** The flag is set as the store's begin starts its I/O. */
    DURING_BEGIN,
    /** The tool sets the flag again (it was interrupted and restores the flag) and returns its result. */
    DURING_TOOL,
    /** The tool is interrupted and gives up with {@link InterruptedException}. */
    TOOL_GIVES_UP,
    /** The flag is set as the store's complete starts its I/O. */
    DURING_COMPLETE
}
