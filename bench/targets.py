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


def server_usec(lines, benchmark, raw, sent=None):
    """Commandstats time per call over one run's measurement iterations, weighted by their calls.

    A script's time includes the commands it runs, which commandstats also counts under their own names:
    with each command's time recorded (commandUsec), only the commands the client sent are summed, the
    scripts whole, and of a command that also ran inside the scripts (SET) the share the client sent
    (``sent``: one captured call's commands). Without it, every command's time is summed, as before.
    """
    rows = [r for r in lines if r["benchmark"] == benchmark and r["rawBytes"] == raw and "serverUsecPerCall" in r]
    calls = sum(r["calls"] for r in rows)
    if not calls:
        return None
    if not all("commandUsec" in r for r in rows):
        return sum(r["serverUsecPerCall"] * r["calls"] for r in rows) / calls
    total = 0.0
    for r in rows:
        usec = {name.split("|", 1)[0]: 0.0 for name in r["commandUsec"]}
        count = dict.fromkeys(usec, 0)
        for name, value in r["commandUsec"].items():
            usec[name.split("|", 1)[0]] += value
        for name, value in r["commandCalls"].items():
            count[name.split("|", 1)[0]] = count.get(name.split("|", 1)[0], 0) + value
        scripted = any(count.get(name, 0) for name in SCRIPT_COMMANDS)
        for name, value in usec.items():
            if name in NOT_DATA - SCRIPT_COMMANDS:
                continue
            if not scripted or name in SCRIPT_COMMANDS:
                total += value
            elif sent:
                outside = sent.count(name) * r["calls"]
                total += value * min(1.0, outside / count[name]) if count.get(name) else 0.0
    return total / calls


# INFO commandstats names that are not a call's data commands: the scripts' own commands (what they run is
# counted under its own name), connection upkeep and the measurement's own commands.
SCRIPT_COMMANDS = {"evalsha", "eval", "evalsha_ro", "eval_ro", "fcall", "fcall_ro"}
NOT_DATA = SCRIPT_COMMANDS | {"ping", "echo", "hello", "auth", "select", "readonly", "monitor", "flushall", "info",
                              "config", "command", "script", "client", "multi", "exec"}


def command_calls(lines, benchmark, raw):
    """Each command's count per call over one run's measurement iterations, commands run by scripts included."""
    rows = [r for r in lines if r["benchmark"] == benchmark and r["rawBytes"] == raw and "commandCalls" in r]
    calls = sum(r["calls"] for r in rows)
    if not calls:
        return None
    counts = {}
    for r in rows:
        for name, count in r["commandCalls"].items():
            name = name.split("|", 1)[0]  # a subcommand counts as its command
            counts[name] = counts.get(name, 0) + count
    return {name: count / calls for name, count in counts.items()}


def sent_lines(results, name="call-commands.txt"):
    """The commands one captured boundary call sent, in order, each as its arguments, or None.

    call-commands.txt: export off; call-commands-export.txt: export on. An argument written as ``<n bytes>``
    stays one argument.
    """
    path = results / name
    if not path.exists():
        return None
    return [re.findall(r"<\d+ bytes>|\S+", line) for line in path.read_text().splitlines()
            if line.strip() and line[0] != "#"]


def sent_commands(results, name="call-commands.txt"):
    """The names of the commands one captured boundary call sent, in order, or None."""
    lines = sent_lines(results, name)
    return None if lines is None else [line[0].lower() for line in lines]


def commands_row(runs, cpu, sent):
    """Commands per successful call, 1 caller, 1 KiB raw: measured from commandstats and the captured call, or stated."""
    figure = "Redis commands per successful call, 1 caller, 1 KiB raw"
    target = "≤ 6 in scripts"
    stated = ("6 in scripts (HMGET, SET NX PX, SET NX PX, HSET in begin.lua; STRLEN, RENAME in complete.lua), "
              "1 beside them (SET XX KEEPTTL in the completion's pipeline), 2 round trips")
    boundary = [c for c in (command_calls(cpu[r], "boundary01", 1024) for r in runs) if c]
    peer = [c for c in (command_calls(cpu[r], "peer01", 1024) for r in runs) if c]
    if not boundary or not sent:
        return (f"{figure} (stated, not measured)", stated, "", None, None, target,
                "peer: 2 (SET NX PX, SET XX KEEPTTL), none in scripts, 2 round trips", "stated")
    beside = [name for name in sent if name not in SCRIPT_COMMANDS]

    def data(counts):
        return {name: n for name, n in counts.items() if name not in NOT_DATA}

    in_scripts = [round(sum(data(c).values()) - len(beside), 2) for c in boundary]
    names = sorted(set().union(*(data(c) for c in boundary)))
    parts = []
    for name in names:
        n = statistics.median([data(c).get(name, 0) - beside.count(name) for c in boundary])
        if round(n, 2):
            parts.append(f"{name.upper()} {num(n)}")
    script_calls = statistics.median([sum(c.get(name, 0) for name in SCRIPT_COMMANDS) for c in boundary])
    unit = (f" in scripts ({', '.join(parts)}); {len(beside)} beside them ({', '.join(n.upper() for n in beside)});"
            f" {num(script_calls)} script calls; 2 round trips (stated, not measured)")
    peer_data = [sum(data(c).values()) for c in peer]
    peer_in_scripts = [sum(c.get(name, 0) for name in SCRIPT_COMMANDS) for c in peer]
    peer_names = sorted(set().union(*(data(c) for c in peer))) if peer else []
    floor = (f"peer: {spread(peer_data)} commands per call"
             f" ({', '.join(f'{n.upper()} {num(statistics.median([c.get(n, 0) for c in peer]))}' for n in peer_names)}),"
             f" {spread(peer_in_scripts)} script calls; 2 round trips (stated)")
    return (f"{figure} (commandstats; beside the scripts: the captured call's own)", in_scripts, unit, None, 6,
            target, floor)


def data_commands(counts):
    """A call's data commands from its per-call counts: the scripts, upkeep and measurement left out."""
    return {name: n for name, n in counts.items() if name not in NOT_DATA}


def scripts_shape(lines):
    """Each EVALSHA a captured call sent, as (keys, arguments after the keys)."""
    shapes = []
    for line in lines or []:
        if line[0].lower() in ("evalsha", "eval") and len(line) > 2 and line[2].isdigit():
            shapes.append((int(line[2]), len(line) - 3 - int(line[2])))
    return shapes


def p50_usec(b):
    """The median of a SampleTime benchmark's samples, in µs, or None."""
    if b is None or "50.0" not in b["primaryMetric"].get("scorePercentiles", {}):
        return None
    return b["primaryMetric"]["scorePercentiles"]["50.0"] * MICROS.get(b["primaryMetric"]["scoreUnit"], 1.0)


def own_usec(lines, benchmark, raw, command):
    """One command's own time per call (commandstats), over one run's measurement iterations, or None."""
    rows = [r for r in lines if r["benchmark"] == benchmark and r["rawBytes"] == raw and "commandUsec" in r]
    calls = sum(r["calls"] for r in rows)
    return sum(r["commandUsec"].get(command, 0.0) for r in rows) / calls if calls else None


def export_rows(results, runs, redis, cpu):
    """Export on (the store's outbox, Outbox.KEYS; kind ``export``) against off (kind ``boundary``), each run's
    kinds compared with each other only: commands per call, the server's time per call and the client's p50."""
    rows = []
    off_sent, on_sent = sent_commands(results), sent_commands(results, "call-commands-export.txt")
    off = {r: command_calls(cpu[r], "boundary01", 1024) for r in runs}
    on = {r: command_calls(cpu[r], "export01", 1024) for r in runs}
    both = [r for r in runs if off[r] and on[r]]
    figure = ("Redis commands per successful call, export on (outbox `KEYS`) less export off, 1 caller, 1 KiB raw"
              " (commandstats, the scripts' commands counted)")
    target = "≤ 1 more; off: none"
    if not both or not off_sent or not on_sent:
        rows.append((figure, [], "", None, 1, target, "not measured"))
    else:
        more = [round(sum(data_commands(on[r]).values()) - sum(data_commands(off[r]).values()), 2) for r in both]
        names = sorted(set().union(*(data_commands(on[r]) for r in both), *(data_commands(off[r]) for r in both)))
        parts = []
        for name in names:
            n = statistics.median([data_commands(on[r]).get(name, 0) - data_commands(off[r]).get(name, 0) for r in both])
            if round(n, 2):
                parts.append(f"{name.upper()} {'+' if n > 0 else ''}{num(n)}")
        off_outbox = max(off[r].get("xadd", 0) for r in both)

        def described(counts, sent):
            beside = [name for name in sent if name not in SCRIPT_COMMANDS]
            total = [sum(data_commands(c).values()) for c in counts]
            return (f"{spread(total)} ({spread([t - len(beside) for t in total])} in scripts,"
                    f" {len(beside)} beside them)")
        off_shape, on_shape = scripts_shape(sent_lines(results)), scripts_shape(sent_lines(results, "call-commands-export.txt"))
        shapes = "; ".join(f"script call {i + 1} of {len(on_shape)}: {b[0]} keys and {b[1]} arguments on,"
                           f" {a[0]} and {a[1]} off" for i, (a, b) in enumerate(zip(off_shape, on_shape)) if a != b)
        sent_same = "the same" if off_sent == on_sent else "different"
        floor = (f"off: {described([off[r] for r in both], off_sent)}, XADD {num(off_outbox)};"
                 f" on: {described([on[r] for r in both], on_sent)}. Sent by the client: {sent_same} commands"
                 f" ({', '.join(n.upper() for n in on_sent)} on; {', '.join(n.upper() for n in off_sent)} off)"
                 f"{', ' + shapes if shapes else ''};"
                 " 2 round trips (stated)")
        verdict = "**missed** (off appended to the outbox)" if off_outbox else None
        rows.append((figure, more, f" more ({', '.join(parts) or 'none'})", None, 1, target, floor, verdict))

    for raw, label in ((1024, "1 KiB"), (65536, "64 KiB")):
        pairs = [(server_usec(cpu[r], "boundary01", raw, off_sent), server_usec(cpu[r], "export01", raw, on_sent))
                 for r in runs]
        pairs = [(a, b) for a, b in pairs if a is not None and b is not None]
        xadd = [v for v in (own_usec(cpu[r], "export01", raw, "xadd") for r in runs) if v is not None]
        rows.append((f"Redis server time per call, export on less export off, 1 caller, {label} raw (commandstats,"
                     " as above)", [b - a for a, b in pairs], " µs", None, None, "stated",
                     f"off {spread([a for a, _ in pairs], ' µs')}; on {spread([b for _, b in pairs], ' µs')};"
                     f" on / off {spread([b / a for a, b in pairs], digits=2)}; the XADD's own time inside the"
                     f" script {spread(xadd, ' µs')}" if pairs else "not measured"))
    for raw, label in ((1024, "1 KiB"), (65536, "64 KiB")):
        def p50(threads):
            pairs = []
            for run in runs:
                a = p50_usec(find(redis[run]["boundary"], f"boundary{threads:02d}", "sample", rawBytes=raw))
                b = p50_usec(find(redis[run]["export"], f"export{threads:02d}", "sample", rawBytes=raw))
                if a and b:
                    pairs.append((a, b))
            return pairs
        one = p50(1)
        crowd = "; ".join(f"{t} callers: on / off {spread([b / a for a, b in p50(t)], digits=2)}" for t in (8, 32))
        rows.append((f"Redis client p50 latency per call, export on / export off, 1 caller, {label} raw",
                     [b / a for a, b in one], "", 2, None, "stated",
                     f"off {spread([a for a, _ in one], ' µs')}; on {spread([b for _, b in one], ' µs')};"
                     f" on less off {spread([b - a for a, b in one], ' µs')}; {crowd}" if one else "not measured"))
    return rows


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
    redis = {run: {kind: load(results / f"jmh-redis-{run}-{kind}.json")
                   for kind in ("boundary", "commands", "peer", "export")}
             for run in runs}
    cpu = {run: cpu_lines(results, run) for run in runs}
    for raw, label, limit in ((1024, "1 KiB", 15), (65536, "64 KiB", 20)):
        per_run = {k: [v for v in (server_usec(cpu[r], f"{k}01", raw, sent_commands(results)) for r in runs)
                       if v is not None]
                   for k in ("boundary", "commands", "peer")}
        rows.append((f"Redis server time per call, 1 caller (commandstats: the commands the client sent, each script whole), {label} raw", per_run["boundary"], " µs",
                     None, limit, f"≤ {limit} µs", f"{spread(per_run['commands'], ' µs')} (its commands alone); "
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

    rows.append(commands_row(runs, cpu, sent_commands(results)))

    # Client allocation per call: JMH's -prof gc, the whole client JVM (every thread: the callers and the
    # client's I/O threads) over each measurement iteration, its setup and teardown included.
    for raw, label in ((1024, "1 KiB"), (65536, "64 KiB")):
        alloc = {k: [v for r in runs for v in forks(find(redis[r][k], f"{k}01", "sample", rawBytes=raw),
                                                      "gc.alloc.rate.norm")]
                 for k in ("boundary", "commands", "peer")}
        rows.append((f"Redis client allocation per call, 1 caller, {label} raw", alloc["boundary"], " B", None, None,
                     "stated", f"{spread(alloc['peer'], ' B')} (peer); {spread(alloc['commands'], ' B')}"
                               " (its commands alone)"))

    rows.extend(export_rows(results, runs, redis, cpu))

    sizes = load(results / "memory.json")
    size = next((s for s in (sizes or {}).get("sizes", []) if s["rawBytes"] == 1024), None)
    reps = size["repeats"] if size else []
    # overheadBytes: the growth of MEMORY USAGE over every key of the run per record, less the payload: the
    # record's key and the record's share of the run state (its ledger entry and the counters' growth).
    rows.append(("Redis MEMORY USAGE per record over the payload (the record's key and its share of the run state:"
                 " the ledger entry), 1 KiB raw", [r["overheadBytes"] for r in reps], " B", None, 500, "≤ 500 B",
                 f"{spread([r['peerOverheadBytes'] for r in reps], ' B')} (the peer's key)"))
    rows.append(("Redis used_memory growth per call over the payload, run state included, 1 KiB raw",
                 [r["usedMemoryPerRecordBytes"] - size["payloadBytes"] for r in reps], " B", None, 600, "≤ 600 B",
                 f"{spread([r['peerUsedMemoryPerRecordBytes'] - size['payloadBytes'] for r in reps], ' B')}"
                 " (the peer)"))

    out = ["| figure | measured | target | floor on this machine | |", "|---|---|---|---|---|"]
    for row in rows:
        figure, values, unit, digits, limit, target, floor = row[:7]
        verdict = row[7] if len(row) > 7 else None
        if isinstance(values, str):  # stated, not measured
            out.append(f"| {figure} | {values} | {target} | {floor} | {verdict or 'stated'} |")
            continue
        if not values:
            verdict = "not measured"
        elif limit is None:
            verdict = verdict or "—"
        elif verdict is not None:  # the row's own verdict: a check beside the limit failed
            pass
        elif (statistics.median(values) >= limit if target.startswith("≥") else statistics.median(values) <= limit):
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
