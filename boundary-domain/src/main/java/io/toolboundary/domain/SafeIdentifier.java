package io.toolboundary.domain;

import io.vavr.control.Either;
import java.util.function.Function;

/**
 * The one safe-identifier rule behind {@link RunId}, {@link ToolCallId} and {@link ToolName}: 1 to 128
 * characters of {@code [A-Za-z0-9_.:-]}, kept exactly as given.
 */
final class SafeIdentifier {

    /** The longest safe identifier, in characters (all ASCII, so also in bytes). */
    static final int MAX_LENGTH = 128;

    private SafeIdentifier() {
    }

    /** Checks an untrusted value: {@code missing} when null or blank, {@code unsafe} when not safe. */
    static <T> Either<BoundaryError, T> check(String value, ErrorCode missing, ErrorCode unsafe,
            Function<String, T> make) {
        if (value == null) {
            return Either.left(BoundaryError.of(missing));
        }
        if (isSafe(value)) {
            return Either.right(make.apply(value));
        }
        // No safe character is whitespace: only an unsafe value can be blank.
        return Either.left(BoundaryError.of(value.isBlank() ? missing : unsafe));
    }

    /** The value itself, for a trusted value's constructor; throws, naming the value, when it is not safe. */
    static String require(String value, String what) {
        if (value == null) {
            throw new NullPointerException(what + " is null");
        }
        if (!isSafe(value)) {
            String shown = value.length() > 64 ? value.substring(0, 64) + "... (" + value.length() + " characters)"
                    : value;
            throw new IllegalArgumentException(what + " \"" + shown + "\" is not a safe identifier: use 1 to "
                    + MAX_LENGTH + " characters of [A-Za-z0-9_.:-], for example \"log-search\"");
        }
        return value;
    }

    static boolean isSafe(String value) {
        if (value.isEmpty() || value.length() > MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            boolean safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '_' || c == '.' || c == ':' || c == '-';
            if (!safe) {
                return false;
            }
        }
        return true;
    }
}
