package io.toolboundary.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes {@code BENCHMARKS.md} and its PNG charts from one run's results folder: the JMH JSON
 * ({@code jmh-inmemory.json}, {@code jmh-redis-<run>.json}), the replay and floor ({@code floor.json}),
 * the record memory ({@code memory.json}), the scripts' parts ({@code lua.json}), the record layouts
 * ({@code layouts.json}), and the run's
 * {@code machine.txt}, {@code commands.txt} and
 * {@code profile.txt}.
 *
 * <p>Usage: {@code ReportWriter <results dir> <report.md> <charts dir>}; chart links in the report are
 * relative to the report's folder.
 */
public final class ReportWriter {

    private final Path results;
    private final ReportData data;
    private final ReportSections sections;
    private final StringBuilder md = new StringBuilder();

    private ReportWriter(Path results, Path report, Path charts) throws IOException {
        this.results = results;
        this.data = new ReportData(results);
        this.sections = new ReportSections(data, md, charts, report.toAbsolutePath().getParent());
    }

    /** Writes the report and charts. */
    public static void main(String[] args) throws IOException {
        if (args.length != 3) {
            System.err.println("usage: ReportWriter <results dir> <report.md> <charts dir>");
            System.exit(2);
        }
        write(Path.of(args[0]), Path.of(args[1]), Path.of(args[2]));
    }

    /** Writes the report from {@code results} to {@code report}, and the charts into {@code charts}. */
    static void write(Path results, Path report, Path charts) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Files.createDirectories(charts);
        Path parent = report.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(report, new ReportWriter(results, report, charts).render(), StandardCharsets.UTF_8);
    }

    private String render() throws IOException {
        String profile = text("profile.txt").strip();
        md.append("# Benchmarks\n\n");
        if (profile.startsWith("smoke")) {
            md.append("> **SMOKE RUN.** This report comes from `bench/run --smoke`: one fork, one run, one repeat and"
                    + " iterations of a fraction of a second, to prove the pipeline end to end. The figures below are"
                    + " **not measurements** and no conclusion should be drawn from them. Run `bench/run --quick` or"
                    + " `bench/run --full` on a quiet machine for real figures.\n\n");
        }
        md.append("What the boundary costs per tool call: on the in-memory store against calling the same tool and"
                + " projector directly; on Redis against a hand-rolled two-command idempotency store (`SET NX PX`, then"
                + " `SET XX KEEPTTL`) on the same Redisson client, against the floor `redis-benchmark` reaches with the"
                + " commands a real call sends, and in Redis's own time and memory.\n\n");
        md.append("Profile: `").append(profile.isEmpty() ? "unknown" : profile).append("`.\n\n");
        machine();
        md.append("## Commands\n\n```\n").append(text("commands.txt").strip()).append("\n```\n\n");
        TargetTable.write(data, md);
        sections.server();
        sections.luaBreakdown();
        sections.layouts();
        sections.throughput();
        sections.memory();
        sections.inMemory();
        method();
        return md.toString();
    }

    private void machine() throws IOException {
        md.append("## Machine\n\n| | |\n|---|---|\n");
        for (String line : text("machine.txt").split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                md.append("| ").append(line.substring(0, colon).strip()).append(" | ")
                        .append(line.substring(colon + 1).strip().replace("|", "\\|")).append(" |\n");
            }
        }
        md.append("\nClient and server share these cores: every figure taken through the client includes the JVM's"
                + " CPU competing with `redis-server`'s; the replayed server times do not include the JVM.");
        if (text("machine.txt").contains("fresh memory:")) {
            md.append(" *fresh memory* (`FreshMemory`) is what a process pays for each page it writes for the first"
                    + " time. The benchmarks' server grows with every call, so it pays that for each page of a value"
                    + " it keeps: 16 pages for a 64 KiB raw response, for the boundary and the peer alike.");
        }
        md.append("\n\n");
    }

    private void method() {
        md.append("## How it is measured\n\n");
        md.append("- JMH 1.37, module `boundary-benchmarks`, jar `boundary-benchmarks/target/benchmarks.jar`. Every"
                + " call uses a new tool_call_id; each run is opened once, before its calls, with an unlimited budget; a"
                + " refused call fails the benchmark rather than being measured.\n");
        md.append("- In-memory: forked JMH (`-f 3` or more); a new store and boundary each iteration; the store's clock"
                + " moves one millisecond per call, so a record outlives the next " + InMemoryBoundaryBenchmark.TTL_CALLS
                + " calls and the store's own sweep then drops it; the hand-rolled map (`HandRolledInMemory`) runs on"
                + " the same clock and drops its records the same way.\n");
        md.append("- Redis through the client: JMH without forks (`-f 0`), run three times or more; in each run every"
                + " kind (the boundary, its commands alone, the peer) is measured in a JVM of its own, every"
                + " configuration in the same order, after one warm-up of every kind at both raw sizes on "
                + RedisBoundaryBenchmark.JVM_WARMUP_THREADS + " threads (the client restarted after each size, as"
                + " every trial starts its own), then a second of the measured kind on as many threads as it measures"
                + " before JMH's warmup iterations; its own `redis-server` (`--save \"\" --appendonly no`) on a free loopback"
                + " port; one Redisson client (script cache on, 64 connections) for the library's store and the peer;"
                + " `FLUSHALL` before every iteration; record TTL " + BenchRedis.RECORD_TTL.toMinutes() + " min.\n");
        md.append("- Server time and floor: `RedisFloor` warms its JVM with calls, captures one boundary call and one"
                + " peer call with `MONITOR` (commands run by a script, connection upkeep and `MULTI`/`EXEC` left out),"
                + " and replaces the captured tool_call_id in every argument by `c__rand_int__`. The replayed commands"
                + " must make a record the library's store reads back as the same READY record (the peer: its finished"
                + " string). Each command is then replayed by `redis-benchmark -P 1` from a snapshot of the opened run"
                + " (`DUMP`/`RESTORE`): the first on random new ids, every later one on ids for which the commands"
                + " before it ran first (five ids per request when a second run of the command on one id answers"
                + " differently, so that about nine requests in ten find a fresh id), after a check that it answers"
                + " on such an id as in the real call. Server time with one connection; the floor with 8 (or 1, 8 and 32).\n");
        md.append("- Peer: `HandRolledToolCalls`, checked against the server before it is measured (claim refuses a"
                + " duplicate, finish keeps the TTL).\n");
        md.append("- The boundary's commands alone: `StoreCommands`, one boundary call captured with `MONITOR` in each"
                + " iteration's run, its commands sent again on new ids as the store sends them (begin's `EVALSHA`, then"
                + " `SET ... XX KEEPTTL` and complete's `EVALSHA` in one pipeline) on the same client, each reply checked;"
                + " no boundary work between them.\n");
        md.append("- CPU time per call: each measurement iteration's CPU time of the client JVM (every thread) and of"
                + " `redis-server` (`used_cpu_sys + used_cpu_user`) over its calls, `bench/results/cpu-redis-<run>.jsonl`.\n");
        md.append("- Memory: `RecordMemory`, see its section.\n");
        md.append("- Scripts' parts: `LuaBreakdown`, see its section.\n");
        md.append("- Record layouts: `LayoutCompare`, see its section.\n\n");
        md.append("Raw data: `bench/results/`.\n");
    }

    private String text(String name) throws IOException {
        Path file = results.resolve(name);
        return Files.isRegularFile(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }
}
