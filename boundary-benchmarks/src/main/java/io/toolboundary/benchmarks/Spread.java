package io.toolboundary.benchmarks;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleUnaryOperator;
import java.util.function.Function;

/**
 * A figure measured several times (forks, runs, repeats): the median and the range, min to max. Empty
 * ({@code n == 0}) when it was not measured; every value that is not a finite number is left out.
 */
record Spread(double median, double min, double max, int n) {

    static final Spread NONE = new Spread(Double.NaN, Double.NaN, Double.NaN, 0);

    /** The median and range of the finite values. */
    static Spread of(Collection<Double> values) {
        List<Double> sorted = new ArrayList<>();
        for (Double value : values) {
            if (value != null && Double.isFinite(value)) {
                sorted.add(value);
            }
        }
        if (sorted.isEmpty()) {
            return NONE;
        }
        sorted.sort(Double::compare);
        int n = sorted.size();
        double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        return new Spread(median, sorted.get(0), sorted.get(n - 1), n);
    }

    /** True when measured at least once. */
    boolean measured() {
        return n > 0;
    }

    /** Each of median, min and max mapped (a monotonically increasing map keeps min below max). */
    Spread map(DoubleUnaryOperator f) {
        return measured() ? new Spread(f.applyAsDouble(median), f.applyAsDouble(min), f.applyAsDouble(max), n) : NONE;
    }

    /** "1.23 (1.10–1.40)" with {@code format} for each figure; "n/a" when not measured; no range for one value. */
    String format(Function<Double, String> format) {
        if (!measured()) {
            return "n/a";
        }
        if (n == 1) {
            return format.apply(median);
        }
        return String.format(Locale.ROOT, "%s (%s–%s)", format.apply(median), format.apply(min), format.apply(max));
    }
}
