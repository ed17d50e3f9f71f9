package io.toolboundary.application.json;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Writes a finite double as ECMAScript's {@code Number.prototype.toString} does, the number form of RFC 8785:
 * the shortest decimal that reads back as the same double (the closest, then the even one), without an
 * exponent from 1e-6 to below 1e21, {@code 0} for both zeros. Java 17's {@link Double#toString(double)} is
 * not always shortest, so the digits are found from the double's exact value.
 */
final class CanonicalNumbers {

    /** Seventeen significant digits always read back as the same double. */
    private static final int MAX_DIGITS = 17;
    /** Below 10^21 a number is written without an exponent; from 10^-6 on, too. */
    private static final int PLAIN_UP_TO = 21;
    private static final int PLAIN_FROM = -6;
    /** More digits than any rounding below needs, so that a cut to these loses nothing that matters. */
    private static final int STICKY_DIGITS = 20;
    /** 2^53: below it every integer is a double. */
    private static final double EXACT_INTEGERS = 0x1p53;

    private CanonicalNumbers() {
    }

    /** The ECMAScript form of a finite double; {@link IllegalArgumentException} for NaN and the infinities. */
    static String format(double value) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("value must be finite");
        }
        if (value == 0) {
            return "0";
        }
        StringBuilder out = new StringBuilder(24);
        if (value < 0) {
            out.append('-');
        }
        BigDecimal shortest = shortest(Math.abs(value)).stripTrailingZeros();
        layout(shortest.unscaledValue().toString(), shortest.precision() - shortest.scale(), out);
        return out.toString();
    }

    /**
     * The shortest decimal that reads back as {@code value} (positive), the closest such on a choice.
     * {@link Double#toString(double)} gives a decimal that reads back, so the answer has at most its
     * number of digits; it is nearly always that short already, which one rounding to one digit fewer
     * shows. Whether some decimal of p digits reads back only turns from no to yes as p grows, so
     * otherwise a binary search finds the fewest.
     */
    private static BigDecimal shortest(double value) {
        if (value < EXACT_INTEGERS && value == Math.rint(value)) {
            // Doubles below 2^53 are at most 1 apart: an integer's own digits are the shortest.
            return BigDecimal.valueOf((long) value);
        }
        BigDecimal exact = sticky(new BigDecimal(value));
        int high = Math.min(MAX_DIGITS, new BigDecimal(Double.toString(value)).stripTrailingZeros().precision());
        BigDecimal found = closestReadingBack(exact, value, high);
        int low = 1;
        int middle = high - 1;
        while (found != null && low < high) {
            BigDecimal candidate = closestReadingBack(exact, value, middle);
            if (candidate != null) {
                found = candidate;
                high = middle;
            } else {
                low = middle + 1;
            }
            middle = (low + high) >>> 1;
        }
        if (found == null) {
            throw new IllegalStateException("no decimal of " + high + " digits reads back as " + value);
        }
        return found;
    }

    /**
     * The exact value cut to {@value #STICKY_DIGITS} digits, with a 1 one digit further when the cut lost
     * something. Rounding it down or up to 17 digits or fewer gives what rounding the exact value would,
     * and it lies on the same side of every such rounding's midpoint, at a fraction of the cost: the
     * exact value of a tiny or huge double has hundreds of digits.
     */
    private static BigDecimal sticky(BigDecimal exact) {
        BigDecimal cut = exact.round(new MathContext(STICKY_DIGITS, RoundingMode.DOWN));
        return cut.compareTo(exact) == 0 ? exact : cut.add(BigDecimal.ONE.scaleByPowerOfTen(-cut.scale() - 1));
    }

    /**
     * Of the two decimals of {@code digits} significant digits next to {@code exact}, the closer one that
     * reads back as {@code value} (the even one when both are as close), or null when neither does. If any
     * decimal of that many digits reads back as {@code value}, one of these two does: the decimals that do
     * form one unbroken run around the value.
     */
    private static BigDecimal closestReadingBack(BigDecimal exact, double value, int digits) {
        BigDecimal down = exact.round(new MathContext(digits, RoundingMode.FLOOR));
        BigDecimal up = exact.round(new MathContext(digits, RoundingMode.CEILING));
        boolean downReads = down.doubleValue() == value;
        boolean upReads = up.doubleValue() == value;
        if (downReads && upReads) {
            int closer = exact.subtract(down).compareTo(up.subtract(exact));
            if (closer != 0) {
                return closer < 0 ? down : up;
            }
            return down.unscaledValue().testBit(0) ? up : down;
        }
        return downReads ? down : upReads ? up : null;
    }

    /**
     * ECMAScript's layout of the digits {@code s} (k of them, no trailing zero) of the number
     * {@code s × 10^(n − k)}.
     */
    private static void layout(String s, int n, StringBuilder out) {
        int k = s.length();
        if (k <= n && n <= PLAIN_UP_TO) {
            out.append(s).append("0".repeat(n - k));
        } else if (0 < n && n <= PLAIN_UP_TO) {
            out.append(s, 0, n).append('.').append(s, n, k);
        } else if (PLAIN_FROM < n && n <= 0) {
            out.append("0.").append("0".repeat(-n)).append(s);
        } else {
            int exponent = n - 1;
            out.append(s.charAt(0));
            if (k > 1) {
                out.append('.').append(s, 1, k);
            }
            out.append('e').append(exponent < 0 ? '-' : '+').append(Math.abs(exponent));
        }
    }
}
