package io.toolboundary.application.json;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.ToolName;
import io.toolboundary.domain.internal.Utf8;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HexFormat;
import java.util.List;

/**
 * The reference for {@link JsonArguments}: its former implementation, on jackson-core's streaming parser
 * and generator, kept to compare decisions and fingerprints with. It checks that tool arguments are
 * exactly one JSON object and computes their fingerprint: SHA-256 over the tool's name, one NUL byte and the UTF-8 bytes of the
 * arguments in the JSON Canonicalization Scheme form (RFC 8785). Two calls have the same fingerprint
 * exactly when they name the same tool and their arguments are the same JSON value, however they are
 * written: members are sorted by their names' UTF-16 code units, insignificant whitespace is dropped,
 * every number is read as an IEEE-754 double and written as ECMAScript writes it ({@code 1.0} and
 * {@code 1} are {@code 1}, {@code 1e2} is {@code 100}, {@code -0} is {@code 0}, {@code 1e21} is
 * {@code 1e+21}), and strings are written with only {@code \"}, {@code \\}, {@code \b}, {@code \f},
 * {@code \n}, {@code \r}, {@code \t} and {@code &#92;u00xx} (for the other control characters) escaped,
 * everything else as itself. A tool name never holds a NUL, so the name and the arguments cannot run
 * into each other.
 *
 * <p>Rejected: any other top-level value, trailing content, duplicate keys (after unescaping),
 * nesting deeper than the limit, number literals longer than the limit, numbers that overflow a
 * double. A lone surrogate character in the text is {@code TEXT_NOT_UNICODE}; an escaped one (a
 * {@code &#92;ud800} escape) decodes to text that is not Unicode and is {@code ARGUMENTS_INVALID}.
 * Nothing recurses: the value is held as a small tree built and written with explicit stacks, so any
 * depth the limit allows fits in memory proportional to the text.
 */
final class JacksonReferenceArguments {

    /** Cloned per call: cheaper than a provider lookup. */
    private static final MessageDigest SHA_256 = newSha256();
    private static final HexFormat HEX = HexFormat.of();
    private static final char[] LOWER_HEX = "0123456789abcdef".toCharArray();
    private static final int FIRST_NON_CONTROL = 0x20;

    private final JsonFactory factory;
    private final int maxNumberLength;

    /**
     * @param maxDepth deepest nesting of objects and arrays
     * @param maxNumberLength longest number literal, in characters
     * @param maxLength longest document, in characters (the request limit)
     */
    JacksonReferenceArguments(int maxDepth, int maxNumberLength, long maxLength) {
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
     * Checks the arguments of a call of {@code tool} and fingerprints them with the tool's name.
     *
     * @param tool the tool the call names; part of the fingerprint, so the same arguments for another
     *     tool differ
     * @param json the arguments text, already within the request byte limit
     * @return the fingerprint (64 lowercase hex characters), {@link ErrorCode#TEXT_NOT_UNICODE} for a
     *     lone surrogate character in the text, else {@link ErrorCode#ARGUMENTS_INVALID} for anything
     *     that is not one valid object
     */
    Either<BoundaryError, String> fingerprint(ToolName tool, String json) {
        requireNonNull(tool, "tool is null");
        return canonical(json).map(canonical -> {
            MessageDigest sha256 = sha256();
            sha256.update(tool.value().getBytes(StandardCharsets.UTF_8));
            sha256.update((byte) 0);
            sha256.update(canonical.getBytes(StandardCharsets.UTF_8));
            return HEX.formatHex(sha256.digest());
        });
    }

    /**
     * The arguments in their RFC 8785 canonical form, or why they are refused (as for
     * {@link #fingerprint(ToolName, String)}).
     */
    Either<BoundaryError, String> canonical(String json) {
        requireNonNull(json, "json is null");
        if (!Utf8.isWellFormed(json)) {
            return Either.left(BoundaryError.of(ErrorCode.TEXT_NOT_UNICODE));
        }
        Value value;
        try (JsonParser parser = factory.createParser(json)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return invalid();
            }
            Option<Value> read = read(parser, maxNumberLength);
            if (read.isEmpty() || parser.nextToken() != null) {
                return invalid();
            }
            value = read.get();
        } catch (IOException | RuntimeException malformed) {
            return invalid();
        }
        StringBuilder out = new StringBuilder(json.length());
        write(value, out);
        return Either.right(out.toString());
    }

    /**
     * Reads the value whose {@code START_OBJECT} the parser stands on, up to its {@code END_OBJECT};
     * none when a token is refused.
     */
    private static Option<Value> read(JsonParser parser, int maxNumberLength) throws IOException {
        Deque<Container> open = new ArrayDeque<>();
        open.push(new ObjectValue());
        while (true) {
            JsonToken token = parser.nextToken();
            if (token == null) {
                return Option.none();
            }
            if (token.isNumeric() && parser.getTextLength() > maxNumberLength) {
                // The parser's own bound counts digits only; the limit is on the whole literal.
                return Option.none();
            }
            Value done;
            switch (token) {
                case START_OBJECT -> {
                    open.push(new ObjectValue());
                    continue;
                }
                case START_ARRAY -> {
                    open.push(new ArrayValue());
                    continue;
                }
                case FIELD_NAME -> {
                    if (!wellFormedText(parser)) {
                        return Option.none();
                    }
                    ((ObjectValue) open.peek()).name(parser.currentName());
                    continue;
                }
                case END_OBJECT, END_ARRAY -> done = open.pop().close();
                case VALUE_STRING -> {
                    if (!wellFormedText(parser)) {
                        return Option.none();
                    }
                    done = new Scalar(quoted(parser.getText()));
                }
                case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
                    double number = Double.parseDouble(parser.getText());
                    if (!Double.isFinite(number)) {
                        return Option.none();
                    }
                    done = new Scalar(CanonicalNumbers.format(number));
                }
                case VALUE_TRUE -> done = new Scalar("true");
                case VALUE_FALSE -> done = new Scalar("false");
                case VALUE_NULL -> done = new Scalar("null");
                default -> {
                    return Option.none();
                }
            }
            if (open.isEmpty()) {
                return Option.of(done);
            }
            open.peek().add(done);
        }
    }

    /** Writes a value in canonical form, with a stack of what is left to write instead of recursion. */
    private static void write(Value root, StringBuilder out) {
        Deque<Object> pending = new ArrayDeque<>();
        pending.push(root);
        while (!pending.isEmpty()) {
            Object next = pending.pop();
            if (next instanceof String text) {
                out.append(text);
            } else if (next instanceof Scalar scalar) {
                out.append(scalar.text());
            } else if (next instanceof ArrayValue array) {
                out.append('[');
                pending.push("]");
                for (int i = array.items.size() - 1; i >= 0; i--) {
                    pending.push(array.items.get(i));
                    if (i > 0) {
                        pending.push(",");
                    }
                }
            } else {
                ObjectValue object = (ObjectValue) next;
                out.append('{');
                pending.push("}");
                for (int i = object.members.size() - 1; i >= 0; i--) {
                    Member member = object.members.get(i);
                    pending.push(member.value());
                    pending.push(quoted(member.name()) + ":");
                    if (i > 0) {
                        pending.push(",");
                    }
                }
            }
        }
    }

    /** A string in RFC 8785 form: quoted, with only the escapes JSON requires, in their short forms. */
    static String quoted(String text) {
        StringBuilder out = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < FIRST_NON_CONTROL) {
                        out.append("\\u00").append(LOWER_HEX[c >> 4]).append(LOWER_HEX[c & 0xF]);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
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

    /** One parsed value: a scalar already in canonical text, an array or an object. */
    private interface Value {
    }

    /** A value that holds others, open while the parser is inside it. */
    private interface Container extends Value {
        void add(Value value);

        /** The value once its last member or item has been read. */
        Value close();
    }

    private record Scalar(String text) implements Value {
    }

    private record Member(String name, Value value) {
    }

    private static final class ArrayValue implements Container {
        private final List<Value> items = new ArrayList<>();

        @Override
        public void add(Value value) {
            items.add(value);
        }

        @Override
        public Value close() {
            return this;
        }
    }

    private static final class ObjectValue implements Container {
        private final List<Member> members = new ArrayList<>();
        private String name = "";

        void name(String next) {
            name = next;
        }

        @Override
        public void add(Value value) {
            members.add(new Member(name, value));
        }

        /** Sorts the members by their names' UTF-16 code units, which is what {@link String#compareTo} compares. */
        @Override
        public Value close() {
            members.sort(Comparator.comparing(Member::name));
            return this;
        }
    }
}
