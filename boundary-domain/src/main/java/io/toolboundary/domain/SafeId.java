package io.toolboundary.domain;

/** The safe-identifier rule shared by run ids, tool call ids and tool names. */
final class SafeId {

    /** The longest safe identifier, in characters (all of them ASCII, so also in bytes). */
    static final int MAX_LENGTH = 128;

    private SafeId() {
    }

    static boolean isBlank(String value) {
        return value == null || value.isBlank();
    }

    /** True when the value has 1 to 128 characters, each of {@code [A-Za-z0-9_.:-]}. */
    static boolean isSafe(String value) {
        if (value == null || value.isEmpty() || value.length() > MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            if (!isSafeChar(value.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isSafeChar(char c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9')
                || c == '_' || c == '.' || c == ':' || c == '-';
    }

    static String requireSafe(String value, String field) {
        if (value == null) {
            throw new NullPointerException(field + " is null");
        }
        if (!isSafe(value)) {
            throw new IllegalArgumentException(
                    field + " must be 1 to " + MAX_LENGTH + " characters of [A-Za-z0-9_.:-]");
        }
        return value;
    }
}
