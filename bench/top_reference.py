#!/usr/bin/env python3
"""Reference implementation of `jaxprof top` using the official protobuf package.

It exists for two reasons: it is the independent peer that jaxprof's op table is
cross-checked against, and it is the "plain Python protobuf script" that
bench/run.sh times jaxprof against.  The op-table rules (which events are ops,
self time, merging, category, module, ...) are the shared definition in
SPEC-top.md; comments below refer to its numbered rules (1a, 1b, 2a, 2b).

    top_reference.py [--proto FILE] [-n N] [--by-device] PATH...

PATH is an .xplane.pb / .xplane.pb.gz file (gzip is detected by its magic
bytes) or a directory searched recursively for such files.  Prints the op table
as CSV on stdout.  Exit status: 0 ok, 1 error, 2 usage, 77 skipped (protobuf
Python package or protoc unavailable).

The xplane_pb2 module is generated at run time from the repository's
proto/xplane.proto with `protoc --python_out` (or grpc_tools.protoc), so the
script has no generated code checked in.
"""

import argparse
import functools
import gzip
import importlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77

HEADER = ("rank,name,module,category,count,total_us,self_us,avg_us,min_us,"
          "max_us,percent,cum_percent,gflops_per_s,gbps")

# The only stats the op table looks at; everything else is skipped cheaply.
WANTED = frozenset((
    "hlo_op", "hlo_module", "hlo_category", "program_id", "flops",
    "bytes_accessed", "device_offset_ps", "device_duration_ps",
))

MASK64 = (1 << 64) - 1

# Rule 2b: TensorFlow host op "opname:OpType" (one ':', no spaces in the name).
TF_OP_RE = re.compile(r"([^ :]+):([A-Za-z_][A-Za-z0-9_]*)")
# Module events on an "XLA Modules" line are named "NAME(PROGRAM_ID)".
MODULE_RE = re.compile(r"(.*)\(([0-9]+)\)")
DIGITS_SUFFIX_RE = re.compile(r"(?:\.[0-9]+)+$")


def die(msg, status=1):
    sys.stderr.write("top_reference.py: %s\n" % msg)
    sys.exit(status)


def load_xplane_pb2(proto_path):
    """Generate xplane_pb2 from proto_path into a temp dir and import it."""
    try:
        import google.protobuf  # noqa: F401  (only checking availability)
    except ImportError:
        die("skipped: needs the 'protobuf' Python package "
            "(try PYTHON=/opt/jaxvenv/bin/python)", SKIP)
    if not os.path.isfile(proto_path):
        die("cannot find %s (use --proto)" % proto_path)
    proto_dir, proto_file = os.path.split(os.path.abspath(proto_path))
    with tempfile.TemporaryDirectory(prefix="top_reference.") as out:
        args = ["-I" + proto_dir, "--python_out=" + out, proto_file]
        if shutil.which("protoc"):
            rc = subprocess.call(["protoc"] + args)
        else:
            try:
                from grpc_tools import protoc as grpc_protoc
            except ImportError:
                die("skipped: needs protoc (apt-get install protobuf-compiler) "
                    "or the grpcio-tools Python package", SKIP)
            rc = grpc_protoc.main(["grpc_tools.protoc"] + args)
        if rc != 0:
            die("protoc failed on %s" % proto_path)
        sys.path.insert(0, out)
        try:
            # Everything is loaded at import, so the temp dir may go afterwards.
            return importlib.import_module(
                os.path.splitext(proto_file)[0] + "_pb2")
        finally:
            sys.path.remove(out)


def find_files(paths):
    files = []
    for path in paths:
        if os.path.isdir(path):
            found = []
            for root, _, names in os.walk(path):
                found.extend(os.path.join(root, n) for n in names
                             if n.endswith((".xplane.pb", ".xplane.pb.gz")))
            files.extend(sorted(found))
        elif os.path.exists(path):
            files.append(path)
        else:
            die("%s: no such file or directory" % path)
    return files


def read_xspace(pb2, path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    space = pb2.XSpace()
    space.ParseFromString(data)
    return space


def host_name(space, path):
    if space.hostnames:
        return space.hostnames[0]
    base = os.path.basename(path)
    for suffix in (".gz", ".xplane.pb"):
        if base.endswith(suffix):
            base = base[:-len(suffix)]
    return base


@functools.lru_cache(maxsize=None)
def derive_category(name):
    """Category of an op without hlo_category (rules 1b/2a)."""
    base = DIGITS_SUFFIX_RE.sub("", name)
    if base.endswith("fusion"):
        for prefix in ("loop", "input", "output"):
            if base.startswith(prefix + "_"):
                return prefix + " fusion"
        return "fusion"
    return base


def as_int(v):
    """An integer stat (int64/uint64; tolerate double and decimal strings)."""
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        return int(v)
    if isinstance(v, str) and v.isdigit():
        return int(v)
    return None


def as_number(v):
    return v if isinstance(v, (int, float)) else 0


class Plane:
    """Name and stat lookups of one XPlane (metadata maps keyed by map key)."""

    def __init__(self, plane):
        self.plane = plane
        self.stat_names = {k: m.name for k, m in plane.stat_metadata.items()}
        self.meta_cache = {}
        self.modules = None

    def stats(self, stat_list, into):
        """Add the WANTED stats of stat_list to dict `into`, later ones win."""
        names = self.stat_names
        for st in stat_list:
            name = names.get(st.metadata_id)
            if name not in WANTED:
                continue
            kind = st.WhichOneof("value")
            if kind is None:
                continue
            if kind == "ref_value":
                into[name] = names.get(st.ref_value, "")
            else:
                into[name] = getattr(st, kind)
        return into

    def metadata(self, metadata_id):
        """(event name, metadata stats) for an event metadata id, cached."""
        cached = self.meta_cache.get(metadata_id)
        if cached is None:
            md = self.plane.event_metadata.get(metadata_id)
            if md is None:
                cached = ("", {})
            else:
                cached = (md.display_name or md.name, self.stats(md.stats, {}))
            self.meta_cache[metadata_id] = cached
        return cached

    def event(self, ev):
        """(name, stats) of an event; event stats override metadata stats."""
        name, mstats = self.metadata(ev.metadata_id)
        if ev.stats:
            return name, self.stats(ev.stats, dict(mstats))
        return name, mstats

    def module(self, stats):
        """Module name: hlo_module stat, else via program_id + XLA Modules."""
        mod = stats.get("hlo_module")
        if isinstance(mod, str):
            return mod
        pid = program_id(stats)
        if pid is None:
            return ""
        if self.modules is None:
            self.modules = {}
            for line in self.plane.lines:
                if line.name != "XLA Modules":
                    continue
                for ev in line.events:
                    m = MODULE_RE.fullmatch(self.metadata(ev.metadata_id)[0])
                    if m:
                        self.modules.setdefault(int(m.group(2)), m.group(1))
        return self.modules.get(pid, "")


def program_id(stats):
    pid = as_int(stats.get("program_id"))
    # Module names print the id as unsigned 64-bit; compare it that way.
    return None if pid is None else pid & MASK64


def timespan(line_base_ps, ev, stats):
    """(start_ps, dur_ps), preferring device_offset_ps/device_duration_ps."""
    if "device_offset_ps" in stats and "device_duration_ps" in stats:
        start = as_int(stats["device_offset_ps"])
        dur = as_int(stats["device_duration_ps"])
        if start is not None and dur is not None:
            return start, dur
    return line_base_ps + ev.offset_ps, ev.duration_ps


# An occurrence is a list [start_ps, dur_ps, self_ps, name, module, category,
# flops, bytes]; the indices below name its fields.
START, DUR, SELF, NAME, MODULE, CAT, FLOPS, BYTES = range(8)


def occurrence(pl, start, dur, name, stats, category):
    cat = stats.get("hlo_category")
    return [start, dur, dur, name, pl.module(stats),
            cat if isinstance(cat, str) else category,
            as_number(stats.get("flops")), as_number(stats.get("bytes_accessed"))]


def xla_ops_line(pl, line):
    """Rule 1a: every event of an "XLA Ops" line is an op occurrence."""
    base = line.timestamp_ns * 1000
    occs = []
    for ev in line.events:
        name, stats = pl.event(ev)
        start, dur = timespan(base, ev, stats)
        occs.append(occurrence(pl, start, dur, name, stats, ""))
    return occs


def hlo_op_line(pl, line, merge, tf_ops):
    """Rules 1b/2a (events with an hlo_op stat) and, if tf_ops, rule 2b.

    With merge (1b), consecutive op kernels with the same (op, hlo_module,
    program_id) form one occurrence: durations summed, first kernel's start
    and other stats."""
    base = line.timestamp_ns * 1000
    occs = []
    prev_key = None
    for ev in line.events:
        name, stats = pl.event(ev)
        hlo_op = stats.get("hlo_op")
        if isinstance(hlo_op, str):
            op = hlo_op.rsplit("::", 1)[-1]
            start, dur = timespan(base, ev, stats)
            if merge:
                key = (op, stats.get("hlo_module"), program_id(stats))
                if key == prev_key:
                    occs[-1][DUR] += dur
                    occs[-1][SELF] += dur
                    continue
                prev_key = key
            occs.append(occurrence(pl, start, dur, op, stats,
                                   derive_category(op)))
        elif tf_ops:
            # The full metadata name "op:Type": TF writes the type alone
            # as the display name.
            md = pl.plane.event_metadata.get(ev.metadata_id)
            m = TF_OP_RE.fullmatch(md.name if md is not None else "")
            if m:
                start, dur = timespan(base, ev, stats)
                occs.append(occurrence(pl, start, dur, m.group(1), stats,
                                       m.group(2)))
    return occs


def subtract_children(occs):
    """self = dur - sum of direct children's dur (children: occurrences of
    the same line whose span lies inside the parent's [start, start+dur])."""
    occs.sort(key=lambda o: (o[START], -o[DUR]))
    stack = []  # (end_ps, occurrence) of the open parents
    for o in occs:
        end = o[START] + o[DUR]
        while stack and stack[-1][0] < end:
            stack.pop()
        if stack:
            stack[-1][1][SELF] -= o[DUR]
        stack.append((end, o))


def device_ops(plane):
    """Occurrence lists (one per line) of a device plane, rules 1a/1b."""
    pl = Plane(plane)
    xla_ops = [line for line in plane.lines if line.name == "XLA Ops"]
    if xla_ops:
        return [xla_ops_line(pl, line) for line in xla_ops]
    return [hlo_op_line(pl, line, True, False) for line in plane.lines]


def host_ops(plane):
    """Occurrence lists of the /host:CPU plane in a CPU-only file, 2a/2b."""
    pl = Plane(plane)
    return [hlo_op_line(pl, line, False, True) for line in plane.lines]


def file_ops(space):
    """Yield (device name, occurrence lists) of the planes that yield ops."""
    found = False
    for plane in space.planes:
        if plane.name.startswith("/device:"):
            lines = device_ops(plane)
            if any(lines):
                found = True
                yield plane.name, lines
    if not found:
        for plane in space.planes:
            if plane.name == "/host:CPU":
                yield plane.name, host_ops(plane)


def aggregate(files, pb2, by_device):
    """Map row key -> [category, count, total, self, min, max, flops, bytes].
    The key is (name, module), prefixed by (host, device) with by_device."""
    rows = {}
    for path in files:
        try:
            space = read_xspace(pb2, path)
        except Exception as e:  # DecodeError, OSError, gzip errors
            die("%s: %s" % (path, e))
        host = host_name(space, path) if by_device else None
        for device, lines in file_ops(space):
            prefix = (host, device) if by_device else ()
            for occs in lines:
                subtract_children(occs)
                for o in occs:
                    key = prefix + (o[NAME], o[MODULE])
                    r = rows.get(key)
                    dur = o[DUR]
                    if r is None:
                        rows[key] = [o[CAT], 1, dur, o[SELF], dur, dur,
                                     o[FLOPS], o[BYTES]]
                    else:
                        r[1] += 1
                        r[2] += dur
                        r[3] += o[SELF]
                        if dur < r[4]:
                            r[4] = dur
                        if dur > r[5]:
                            r[5] = dur
                        r[6] += o[FLOPS]
                        r[7] += o[BYTES]
    return rows


def csv_field(s):
    if any(c in s for c in ',"\r\n'):
        return '"' + s.replace('"', '""') + '"'
    return s


def us(ps):
    return "%.3f" % (ps / 1e6)


def rate(amount, total_ps):
    """amount per ps * 1000 (GFLOP/s or GB/s); empty when unknown."""
    if not amount or total_ps <= 0:
        return ""
    return "%.3f" % (amount / total_ps * 1000)


def print_table(rows, limit, by_device):
    nkey = 4 if by_device else 2
    # total_ps desc, then name asc; module (and host, device) only break ties.
    order = sorted(rows.items(),
                   key=lambda kv: (-kv[1][2], kv[0][nkey - 2], kv[0][nkey - 1],
                                   kv[0][:nkey - 2]))
    self_sum = sum(r[3] for r in rows.values())
    out = [("host,device," if by_device else "") + HEADER]
    cum = 0.0
    for rank, (key, r) in enumerate(order, 1):
        if limit is not None and rank > limit:
            break
        cat, count, total, self_ps, mn, mx, flops, nbytes = r
        percent = 100.0 * self_ps / self_sum if self_sum else 0.0
        cum += percent
        fields = [csv_field(k) for k in key[:nkey - 2]] + [
            str(rank), csv_field(key[nkey - 2]), csv_field(key[nkey - 1]),
            csv_field(cat), str(count), us(total), us(self_ps),
            "%.3f" % (total / count / 1e6), us(mn), us(mx),
            "%.2f" % percent, "%.2f" % cum,
            rate(flops, total), rate(nbytes, total)]
        out.append(",".join(fields))
    sys.stdout.write("\n".join(out) + "\n")


def main():
    default_proto = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                 "..", "proto", "xplane.proto")
    ap = argparse.ArgumentParser(
        description="Reference op table (jaxprof top) in Python protobuf.")
    ap.add_argument("paths", nargs="+", metavar="PATH",
                    help=".xplane.pb[.gz] file or directory")
    ap.add_argument("-n", type=int, metavar="N", help="print only N rows")
    ap.add_argument("--by-device", action="store_true",
                    help="one row per host, device and op")
    ap.add_argument("--proto", default=default_proto,
                    help="xplane.proto to generate the bindings from")
    args = ap.parse_args()
    if args.n is not None and args.n < 0:
        ap.error("-n must be >= 0")

    pb2 = load_xplane_pb2(args.proto)
    files = find_files(args.paths)
    if not files:
        die("no .xplane.pb files found")
    rows = aggregate(files, pb2, args.by_device)
    print_table(rows, args.n, args.by_device)


if __name__ == "__main__":
    main()
