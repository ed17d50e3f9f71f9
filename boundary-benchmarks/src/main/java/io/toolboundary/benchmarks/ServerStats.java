package io.toolboundary.benchmarks;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the server says about its own work: per command {@code INFO commandstats} (calls and total
 * {@code usec}, the wall time of the command's execution) and {@code INFO latencystats} (Redis 7: p50,
 * p99 and p99.9 of that time), and the main thread's CPU time from {@code INFO cpu}
 * ({@code used_cpu_sys_main_thread + used_cpu_user_main_thread}, which also counts reading, parsing and
 * answering requests). {@code CONFIG RESETSTAT} clears the first two; CPU time only ever grows, so it is
 * read as a difference.
 */
record ServerStats(Map<String, Command> commands, Map<String, Map<String, Double>> latency, double cpuMainSeconds) {

    /** One command's line of {@code INFO commandstats}. */
    record Command(long calls, double usec) {
    }

    /** Reads all three sections. */
    static ServerStats read(Resp redis) {
        Map<String, Command> commands = new LinkedHashMap<>();
        for (String line : lines(redis, "commandstats")) {
            if (line.startsWith("cmdstat_")) {
                Map<String, Double> values = values(line);
                commands.put(line.substring("cmdstat_".length(), line.indexOf(':')),
                        new Command(values.getOrDefault("calls", 0.0).longValue(), values.getOrDefault("usec", 0.0)));
            }
        }
        Map<String, Map<String, Double>> latency = new LinkedHashMap<>();
        for (String line : lines(redis, "latencystats")) {
            if (line.startsWith("latency_percentiles_usec_")) {
                latency.put(line.substring("latency_percentiles_usec_".length(), line.indexOf(':')), values(line));
            }
        }
        double cpu = 0;
        for (String line : lines(redis, "cpu")) {
            if (line.startsWith("used_cpu_sys_main_thread:") || line.startsWith("used_cpu_user_main_thread:")) {
                cpu += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return new ServerStats(commands, latency, cpu);
    }

    /** Clears the command and latency statistics. */
    static void reset(Resp redis) {
        redis.call("CONFIG", "RESETSTAT");
    }

    /** A command's calls, or 0. Names are lower case, subcommands as {@code config|get}. */
    long calls(String command) {
        Command stat = commands.get(command.toLowerCase());
        return stat == null ? 0 : stat.calls();
    }

    /** A command's total execution time in µs, or 0. */
    double usec(String command) {
        Command stat = commands.get(command.toLowerCase());
        return stat == null ? 0 : stat.usec();
    }

    /** A percentile of a command's execution time in µs ("p50", "p99", "p99.9"), or NaN. */
    double percentile(String command, String percentile) {
        return latency.getOrDefault(command.toLowerCase(), Map.of()).getOrDefault(percentile, Double.NaN);
    }

    private static String[] lines(Resp redis, String section) {
        return redis.text("INFO", section).split("\r?\n");
    }

    /** {@code name:a=1,b=2.5} as a map; values that are not numbers are left out. */
    private static Map<String, Double> values(String line) {
        Map<String, Double> values = new LinkedHashMap<>();
        for (String part : line.substring(line.indexOf(':') + 1).split(",")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                try {
                    values.put(part.substring(0, eq), Double.parseDouble(part.substring(eq + 1)));
                } catch (NumberFormatException ignored) {
                    // not a figure
                }
            }
        }
        return values;
    }
}
