package io.toolboundary.application.json;

import static java.util.Objects.requireNonNull;

import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.ToolName;
import io.toolboundary.domain.internal.Utf8;
import io.vavr.control.Either;
import java.nio.charset.StandardCharsets;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Checks that tool arguments are exactly one JSON object (RFC 8259; no duplicate keys, nesting and number
 * literals within the limits, no number overflowing a double) and fingerprints them: SHA-256 over the tool's
 * name, a NUL byte and the arguments' RFC 8785 bytes, so two calls share it exactly when they name the same
 * tool with the same JSON value. A lone surrogate in the text is {@code TEXT_NOT_UNICODE} before any other
 * refusal; an escaped one ({@code &#92;ud800}) is {@code ARGUMENTS_INVALID}. One pass, no recursion, into a
 * per-thread buffer.
 */
public final class JsonArguments {

    private static final Either<BoundaryError, String> INVALID = Either.left(BoundaryError.of(ErrorCode.ARGUMENTS_INVALID));
    private static final Either<BoundaryError, String> NOT_UNICODE = Either.left(BoundaryError.of(ErrorCode.TEXT_NOT_UNICODE));
    private static final byte[] LOWER_HEX = {'0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};
    private static final int SHA_256_BYTES = 32;
    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    private final int maxDepth;
    private final int maxNumberLength;
    private final long maxLength;

    /**
     * @param maxDepth deepest nesting of objects and arrays
     * @param maxNumberLength longest number literal, in characters
     * @param maxLength longest document, in characters (the request limit)
     * @throws IllegalArgumentException when a limit is negative
     */
    public JsonArguments(int maxDepth, int maxNumberLength, long maxLength) {
        if (maxDepth < 0 || maxNumberLength < 0 || maxLength < 0) {
            throw new IllegalArgumentException("maxDepth, maxNumberLength and maxLength must not be negative, were "
                    + maxDepth + ", " + maxNumberLength + " and " + maxLength);
        }
        this.maxDepth = maxDepth;
        this.maxNumberLength = maxNumberLength;
        this.maxLength = maxLength;
    }

    /**
     * {@return the fingerprint of the arguments with the tool's name (64 lowercase hex characters),
     * {@link ErrorCode#TEXT_NOT_UNICODE} for a lone surrogate character, else {@link ErrorCode#ARGUMENTS_INVALID} for
     * anything that is not one valid object}
     *
     * @param tool the tool the call names; part of the fingerprint, so the same arguments for another
     *     tool differ
     * @param json the arguments text, already within the request byte limit
     */
    public Either<BoundaryError, String> fingerprint(ToolName tool, String json) {
        requireNonNull(tool, "tool is null");
        requireNonNull(json, "json is null");
        Scratch scratch = SCRATCH.get();
        CanonicalJson canonical = scratch.canonical;
        try {
            canonical.start(tool.value(), (int) Math.min(json.length(), maxLength));
            if (!read(canonical, json)) {
                return refused(json);
            }
            MessageDigest sha256 = scratch.sha256;
            sha256.reset();
            sha256.update(canonical.bytes(), 0, canonical.size());
            byte[] hash = scratch.hash;
            sha256.digest(hash, 0, SHA_256_BYTES);
            byte[] hex = scratch.hex;
            for (int i = 0; i < SHA_256_BYTES; i++) {
                hex[2 * i] = LOWER_HEX[hash[i] >> 4 & 0xF];
                hex[2 * i + 1] = LOWER_HEX[hash[i] & 0xF];
            }
            return Either.right(new String(hex, StandardCharsets.ISO_8859_1));
        } catch (DigestException impossible) {
            throw new IllegalStateException("SHA-256 refused its own digest length", impossible);
        } finally {
            canonical.trim();
        }
    }

    /**
     * The arguments in their RFC 8785 canonical form, or why they are refused (as for
     * {@link #fingerprint(ToolName, String)}).
     */
    Either<BoundaryError, String> canonical(String json) {
        requireNonNull(json, "json is null");
        CanonicalJson canonical = new CanonicalJson();
        canonical.start("", (int) Math.min(json.length(), maxLength));
        if (!read(canonical, json)) {
            return refused(json);
        }
        // After the empty prefix's NUL byte.
        return Either.right(new String(canonical.bytes(), 1, canonical.size() - 1, StandardCharsets.UTF_8));
    }

    private boolean read(CanonicalJson canonical, String json) {
        return json.length() <= maxLength && canonical.append(json, maxDepth, maxNumberLength);
    }

    /** Whatever else is wrong, a lone surrogate character makes the text not Unicode first. */
    private static Either<BoundaryError, String> refused(String json) {
        return Utf8.isWellFormed(json) ? INVALID : NOT_UNICODE;
    }

    /** One thread's parser, digest and small buffers, reused by each call on that thread. */
    private static final class Scratch {
        private final CanonicalJson canonical = new CanonicalJson();
        private final MessageDigest sha256 = newSha256();
        private final byte[] hash = new byte[SHA_256_BYTES];
        private final byte[] hex = new byte[2 * SHA_256_BYTES];
    }

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
