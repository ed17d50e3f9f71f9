package io.toolboundary.mcp;

import static java.util.Objects.requireNonNull;

import io.toolboundary.domain.InvocationKey;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Derives the idempotency key of a call: {@code v1.} and the unpadded base64url of
 * HMAC-SHA256(secret, runId + "\n" + toolCallId), 46 characters that reveal neither id; and checks
 * keys and W3C {@code traceparent} values by their format.
 */
final class CallKeys {

    /** The shortest secret accepted, in bytes. */
    static final int MIN_SECRET_BYTES = 32;

    private static final String ALGORITHM = "HmacSHA256";
    private static final Pattern KEY = Pattern.compile("v1\\.[A-Za-z0-9_-]{43}");
    private static final Pattern TRACEPARENT = Pattern.compile("([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}");

    /** One random secret per process, for factories given none: a retry from this process sends the same key. */
    static final CallKeys PER_PROCESS = new CallKeys(randomSecret());

    private final SecretKeySpec secret;

    private CallKeys(byte[] secret) {
        this.secret = new SecretKeySpec(secret, ALGORITHM);
    }

    static CallKeys of(byte[] secret) {
        requireNonNull(secret, "secret is null");
        if (secret.length < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("the idempotency key secret must be at least " + MIN_SECRET_BYTES
                    + " bytes, was " + secret.length);
        }
        return new CallKeys(Arrays.copyOf(secret, secret.length));
    }

    private static byte[] randomSecret() {
        byte[] secret = new byte[MIN_SECRET_BYTES];
        new SecureRandom().nextBytes(secret);
        return secret;
    }

    String key(InvocationKey call) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(secret);
            byte[] digest = mac.doFinal((call.runId().value() + "\n" + call.toolCallId().value())
                    .getBytes(StandardCharsets.UTF_8));
            return "v1." + Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    /** {@return true when the text has the form of a key this module derives} */
    static boolean isKey(String text) {
        return text != null && KEY.matcher(text).matches();
    }

    /**
     * {@return the value when it is a W3C traceparent (version-traceid-spanid-flags, lower-case hex, version not
     * {@code ff}, ids not all zeros), else empty}
     */
    static Optional<String> traceparent(String value) {
        if (value == null) {
            return Optional.empty();
        }
        var match = TRACEPARENT.matcher(value);
        if (!match.matches() || match.group(1).equals("ff") || match.group(2).chars().allMatch(c -> c == '0')
                || match.group(3).chars().allMatch(c -> c == '0')) {
            return Optional.empty();
        }
        return Optional.of(value);
    }

    @Override
    public String toString() {
        return "CallKeys[secret hidden]";
    }
}
