package io.toolboundary.application.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.Utf8;
import io.vavr.control.Either;
import java.io.IOException;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Checks that tool arguments are exactly one JSON object, with jackson-core's streaming parser (no
 * tree is built), and computes the fingerprint of its canonical form: the same tokens without
 * insignificant whitespace and with strings escaped one way, hashed with SHA-256.
 *
 * <p>Rejected: any other top-level value, trailing content, duplicate keys, nesting deeper than the
 * limit, number literals longer than the limit, numbers that overflow a double. A lone surrogate
 * character in the text is {@code TEXT_NOT_UNICODE}; an escaped one (a {@code &#92;ud800} escape) decodes to
 * text that is not Unicode and is {@code ARGUMENTS_INVALID}.
 */
public final class JsonArguments {

    /** Cloned per call: cheaper than a provider lookup. */
    private static final MessageDigest SHA_256 = newSha256();
    private static final HexFormat HEX = HexFormat.of();

    private final JsonFactory factory;
    private final int maxNumberLength;

    /**
     * @param maxDepth deepest nesting of objects and arrays
     * @param maxNumberLength longest number literal, in characters
     * @param maxLength longest document, in characters (the request limit)
     */
    public JsonArguments(int maxDepth, int maxNumberLength, long maxLength) {
        int length = (int) Math.min(Integer.MAX_VALUE, maxLength);
        this.maxNumberLength = maxNumberLength;
        this.factory = JsonFactory.builder()
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                // Field names of untrusted arguments are not worth a shared symbol table.
                .disable(JsonFactory.Feature.CANONICALIZE_FIELD_NAMES)
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(maxDepth)
                        .maxNumberLength(maxNumberLength)
                        .maxStringLength(length)
                        .maxNameLength(length)
                        .maxDocumentLength(maxLength)
                        .build())
                .build();
    }

    /**
     * Checks the arguments and fingerprints them.
     *
     * @param json the arguments text, already within the request byte limit
     * @return the fingerprint (64 hex characters), {@link ErrorCode#TEXT_NOT_UNICODE} for a lone
     *     surrogate character in the text, else {@link ErrorCode#ARGUMENTS_INVALID} for anything that is not one valid object
     */
    public Either<BoundaryError, String> fingerprint(String json) {
        if (!Utf8.isWellFormed(json)) {
            return Either.left(BoundaryError.of(ErrorCode.TEXT_NOT_UNICODE));
        }
        MessageDigest sha256 = sha256();
        try (JsonParser parser = factory.createParser(json);
                JsonGenerator canonical = factory.createGenerator(new DigestSink(sha256))) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return invalid();
            }
            for (JsonToken token = JsonToken.START_OBJECT; token != null; token = parser.nextToken()) {
                if (!copy(parser, token, canonical, maxNumberLength)) {
                    return invalid();
                }
                if (parser.getParsingContext().inRoot() && token == JsonToken.END_OBJECT) {
                    break;
                }
            }
            if (parser.nextToken() != null) {
                return invalid();
            }
            canonical.flush();
        } catch (IOException | RuntimeException malformed) {
            return invalid();
        }
        return Either.right(HEX.formatHex(sha256.digest()));
    }

    private static boolean copy(JsonParser parser, JsonToken token, JsonGenerator out, int maxNumberLength)
            throws IOException {
        if (token.isNumeric() && parser.getTextLength() > maxNumberLength) {
            // The parser's own bound counts digits only; the limit is on the whole literal.
            return false;
        }
        switch (token) {
            case START_OBJECT -> out.writeStartObject();
            case END_OBJECT -> out.writeEndObject();
            case START_ARRAY -> out.writeStartArray();
            case END_ARRAY -> out.writeEndArray();
            case FIELD_NAME -> {
                if (!wellFormedText(parser)) {
                    return false;
                }
                out.writeFieldName(parser.currentName());
            }
            case VALUE_STRING -> {
                if (!wellFormedText(parser)) {
                    return false;
                }
                out.writeString(parser.getTextCharacters(), parser.getTextOffset(), parser.getTextLength());
            }
            case VALUE_NUMBER_INT -> out.writeNumber(parser.getText());
            case VALUE_NUMBER_FLOAT -> {
                if (!Double.isFinite(parser.getDoubleValue())) {
                    return false;
                }
                out.writeNumber(parser.getText());
            }
            case VALUE_TRUE -> out.writeBoolean(true);
            case VALUE_FALSE -> out.writeBoolean(false);
            case VALUE_NULL -> out.writeNull();
            default -> {
                return false;
            }
        }
        return true;
    }

    private static boolean wellFormedText(JsonParser parser) throws IOException {
        char[] chars = parser.getTextCharacters();
        int end = parser.getTextOffset() + parser.getTextLength();
        for (int i = parser.getTextOffset(); i < end; i++) {
            char c = chars[i];
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < end && Character.isLowSurrogate(chars[i + 1])) {
                    i++;
                } else {
                    return false;
                }
            }
        }
        return true;
    }

    private static Either<BoundaryError, String> invalid() {
        return Either.left(BoundaryError.of(ErrorCode.ARGUMENTS_INVALID));
    }

    private static MessageDigest sha256() {
        try {
            return (MessageDigest) SHA_256.clone();
        } catch (CloneNotSupportedException notCloneable) {
            return newSha256();
        }
    }

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }

    /** Feeds the canonical form into the digest; nothing is kept. */
    private static final class DigestSink extends OutputStream {
        private final MessageDigest digest;

        DigestSink(MessageDigest digest) {
            this.digest = digest;
        }

        @Override
        public void write(int b) {
            digest.update((byte) b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            digest.update(b, off, len);
        }
    }
}
