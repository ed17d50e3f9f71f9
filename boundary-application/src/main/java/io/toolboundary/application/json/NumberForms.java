package io.toolboundary.application.json;

/**
 * The RFC 8785 form of a JSON number literal, as ASCII bytes: what
 * {@code CanonicalNumbers.format(Double.parseDouble(literal))} gives, or {@link #NOT_FINITE} on overflow. A
 * literal of at most {@value #EXACT_DIGITS} significant digits within ±10^{@value #PLAIN_EXPONENT} is written
 * from its own digits (15 digits always read back as themselves through a double, so they are the shortest);
 * any other goes through {@link Double#parseDouble} and {@link CanonicalNumbers}.
 */
final class NumberForms {

    /** The answer for a literal that overflows a double. */
    static final int NOT_FINITE = -1;
    /** The longest form written: a sign, 17 digits, a point, {@code e-324} and some room. */
    static final int MAX_FORM_LENGTH = 32;

    /** At most this many significant digits are read back exactly from the double they name. */
    private static final int EXACT_DIGITS = 15;
    /** Decimal exponents within this bound keep the decimal among the normal doubles. */
    private static final int PLAIN_EXPONENT = 300;
    /** Below 10^21 a number is written without an exponent; from 10^-6 on, too. */
    private static final int PLAIN_UP_TO = 21;
    private static final int PLAIN_FROM = -6;

    private NumberForms() {
    }

    /**
     * {@return the length of the canonical form of the literal {@code text[start, end)}, written into {@code form} (at
     * least {@value #MAX_FORM_LENGTH} bytes), or {@link #NOT_FINITE}}
     */
    static int write(String text, int start, int end, byte[] form) {
        int exponentAt = end;
        int firstSignificant = -1;
        int lastSignificant = -1;
        int point = -1;
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            if (c == '.') {
                point = i;
            } else if (c == 'e' || c == 'E') {
                exponentAt = i;
                break;
            } else if (c > '0' && c <= '9') {
                if (firstSignificant < 0) {
                    firstSignificant = i;
                }
                lastSignificant = i;
            }
        }
        if (firstSignificant < 0) {
            form[0] = '0';
            return 1;
        }
        int integerEnd = point < 0 ? exponentAt : point;
        int digits = lastSignificant - firstSignificant + 1
                - (point > firstSignificant && point < lastSignificant ? 1 : 0);
        long exponent = exponent(text, exponentAt, end);
        // The value is 0.d1...dk × 10^n, k = digits.
        long n = exponent + (firstSignificant < integerEnd
                ? integerEnd - firstSignificant
                : -(firstSignificant - integerEnd - 1));
        if (digits > EXACT_DIGITS || n > PLAIN_EXPONENT || n < -PLAIN_EXPONENT) {
            return viaDouble(text, start, end, form);
        }
        int length = 0;
        if (text.charAt(start) == '-') {
            form[length++] = '-';
        }
        return layout(text, firstSignificant, lastSignificant + 1, digits, (int) n, form, length);
    }

    /** The exponent after {@code e}, if any; beyond ±10^9 it is only as large as matters. */
    private static long exponent(String text, int exponentAt, int end) {
        if (exponentAt == end) {
            return 0;
        }
        int i = exponentAt + 1;
        boolean negative = text.charAt(i) == '-';
        if (text.charAt(i) == '-' || text.charAt(i) == '+') {
            i++;
        }
        long value = 0;
        for (; i < end && value < 1_000_000_000L; i++) {
            value = value * 10 + (text.charAt(i) - '0');
        }
        return negative ? -value : value;
    }

    /**
     * ECMAScript's layout (as {@code CanonicalNumbers} does it) of the k significant digits in
     * {@code text[from, to)} (a point among them skipped) of the number 0.d1...dk × 10^n.
     */
    private static int layout(String text, int from, int to, int k, int n, byte[] form, int at) {
        int length = at;
        if (k <= n && n <= PLAIN_UP_TO) {
            length = digits(text, from, to, 0, k, form, length);
            for (int i = k; i < n; i++) {
                form[length++] = '0';
            }
        } else if (0 < n && n <= PLAIN_UP_TO) {
            length = digits(text, from, to, 0, n, form, length);
            form[length++] = '.';
            length = digits(text, from, to, n, k, form, length);
        } else if (PLAIN_FROM < n && n <= 0) {
            form[length++] = '0';
            form[length++] = '.';
            for (int i = 0; i < -n; i++) {
                form[length++] = '0';
            }
            length = digits(text, from, to, 0, k, form, length);
        } else {
            length = digits(text, from, to, 0, 1, form, length);
            if (k > 1) {
                form[length++] = '.';
                length = digits(text, from, to, 1, k, form, length);
            }
            int exponent = n - 1;
            form[length++] = 'e';
            form[length++] = (byte) (exponent < 0 ? '-' : '+');
            int magnitude = Math.abs(exponent);
            if (magnitude >= 100) {
                form[length++] = (byte) ('0' + magnitude / 100);
            }
            if (magnitude >= 10) {
                form[length++] = (byte) ('0' + magnitude / 10 % 10);
            }
            form[length++] = (byte) ('0' + magnitude % 10);
        }
        return length;
    }

    /** Copies the significant digits numbered {@code [first, last)} of {@code text[from, to)}, skipping a point. */
    private static int digits(String text, int from, int to, int first, int last, byte[] form, int at) {
        int length = at;
        int index = 0;
        for (int i = from; i < to && index < last; i++) {
            char c = text.charAt(i);
            if (c != '.') {
                if (index >= first) {
                    form[length++] = (byte) c;
                }
                index++;
            }
        }
        return length;
    }

    private static int viaDouble(String text, int start, int end, byte[] form) {
        double value = Double.parseDouble(text.substring(start, end));
        if (!Double.isFinite(value)) {
            return NOT_FINITE;
        }
        String written = CanonicalNumbers.format(value);
        for (int i = 0; i < written.length(); i++) {
            form[i] = (byte) written.charAt(i);
        }
        return written.length();
    }
}
