package io.toolboundary.benchmarks;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The rows of one or more JMH JSON result files ({@code -rf json}), each split into its forks: a run
 * with {@code -f 3} gives three forks in one row, three runs with {@code -f 0} give one fork in each of
 * three rows (told apart by {@link Row#source}, the run's place in the list, whether a run is one file or
 * one file per kind). Times are microseconds
 * per call, throughputs calls per second.
 */
final class JmhResults {

    /** One fork: its mean (µs per call, or calls per second), allocation per call, p50 and p99 in µs (sampled modes). */
    record Fork(int source, double score, double allocatedBytes, double p50Micros, double p99Micros) {
    }

    /** One benchmark, mode and parameter set from one file. */
    record Row(int source, String benchmark, String method, String mode, int threads, JsonNode params,
            JsonNode primary, JsonNode secondary) {

        /** A parameter's value as an integer. */
        int param(String name) {
            return Integer.parseInt(params.path(name).asText("-1"));
        }

        /** Every fork: the mean of its iterations, or of its samples in SampleTime. */
        List<Fork> forks() {
            String unit = primary.path("scoreUnit").asText();
            JsonNode allocation = secondary.path("gc.alloc.rate.norm").path("rawData");
            List<Fork> forks = new ArrayList<>();
            JsonNode histograms = primary.path("rawDataHistogram");
            JsonNode raw = primary.path("rawData");
            int count = histograms.isArray() ? histograms.size() : raw.size();
            for (int f = 0; f < count; f++) {
                double allocated = mean(allocation.path(f));
                if (histograms.isArray()) {
                    TreeMap<Double, Long> merged = new TreeMap<>();
                    for (JsonNode iteration : histograms.path(f)) {
                        for (JsonNode bucket : iteration) {
                            merged.merge(bucket.path(0).asDouble(), bucket.path(1).asLong(), Long::sum);
                        }
                    }
                    forks.add(new Fork(source, convert(histogramMean(merged), unit), allocated,
                            convert(histogramPercentile(merged, 0.50), unit), convert(histogramPercentile(merged, 0.99), unit)));
                } else {
                    forks.add(new Fork(source, convert(mean(raw.path(f)), unit), allocated, Double.NaN, Double.NaN));
                }
            }
            return forks;
        }
    }

    private final List<Row> rows;

    private JmhResults(List<Row> rows) {
        this.rows = List.copyOf(rows);
    }

    /** Reads the files, each a source of its own; a missing file adds nothing but keeps its place in the numbering. */
    static JmhResults read(List<Path> files) throws IOException {
        return readRuns(files.stream().map(List::of).toList());
    }

    /**
     * Reads runs of one or more files each (a run's kinds measured in JVMs of their own): every file of a
     * run is the same source, the run's place in the list; a missing file adds nothing.
     */
    static JmhResults readRuns(List<List<Path>> runs) throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        List<Row> rows = new ArrayList<>();
        for (int source = 0; source < runs.size(); source++) {
            for (Path file : runs.get(source)) {
                if (!Files.isRegularFile(file) || Files.size(file) == 0) {
                    continue;
                }
                for (JsonNode node : mapper.readTree(file.toFile())) {
                    String benchmark = node.path("benchmark").asText();
                    String method = benchmark.substring(benchmark.lastIndexOf('.') + 1);
                    rows.add(new Row(source, benchmark, method, node.path("mode").asText(),
                            node.path("threads").asInt(), node.path("params"), node.path("primaryMetric"),
                            node.path("secondaryMetrics")));
                }
            }
        }
        return new JmhResults(rows);
    }

    /**
     * The forks of one benchmark class (simple name), method and mode ("avgt", "sample", "thrpt") with
     * the given parameters (a null name matches any), over every file.
     */
    List<Fork> forks(String benchmarkClass, String method, String mode, Map<String, Integer> params) {
        requireNonNull(benchmarkClass, "benchmarkClass is null");
        List<Fork> forks = new ArrayList<>();
        rows.stream()
                .filter(row -> row.benchmark().contains("." + benchmarkClass + "."))
                .filter(row -> row.method().equals(method) && row.mode().equals(mode))
                .filter(row -> params.entrySet().stream().allMatch(p -> row.param(p.getKey()) == p.getValue()))
                .forEach(row -> forks.addAll(row.forks()));
        return forks;
    }

    /** The threads of the first row of a method, or 1. */
    int threads(String benchmarkClass, String method) {
        return rows.stream().filter(row -> row.benchmark().contains("." + benchmarkClass + "."))
                .filter(row -> row.method().equals(method)).mapToInt(Row::threads).findFirst().orElse(1);
    }

    /** True when nothing was read. */
    boolean isEmpty() {
        return rows.isEmpty();
    }

    private static double mean(JsonNode values) {
        if (!values.isArray() || values.isEmpty()) {
            return Double.NaN;
        }
        double sum = 0;
        for (JsonNode value : values) {
            sum += value.asDouble();
        }
        return sum / values.size();
    }

    private static double histogramMean(TreeMap<Double, Long> histogram) {
        double sum = 0;
        long count = 0;
        for (Map.Entry<Double, Long> bucket : histogram.entrySet()) {
            sum += bucket.getKey() * bucket.getValue();
            count += bucket.getValue();
        }
        return count == 0 ? Double.NaN : sum / count;
    }

    private static double histogramPercentile(TreeMap<Double, Long> histogram, double quantile) {
        long total = histogram.values().stream().mapToLong(Long::longValue).sum();
        long seen = 0;
        for (Map.Entry<Double, Long> bucket : histogram.entrySet()) {
            seen += bucket.getValue();
            if (seen >= quantile * total) {
                return bucket.getKey();
            }
        }
        return Double.NaN;
    }

    /** Converts a JMH score in {@code unit} to microseconds per call, or to calls per second. */
    static double convert(double value, String unit) {
        return switch (unit) {
            case "ns/op" -> value / 1_000.0;
            case "us/op" -> value;
            case "ms/op" -> value * 1_000.0;
            case "s/op" -> value * 1_000_000.0;
            case "ops/ns" -> value * 1_000_000_000.0;
            case "ops/us" -> value * 1_000_000.0;
            case "ops/ms" -> value * 1_000.0;
            case "ops/s" -> value;
            case "ops/min" -> value / 60.0;
            default -> throw new IllegalArgumentException("unknown JMH unit " + unit);
        };
    }
}
