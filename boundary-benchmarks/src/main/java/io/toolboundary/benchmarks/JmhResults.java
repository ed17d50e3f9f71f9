package io.toolboundary.benchmarks;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The rows of a JMH JSON result file ({@code -rf json}), with every time converted to microseconds per
 * call and every throughput to calls per second. A SampleTime row without a Throughput row of its own
 * also gives one, derived from its mean (see {@link #throughputOf}).
 */
final class JmhResults {

    /** One benchmark, mode and parameter set. */
    record Row(String benchmark, String method, String mode, int threads, JsonNode params, JsonNode primary,
            JsonNode secondary) {

        /** A parameter's value as an integer. */
        int param(String name) {
            return Integer.parseInt(params.path(name).asText("-1"));
        }

        /** The score as microseconds per call (time modes) or calls per second (throughput). */
        double score() {
            return convert(primary.path("score").asDouble(), unit());
        }

        /** The score's 99.9% error in the same unit as {@link #score()}. */
        double error() {
            double error = primary.path("scoreError").asDouble(Double.NaN);
            return Double.isNaN(error) ? Double.NaN : convert(error, unit());
        }

        /** A percentile (for example "50.0", "99.0") in microseconds; empty when not sampled. */
        Optional<Double> percentileMicros(String percentile) {
            JsonNode value = primary.path("scorePercentiles").path(percentile);
            return value.isMissingNode() ? Optional.empty() : Optional.of(convert(value.asDouble(), unit()));
        }

        /** Bytes allocated per call ({@code -prof gc}); empty without the profiler. */
        Optional<Double> allocatedBytesPerCall() {
            for (String name : List.of("gc.alloc.rate.norm", "\u00b7gc.alloc.rate.norm")) {
                JsonNode metric = secondary.path(name);
                if (!metric.isMissingNode()) {
                    return Optional.of(metric.path("score").asDouble());
                }
            }
            return Optional.empty();
        }

        private String unit() {
            return primary.path("scoreUnit").asText();
        }
    }

    private final List<Row> rows;

    private JmhResults(List<Row> rows) {
        this.rows = List.copyOf(rows);
    }

    /** No results: a run that skipped JMH. */
    static JmhResults empty() {
        return new JmhResults(List.of());
    }

    /** Reads one or more JMH JSON files; a missing file adds nothing. */
    static JmhResults read(List<Path> files) throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        List<Row> rows = new ArrayList<>();
        for (Path file : files) {
            if (!Files.isRegularFile(file)) {
                continue;
            }
            for (JsonNode node : mapper.readTree(file.toFile())) {
                String benchmark = node.path("benchmark").asText();
                String method = benchmark.substring(benchmark.lastIndexOf('.') + 1);
                rows.add(new Row(benchmark, method, node.path("mode").asText(), node.path("threads").asInt(),
                        node.path("params"), node.path("primaryMetric"), node.path("secondaryMetrics")));
            }
        }
        List<Row> derived = rows.stream()
                .filter(row -> row.mode().equals("sample"))
                .filter(sample -> rows.stream().noneMatch(row -> row.mode().equals("thrpt")
                        && row.benchmark().equals(sample.benchmark()) && row.params().equals(sample.params())))
                .map(JmhResults::throughputOf)
                .toList();
        rows.addAll(derived);
        return new JmhResults(rows);
    }

    /**
     * The throughput of a closed-loop SampleTime run: its callers divided by the mean time of one call
     * (Little's law), in calls per microsecond, with the mean's relative error. Each caller starts its
     * next call when the last one ends, so this is what a Throughput run of the same callers counts.
     */
    static Row throughputOf(Row sample) {
        double meanMicros = sample.score();
        double callsPerMicro = sample.threads() / meanMicros;
        ObjectNode primary = JsonNodeFactory.instance.objectNode()
                .put("score", callsPerMicro)
                .put("scoreUnit", "ops/us");
        double error = sample.error();
        if (Double.isFinite(error)) {
            primary.put("scoreError", callsPerMicro * error / meanMicros);
        }
        return new Row(sample.benchmark(), sample.method(), "thrpt", sample.threads(), sample.params(), primary,
                sample.secondary());
    }

    /** The rows of one benchmark class (simple name), method and mode ("avgt", "sample", "thrpt"). */
    List<Row> select(String benchmarkClass, String method, String mode) {
        requireNonNull(benchmarkClass, "benchmarkClass is null");
        return rows.stream()
                .filter(row -> row.benchmark().contains("." + benchmarkClass + "."))
                .filter(row -> row.method().equals(method) && row.mode().equals(mode))
                .toList();
    }

    /** The first row matching, with the given parameters. */
    Optional<Row> find(String benchmarkClass, String method, String mode, String param1, int value1,
            String param2, int value2) {
        return select(benchmarkClass, method, mode).stream()
                .filter(row -> param1 == null || row.param(param1) == value1)
                .filter(row -> param2 == null || row.param(param2) == value2)
                .findFirst();
    }

    /** True when nothing was read. */
    boolean isEmpty() {
        return rows.isEmpty();
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
