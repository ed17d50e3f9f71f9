#!/usr/bin/env python3
"""Writes the targets table of BENCHMARKS.md from one bench/run's results.

    bench/targets.py [results dir] [report]     (bench/results and BENCHMARKS.md by default)

Replaces what lies between the two marker lines of the report and nothing else. Every figure is the
median, and in brackets the lowest and highest value, over forks (in-memory), runs (Redis through the
client) or repeats (memory). A difference or ratio is taken within one fork or one run, never between
figures of different runs.
"""
import glob
import json
import re
import statistics
import sys
from pathlib import Path

BEGIN = "<!-- targets: bench/run writes from here -->"
END = "<!-- targets: to here -->"
MICROS = {"ns/op": 1e-3, "us/op": 1.0, "ms/op": 1e3}


def num(x):
    return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.3g}"


def spread(values, unit="", digits=None):
    if not values:
        return "not measured"
    shown = (lambda x: f"{x:.{digits}f}") if digits is not None else num
    low, mid, high = min(values), statistics.median(values), max(values)
    return f"{shown(mid)} ({shown(low)}–{shown(high)}){unit}"


def load(path):
    return json.loads(path.read_text()) if path.exists() else []


def find(results, method, mode, **params):
    for b in results:
        if b["benchmark"].rsplit(".", 1)[1] == method and b["mode"] == mode and all(
                b["params"].get(k) == str(v) for k, v in params.items()):
            return b
    return None


def forks(b, metric=None):
    """Each fork's mean: µs for a time, the metric's own unit (B/op for allocation) otherwise."""
    if b is None:
        return []
    m = b["primaryMetric"] if metric is None else b["secondaryMetrics"].get(metric)
    if m is None:
        return []
    return [statistics.fmean(f) * MICROS.get(m["scoreUnit"], 1.0) for f in m["rawData"]]


def less(values, base):
    return [v - statistics.median(base) for v in values] if values and base else []


def cpu_lines(results, run):
    path = results / f"cpu-redis-{run}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.exists() else []


def server_usec(lines, benchmark, raw):
    """Commandstats time per call over one run's measurement iterations, weighted by their calls."""
    rows = [r for r in lines if r["benchmark"] == benchmark and r["rawBytes"] == raw and "serverUsecPerCall" in r]
    calls = sum(r["calls"] for r in rows)
    return sum(r["serverUsecPerCall"] * r["calls"] for r in rows) / calls if calls else None


def table(results):
    memory = load(results / "jmh-inmemory.json")
    base = load(results / "jmh-inmemory-baseline.json")
    direct = forks(find(base, "baseline", "avgt", argumentsBytes=128, rawBytes=1024))
    direct_alloc = forks(find(base, "baseline", "avgt", argumentsBytes=128, rawBytes=1024), "gc.alloc.rate.norm")
    boundary = find(memory, "boundary", "avgt", argumentsBytes=128, rawBytes=1024)
    fingerprint = find(base, "fingerprint", "avgt", argumentsBytes=128)
    rows = [("in-memory overhead over the direct call, 128 B request, 1 KiB raw", less(forks(boundary), direct),
             " µs", None, 1.5, "≤ 1.5 µs",
             f"{spread(less(forks(find(memory, 'handRolled', 'avgt', argumentsBytes=128, rawBytes=1024)), direct), ' µs')}"
             f" (hand-rolled map); {spread(forks(fingerprint), ' µs')} (JSON check and fingerprint alone)"),
            ("in-memory allocation per call over the direct call", less(forks(boundary, "gc.alloc.rate.norm"),
             direct_alloc), " B", None, 1024, "≤ 1 KiB",
             f"{spread(forks(fingerprint, 'gc.alloc.rate.norm'), ' B')} (JSON check and fingerprint alone)")]

    runs = sorted(int(re.search(r"jmh-redis-(\d+)-boundary", p).group(1))
                  for p in glob.glob(str(results / "jmh-redis-*-boundary.json")))
    redis = {run: {kind: load(results / f"jmh-redis-{run}-{kind}.json") for kind in ("boundary", "commands", "peer")}
             for run in runs}
    cpu = {run: cpu_lines(results, run) for run in runs}
    for raw, label in ((1024, "1 KiB"), (65536, "64 KiB")):
        per_run = {k: [v for v in (server_usec(cpu[r], f"{k}01", raw) for r in runs) if v is not None]
                   for k in ("boundary", "commands", "peer")}
        rows.append((f"Redis server time per call, 1 caller (commandstats), {label} raw", per_run["boundary"], " µs",
                     None, 15, "≤ 15 µs", f"{spread(per_run['commands'], ' µs')} (its commands alone); "
                                          f"{spread(per_run['peer'], ' µs')} (peer)"))
    for raw, label in ((1024, "1 KiB"), (65536, "64 KiB")):
        for threads in (1, 8, 32):
            def ratio(over, under):
                values = []
                for run in runs:
                    a = find(redis[run][over], f"{over}{threads:02d}", "sample", rawBytes=raw)
                    b = find(redis[run][under], f"{under}{threads:02d}", "sample", rawBytes=raw)
                    if a and b:  # calls per second are threads over the mean: the ratio is the means' inverse
                        values.append(b["primaryMetric"]["score"] / a["primaryMetric"]["score"])
                return values
            callers = "1 caller" if threads == 1 else f"{threads} callers"
            rows.append((f"Redis calls/s, boundary / peer on the same client, {callers}, {label} raw",
                         ratio("boundary", "peer"), "", 2, 0.8, "≥ 0.8",
                         f"{spread(ratio('commands', 'peer'), digits=2)} (its commands alone / peer)"))

    sizes = load(results / "memory.json")
    size = next((s for s in (sizes or {}).get("sizes", []) if s["rawBytes"] == 1024), None)
    reps = size["repeats"] if size else []
    rows.append(("Redis used_memory growth per call over the payload, run state included, 1 KiB raw",
                 [r["usedMemoryPerRecordBytes"] - size["payloadBytes"] for r in reps], " B", None, 500, "≤ 500 B",
                 f"{spread([r['peerOverheadBytes'] for r in reps], ' B')} (the peer's key, MEMORY USAGE over the "
                 f"payload; the boundary's keys: {spread([r['overheadBytes'] for r in reps], ' B')})"))

    out = ["| figure | measured | target | floor on this machine | |", "|---|---|---|---|---|"]
    for figure, values, unit, digits, limit, target, floor in rows:
        if not values:
            verdict = "not measured"
        elif (statistics.median(values) >= limit) == target.startswith("≥"):
            verdict = "met"
        else:
            verdict = "**missed**"
        out.append(f"| {figure} | {spread(values, unit, digits)} | {target} | {floor} | {verdict} |")
    return out


def header(results):
    def text(name):
        path = results / name
        return path.read_text().strip() if path.exists() else ""
    machine = dict(line.split(":", 1) for line in text("machine.txt").splitlines() if ":" in line)
    get = lambda key: machine.get(key, "?").strip()
    profile = text("profile.txt") or "unknown"
    lines = [f"Profile `{profile}`, {get('date')}: {get('nproc')} cores ({get('cpu')}), {get('memory')},"
             f" {get('redis-server').split(' sha=')[0]}, load average {get('load average at start')} at start;"
             f" measuring took {get('measuring took')}. Machine and commands: `bench/results/machine.txt`,"
             " `commands.txt`.", ""]
    if profile.startswith("smoke"):
        lines[:0] = ["> **Smoke run** (`bench/run --smoke`): a pipeline check, one fork or run of a fraction of a"
                     " second. These figures are not measurements.", ""]
    return lines


def main(args):
    results = Path(args[0] if args else "bench/results")
    report = Path(args[1] if len(args) > 1 else "BENCHMARKS.md")
    text = report.read_text()
    if BEGIN not in text or END not in text:
        sys.exit(f"{report} has no line {BEGIN!r} followed by {END!r}")
    head, rest = text.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    body = "\n".join(header(results) + table(results))
    report.write_text(f"{head}{BEGIN}\n{body}\n{END}{tail}")


if __name__ == "__main__":
    main(sys.argv[1:])
