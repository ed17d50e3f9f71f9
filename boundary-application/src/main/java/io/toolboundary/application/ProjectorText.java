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

    /** As {@link Projector#cut}: cut between code points; a lone surrogate comes out as U+FFFD. */
    static String cut(CharSequence text, long maxBytes) {
        requireNonNull(text, "text is null");
        requireBudget(maxBytes);
        int end = cutIndex(text, 0, text.length(), maxBytes);
        return wellFormed(text, 0, end);
    }

    /** As {@link Projector#firstLines(CharSequence, long)}; a lone surrogate comes out as U+FFFD. */
    static String firstLines(CharSequence text, long maxBytes) {
        requireNonNull(text, "text is null");
        requireBudget(maxBytes);
        return firstLines(text.toString().lines(), maxBytes);
    }

    /** As {@link Projector#firstLines(Stream, long)}; reads the stream only as far as the lines fit. */
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
     * The text with credential shapes replaced by {@value #MASK} (see {@link Projector#mask}): key-value pairs
     * whose key names a secret, also inside longer keys and in JSON (quotes kept); {@code Authorization}
     * values and bearer tokens; AWS key ids; passwords in connection strings ({@code scheme://user:pw@host},
     * {@code jdbc:oracle:thin:user/pw@host}); PEM private keys, GitHub, Slack, Stripe, OpenAI and Google API
     * keys, and JWTs. Errs on the side of masking ({@code max_tokens=[masked]}); idempotent, linear time. A
     * password column of a table, or a password holding {@code , ; &} or whitespace, is not recognised.
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
