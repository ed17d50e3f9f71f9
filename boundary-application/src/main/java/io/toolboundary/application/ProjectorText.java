package io.toolboundary.application;

import static java.util.Objects.requireNonNull;

import java.util.Iterator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The text helpers {@link Projector} offers its authors (see there), and the masking of failure reasons. */
final class ProjectorText {

    static final String MASK = "[masked]";

    private static final char REPLACEMENT = '\uFFFD';

    /** Private key blocks in PEM form, up to their END line or the end of the text. */
    private static final Pattern PEM_PRIVATE_KEY = Pattern.compile(
            "-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[\\s\\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----|\\z)");

    /** {@code scheme://user:password@host}, including {@code jdbc:mysql://} and {@code mongodb+srv://}. */
    private static final Pattern URL_PASSWORD = Pattern.compile(
            "(?i)\\b[a-z][a-z0-9+.-]*+(?::[a-z][a-z0-9+.-]*+)*+://[^\\s:/?#@]*+:(?<value>[^\\s/?#]+)@");

    /** Oracle's {@code jdbc:oracle:thin:user/password@host}. */
    private static final Pattern ORACLE_PASSWORD = Pattern.compile(
            "(?i)\\bjdbc:oracle:[a-z]++:[^\\s/@:]++/(?<value>[^\\s@]+)@");

    /** {@code Authorization: Bearer x}, {@code Authorization: Basic x}, {@code Authorization: x}. */
    private static final Pattern AUTHORIZATION = Pattern.compile(
            "(?i)\\b(?:proxy-)?authorization[\"']?[ \\t]*+[:=][ \\t]*+[\"']?"
                    + "(?:(?:bearer|basic|digest|token|negotiate|apikey)[ \\t]++)?+(?!\\[masked\\])(?<value>[^\\s\"',;]++)");

    /** A bearer token anywhere, for example in a log line or a curl command. */
    private static final Pattern BEARER = Pattern.compile(
            "(?i)\\bbearer[ \\t]++(?<value>[a-z0-9._~+/-]{8,}+=*+)");

    /**
     * {@code password=x}, {@code passwd: x}, {@code "api_key": "x"}, {@code DB_PASSWORD=x},
     * {@code aws_secret_access_key = x}, {@code clientSecret: x}, {@code token=x} and the like.
     */
    private static final Pattern KEY_VALUE = Pattern.compile(
            "(?i)(?<![\\w.-])[\\w.-]{0,40}?"
                    + "(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credentials?)"
                    + "[\\w.-]{0,40}+[\"']?[ \\t]*+(?:[:=]>?)[ \\t]*+(?!\\[masked\\])"
                    + "(?<value>\"(?:[^\"\\\\\\r\\n]|\\\\.)*+\"?|'[^'\\r\\n]*+'?|[^\\s\"',;&<]++)");

    /** Credentials recognisable by their shape alone. */
    private static final Pattern TOKEN_SHAPES = Pattern.compile(
            "\\b(?<value>(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA)[A-Z0-9]{16}"
                    + "|gh[pousr]_[A-Za-z0-9]{36,}+"
                    + "|github_pat_[A-Za-z0-9_]{22,}+"
                    + "|xox[abprs]-[A-Za-z0-9-]{10,}+"
                    + "|sk_live_[A-Za-z0-9]{16,}+"
                    + "|sk-[A-Za-z0-9_-]{20,}+"
                    + "|AIza[0-9A-Za-z_-]{35}"
                    + "|eyJ[A-Za-z0-9_-]{8,}+\\.[A-Za-z0-9_-]{8,}+\\.[A-Za-z0-9_-]*+)(?![A-Za-z0-9])");

    private static final List<Pattern> VALUE_PATTERNS =
            List.of(URL_PASSWORD, ORACLE_PASSWORD, AUTHORIZATION, BEARER, KEY_VALUE, TOKEN_SHAPES);

    private ProjectorText() {
    }

    /**
     * The longest start of {@code text} that takes at most {@code maxBytes} bytes in UTF-8, cut between
     * code points: a character that does not fit whole is left out whole, so a surrogate pair is never
     * split. Text of exactly {@code maxBytes} bytes comes back whole; one more byte and the last
     * character is cut. A lone surrogate comes out as U+FFFD (3 bytes).
     *
     * @param text the text to cut
     * @param maxBytes the budget in UTF-8 bytes, 0 or more
     * @return the cut text, well-formed and at most {@code maxBytes} UTF-8 bytes
     * @throws IllegalArgumentException when {@code maxBytes} is negative
     */
    static String cut(CharSequence text, long maxBytes) {
        requireNonNull(text, "text is null");
        requireBudget(maxBytes);
        int end = cutIndex(text, 0, text.length(), maxBytes);
        return wellFormed(text, 0, end);
    }

    /**
     * The first whole lines of {@code text} that fit {@code maxBytes} UTF-8 bytes together, joined by
     * {@code \n} (each separator counts 1 byte). Lines end at {@code \n}, {@code \r\n} or {@code \r},
     * as in {@link String#lines()}. It stops at the first line that does not fit, so the lines come
     * back in order and without gaps; when even the first line does not fit the result is empty. A
     * lone surrogate comes out as U+FFFD.
     *
     * @param text the text whose lines are taken
     * @param maxBytes the budget in UTF-8 bytes, 0 or more
     * @return the lines that fit, well-formed and at most {@code maxBytes} UTF-8 bytes
     * @throws IllegalArgumentException when {@code maxBytes} is negative
     */
    static String firstLines(CharSequence text, long maxBytes) {
        requireNonNull(text, "text is null");
        requireBudget(maxBytes);
        return firstLines(text.toString().lines(), maxBytes);
    }

    /**
     * The first of {@code lines} that fit {@code maxBytes} UTF-8 bytes together, joined by {@code \n}
     * (each separator counts 1 byte); as {@link #firstLines(CharSequence, long)}, for lines already
     * filtered or mapped, for example {@code raw.lines().filter(l -> l.contains("ERROR"))}. Reads the
     * stream only as far as the lines fit.
     *
     * @param lines the lines, none of them null
     * @param maxBytes the budget in UTF-8 bytes, 0 or more
     * @return the lines that fit, well-formed and at most {@code maxBytes} UTF-8 bytes
     * @throws IllegalArgumentException when {@code maxBytes} is negative
     */
    static String firstLines(Stream<? extends CharSequence> lines, long maxBytes) {
        requireNonNull(lines, "lines is null");
        requireBudget(maxBytes);
        StringBuilder out = new StringBuilder();
        long used = 0;
        boolean first = true;
        for (Iterator<? extends CharSequence> it = lines.iterator(); it.hasNext(); ) {
            CharSequence line = requireNonNull(it.next(), "a line is null");
            long separator = first ? 0 : 1;
            long budget = maxBytes - used - separator;
            if (budget < 0) {
                break;
            }
            int end = cutIndex(line, 0, line.length(), budget);
            if (end < line.length()) {
                break;
            }
            if (!first) {
                out.append('\n');
            }
            used += separator + appendWellFormed(out, line, 0, end);
            first = false;
        }
        return out.toString();
    }

    /**
     * The text with common credential shapes replaced by {@value #MASK}:
     * <ul>
     *   <li>key-value pairs whose key names a secret: {@code password=}, {@code passwd:}, {@code pwd=},
     *       {@code passphrase}, {@code secret=}, {@code token=}, {@code api_key=}, {@code access_key},
     *       {@code private_key}, {@code credentials}, also inside longer keys ({@code DB_PASSWORD},
     *       {@code aws_secret_access_key}, {@code clientSecret}) and in JSON ({@code "password": "x"},
     *       whose quotes are kept);</li>
     *   <li>{@code Authorization:} header values and bearer tokens;</li>
     *   <li>AWS access key ids ({@code AKIA...}, {@code ASIA...}); AWS secret keys by their key name;</li>
     *   <li>passwords in connection strings: {@code redis://user:password@host}, {@code postgres://},
     *       {@code mysql://}, {@code mongodb+srv://}, {@code jdbc:mysql://...}, and
     *       {@code jdbc:oracle:thin:user/password@host};</li>
     *   <li>PEM private key blocks, GitHub, Slack, Stripe, OpenAI and Google API keys, and JWTs.</li>
     * </ul>
     *
     * <p>It errs on the side of masking ({@code max_tokens=500} becomes {@code max_tokens=[masked]}),
     * it is idempotent, and its patterns run in linear time. It masks shapes, not meanings: a value in
     * a column called {@code password} of a tab-separated table is not recognised, nor is a password
     * that contains {@code , ; &} or whitespace after its first such character. Project only the
     * columns you need.
     *
     * @param text the text to mask
     * @return the masked text
     */
    static String mask(CharSequence text) {
        requireNonNull(text, "text is null");
        String masked = PEM_PRIVATE_KEY.matcher(text).replaceAll(MASK);
        for (Pattern pattern : VALUE_PATTERNS) {
            masked = maskValues(pattern, masked);
        }
        return masked;
    }

    private static String maskValues(Pattern pattern, String text) {
        Matcher matcher = pattern.matcher(text);
        if (!matcher.find()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 16);
        int copied = 0;
        do {
            int start = matcher.start("value");
            int end = matcher.end("value");
            out.append(text, copied, start);
            char open = text.charAt(start);
            if ((open == '"' || open == '\'') && pattern == KEY_VALUE) {
                out.append(open).append(MASK);
                if (end - start > 1 && text.charAt(end - 1) == open) {
                    out.append(open);
                }
            } else {
                out.append(MASK);
            }
            copied = end;
        } while (matcher.find());
        out.append(text, copied, text.length());
        return out.toString();
    }

    /** The end index of the longest start of {@code text[from, to)} within {@code maxBytes}. */
    private static int cutIndex(CharSequence text, int from, int to, long maxBytes) {
        long bytes = 0;
        int i = from;
        while (i < to) {
            char c = text.charAt(i);
            int units = 1;
            long size;
            if (c < 0x80) {
                size = 1;
            } else if (c < 0x800) {
                size = 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < to && Character.isLowSurrogate(text.charAt(i + 1))) {
                size = 4;
                units = 2;
            } else {
                size = 3;
            }
            if (bytes + size > maxBytes) {
                break;
            }
            bytes += size;
            i += units;
        }
        return i;
    }

    private static String wellFormed(CharSequence text, int from, int to) {
        StringBuilder out = new StringBuilder(to - from);
        appendWellFormed(out, text, from, to);
        return out.toString();
    }

    /** Appends {@code text[from, to)} with lone surrogates as U+FFFD; returns the UTF-8 bytes appended. */
    private static long appendWellFormed(StringBuilder out, CharSequence text, int from, int to) {
        long bytes = 0;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes += 1;
                out.append(c);
            } else if (c < 0x800) {
                bytes += 2;
                out.append(c);
            } else if (Character.isHighSurrogate(c) && i + 1 < to && Character.isLowSurrogate(text.charAt(i + 1))) {
                bytes += 4;
                out.append(c).append(text.charAt(++i));
            } else if (Character.isSurrogate(c)) {
                bytes += 3;
                out.append(REPLACEMENT);
            } else {
                bytes += 3;
                out.append(c);
            }
        }
        return bytes;
    }

    private static void requireBudget(long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes must not be negative, was " + maxBytes);
        }
    }
}
