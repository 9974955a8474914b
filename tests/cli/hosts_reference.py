#!/usr/bin/env python3
"""jaxprof-hosts(1)'s rule, computed again from the XSpace files alone.

Usage: hosts_reference.py PROTO_DIR FILE...

Reads each FILE (a CPU-only JAX profile, host.xplane.pb) with the
protobuf package (bench/top_reference.py's loader), finds its steps
(host events with step_num and _r), its collectives (events whose hlo_op
is an instruction of a collective opcode in the file's HLO) and the
annotations directly inside a top-level host event, and applies the rule
of jaxprof-hosts(1), THE RULE.  Prints CSV with jaxprof hosts' columns
host,steps,median_step_us,p90_step_us,wait_us,idle_in,idle_in_us,
last_steps,joined_steps,lateness_us,straggler.
"""

import csv
import os
import sys

COLLECTIVE_OPCODES = ("all-reduce", "all-gather", "reduce-scatter",
                      "all-to-all", "collective-permute",
                      "collective-broadcast", "send", "recv")
ANNOTATION_FLOOR_PS = 100_000_000


def percentile(sorted_values, pct):
    """numpy's default: linear between the closest ranks."""
    if not sorted_values:
        return 0.0
    pos = (len(sorted_values) - 1) * pct / 100
    lo = int(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * \
        (pos - lo)


def median(values):
    return percentile(sorted(values), 50)


def read_host(tr, pb2, hlo_pb2, path):
    space = tr.read_xspace(pb2, path)
    opcode = {}
    for mod in tr.read_hlo(hlo_pb2, space):
        for name, ins in mod.by_name.items():
            opcode[name] = ins.proto.opcode
    steps, colls, notes = {}, [], []
    for plane in space.planes:
        if plane.name != "/host:CPU":
            continue
        stat_names = {k: m.name for k, m in plane.stat_metadata.items()}
        for line in plane.lines:
            base = line.timestamp_ns * 1000
            events = []
            for ev in line.events:
                md = plane.event_metadata[ev.metadata_id]
                stats = {}
                for s in list(md.stats) + list(ev.stats):
                    key = stat_names.get(s.metadata_id)
                    if s.HasField("ref_value"):
                        stats[key] = stat_names.get(s.ref_value)
                    else:
                        stats[key] = s.int64_value or s.uint64_value
                events.append((base + ev.offset_ps, ev.duration_ps,
                               md.name, stats))
            events.sort(key=lambda e: (e[0], -e[1]))
            open_ends = []
            for start, dur, name, stats in events:
                while open_ends and start + dur > open_ends[-1]:
                    open_ends.pop()
                depth = len(open_ends)
                open_ends.append(start + dur)
                if "step_num" in stats and "_r" in stats:
                    steps[stats["step_num"]] = (start, dur)
                op = stats.get("hlo_op")
                if op is not None:
                    op = op.rsplit("/", 1)[-1]
                    if opcode.get(op) in COLLECTIVE_OPCODES:
                        colls.append((start, dur, op))
                elif (depth == 1 and not name.startswith("$") and
                      dur >= ANNOTATION_FLOOR_PS):
                    notes.append((start, dur, name))

    def step_of(t):
        for n, (s, d) in steps.items():
            if s <= t < s + d:
                return n
        return None

    by_step = {}
    for start, dur, op in sorted(colls):
        n = step_of(start)
        if n is None:
            continue
        seen = by_step.setdefault(n, {})
        occ = sum(1 for (o, _) in seen if o == op)
        seen[(op, occ)] = dur
    annotations = {}
    for start, dur, name in notes:
        if step_of(start) is not None:
            annotations[name] = annotations.get(name, 0) + dur
    return steps, by_step, annotations


def main():
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                    "bench"))
    import top_reference as tr
    pb2 = tr.load_xplane_pb2(os.path.join(sys.argv[1], "xplane.proto"))
    hlo_pb2 = tr.load_xplane_pb2(os.path.join(sys.argv[1], "hlo.proto"))
    hosts = {}
    for path in sys.argv[2:]:
        host = os.path.basename(path)[:-len(".xplane.pb")]
        hosts[host] = read_host(tr, pb2, hlo_pb2, path)
    names = sorted(hosts)
    wait = {h: 0 for h in names}
    late = {h: [] for h in names}
    joined = 0
    all_steps = sorted({n for h in names for n in hosts[h][1]})
    for n in all_steps:
        keys = sorted({k for h in names for k in hosts[h][1].get(n, {})})
        decider = None
        for key in keys:
            d = [(h, hosts[h][1][n][key]) for h in names
                 if key in hosts[h][1].get(n, {})]
            if len(d) < 2:
                continue
            lo = min(v for _, v in d)
            for h, v in d:
                wait[h] += v - lo
            spread = max(v for _, v in d) - lo
            if decider is None or spread > decider[0]:
                decider = (spread, d)
        if decider is None:
            continue
        joined += 1
        d = decider[1]
        last = min(d, key=lambda hv: hv[1])     # first among equals
        late[last[0]].append(median([v for _, v in d]) - last[1])
    run_median = median([d for h in names for (_, d) in hosts[h][0].values()])
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["host", "steps", "median_step_us", "p90_step_us",
                  "wait_us", "idle_in", "idle_in_us", "last_steps",
                  "joined_steps", "lateness_us", "straggler"])
    for h in names:
        steps, _, annotations = hosts[h]
        durs = sorted(d for (_, d) in steps.values())
        top = min(annotations.items(), key=lambda kv: (-kv[1], kv[0]),
                  default=("", 0))
        lateness = median(late[h]) if late[h] else 0.0
        straggler = (len(names) >= 2 and joined > 0 and
                     len(late[h]) >= 0.6 * joined and
                     lateness >= max(1e9, 0.1 * run_median))
        out.writerow([h, len(steps), "%.3f" % (median(durs) / 1e6),
                      "%.3f" % (percentile(durs, 90) / 1e6),
                      "%.3f" % (wait[h] / len(steps) / 1e6), top[0],
                      "%.3f" % (top[1] / len(steps) / 1e6) if top[0] else "",
                      len(late[h]), joined, "%.3f" % (lateness / 1e6),
                      "true" if straggler else "false"])


if __name__ == "__main__":
    main()
