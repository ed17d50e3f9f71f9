package io.toolboundary.benchmarks;

import java.util.Locale;

/** How the report writes figures. */
final class Fmt {

    private Fmt() {
    }

    /** Three significant figures or so: 0.123, 1.23, 12.3, 1,234. */
    static String num(double value) {
        if (!Double.isFinite(value)) {
            return "n/a";
        }
        double magnitude = Math.abs(value);
        String pattern = magnitude >= 100 ? "%,.0f" : magnitude >= 10 ? "%.1f" : magnitude >= 1 ? "%.2f" : "%.3f";
        return String.format(Locale.ROOT, pattern, value);
    }

    /** A whole number with thousands separators. */
    static String whole(double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, "%,.0f", value) : "n/a";
    }

    /** Two decimals. */
    static String ratio(double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, "%.2f", value) : "n/a";
    }

    /** "1 KiB", "64 KiB", "128 B". */
    static String kib(int bytes) {
        return bytes >= 1024 && bytes % 1024 == 0 ? (bytes / 1024) + " KiB" : bytes + " B";
    }

    /** "1 caller", "8 callers". */
    static String callers(int callers) {
        return callers + (callers == 1 ? " caller" : " callers");
    }

    /** µs figures: "12.3 µs (11.0–13.1)". */
    static String micros(Spread spread) {
        return spread.measured() ? spread.format(Fmt::num) + " µs" : "n/a";
    }

    /** Byte figures: "1,234 B (1,200–1,250)". */
    static String bytes(Spread spread) {
        return spread.measured() ? spread.format(Fmt::whole) + " B" : "n/a";
    }
}
