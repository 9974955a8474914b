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
          "max_us,percent,cum_percent,gflops_per_s,gbps,source")

# The only stats the op table looks at; everything else is skipped cheaply.
WANTED = frozenset((
    "hlo_op", "hlo_module", "hlo_category", "program_id", "flops",
    "bytes_accessed", "device_offset_ps", "device_duration_ps",
    "correlation_id", "cuda_graph_id", "scope_range_id", "tf_op",
    "kernel_details",
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
    """Generate the module of proto_path (xplane_pb2, hlo_pb2) and import it."""
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

    def __init__(self, plane, hlo=()):
        self.plane = plane
        self.hlo = hlo
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


# ---- HLO (docs/command-buffers.md and jaxprof-top(1), CATEGORIES) ----

NO_LAUNCH = frozenset((
    "parameter", "constant", "get-tuple-element", "tuple", "bitcast",
    "after-all", "add-dependency", "opt-barrier", "domain", "partition-id",
    "replica-id", "call", "while", "conditional", "async-start",
    "async-update", "async-done", "copy-done", "all-reduce-done",
    "all-gather-done", "collective-permute-done", "send-done", "recv-done",
    "get-dimension-size"))
LIBRARY = frozenset((
    "custom-call", "all-reduce", "all-reduce-start", "all-gather",
    "all-gather-start", "reduce-scatter", "all-to-all", "collective-permute",
    "collective-permute-start", "collective-broadcast", "send", "recv", "fft",
    "triangular-solve", "cholesky", "convolution", "dot"))


class Instr:
    def __init__(self, **kw):
        self.__dict__.update(kw)


class HloModule:
    """One program's instructions: by name, by kernel name, in run order."""

    def __init__(self, mp, pid):
        self.name = mp.name
        self.program_id = pid
        comps = {c.id: c for c in mp.computations}

        def has(comp, opcode, depth=0):
            if comp is None or depth > 64:
                return False
            return any(i.opcode == opcode or any(
                has(comps.get(k), opcode, depth + 1)
                for k in i.called_computation_ids) for i in comp.instructions)

        def category(i):
            t = i.custom_call_target
            if i.opcode == "custom-call":
                if any(w in t for w in ("cublas", "hipblas", "gemm", "matmul")):
                    return "gemm"
                if "conv" in t:
                    return "convolution"
                if "fmha" in t or "attention" in t or "attn" in t:
                    return "attention"
                return "custom-call"
            if i.opcode == "fusion":
                fused = (comps.get(i.called_computation_ids[0])
                         if i.called_computation_ids else None)
                if has(fused, "convolution"):
                    return "convolution fusion"
                if has(fused, "dot"):
                    return "gemm fusion"
                return {"kLoop": "loop fusion", "kInput": "input fusion",
                        "kOutput": "output fusion",
                        "kCustom": "custom fusion"}.get(i.fusion_kind, "fusion")
            if i.opcode == "dot":
                return "gemm"
            return i.opcode

        def source(i):
            md = i.metadata
            if md.source_file:
                return "%s:%d" % (md.source_file, md.source_line)
            sfi = mp.stack_frame_index
            f = md.stack_frame_id
            if not 1 <= f <= len(sfi.stack_frames):
                return ""
            loc_id = sfi.stack_frames[f - 1].file_location_id
            if not 1 <= loc_id <= len(sfi.file_locations):
                return ""
            loc = sfi.file_locations[loc_id - 1]
            if not 1 <= loc.file_name_id <= len(sfi.file_names):
                return ""
            return "%s:%d" % (sfi.file_names[loc.file_name_id - 1], loc.line)

        def kernel_class(i):
            fused = (comps.get(i.called_computation_ids[0])
                     if i.opcode == "fusion" and i.called_computation_ids
                     else None)
            if fused is None:
                return ("self", i.name)
            return (i.fusion_kind,
                    tuple(x.opcode for x in fused.instructions))

        self.by_name, self.by_kernel, by_id = {}, {}, {}
        for c in mp.computations:
            for i in c.instructions:
                launch = ("none" if i.opcode in NO_LAUNCH else
                          "library" if i.opcode in LIBRARY else "kernel")
                ins = Instr(name=i.name, category=category(i),
                            source=source(i), op_name=i.metadata.op_name,
                            launch=launch, in_loop=False,
                            kclass=kernel_class(i), proto=i)
                self.by_name.setdefault(i.name, ins)
                self.by_kernel.setdefault(re.sub("[^A-Za-z0-9_]", "_", i.name),
                                          ins)
                by_id.setdefault(i.id, ins)
        seqs = {k: list(v.instruction_ids)
                for k, v in mp.schedule.sequences.items()}
        self.launches, self.position = [], {}

        def add(comp, depth, loop):
            if comp is None or comp.is_fusion_computation or depth > 64:
                return
            ids = seqs.get(comp.id, [i.id for i in comp.instructions])
            for iid in ids:
                ins = by_id.get(iid)
                if ins is None:
                    continue
                if ins.launch != "none":
                    # A computation called twice runs it twice too.
                    ins.in_loop = (ins.in_loop or loop or
                                   id(ins) in self.position)
                    self.position.setdefault(id(ins), len(self.launches))
                    self.launches.append(ins)
                    continue
                for k in ins.proto.called_computation_ids:
                    add(comps.get(k), depth + 1,
                        loop or ins.proto.opcode == "while")
        add(comps.get(mp.entry_computation_id), 0, False)


def read_hlo(pb2, space):
    """The HLO modules of /host:metadata by program id, first one kept."""
    mods = []
    for plane in space.planes:
        if plane.name != "/host:metadata":
            continue
        names = {k: m.name for k, m in plane.stat_metadata.items()}
        for key, md in plane.event_metadata.items():
            # The program id: a program_id stat, "name(ID)", else the key.
            pid = program_id(Plane(plane).stats(md.stats, {}))
            m = MODULE_RE.fullmatch(md.name)
            if pid is None:
                pid = int(m.group(2)) & MASK64 if m else key & MASK64
            for st in md.stats:
                if names.get(st.metadata_id) != "Hlo Proto":
                    continue
                hp = pb2.HloProto()
                try:
                    hp.ParseFromString(st.bytes_value)
                except Exception:  # unreadable: the ops keep kernel names
                    continue
                if not hp.HasField("hlo_module"):
                    continue
                if all(mod.program_id != pid for mod in mods):
                    mods.append(HloModule(hp.hlo_module, pid))
    return mods


def find_module(mods, pid, name):
    """By program id, else the only module of that name."""
    if pid is not None:
        for m in mods:
            if m.program_id == pid:
                return m
    found = [m for m in mods if m.name == name] if name is not None else []
    return found[0] if len(found) == 1 else None


class Cursor:
    """Matches a CUDA graph launch's kernels to instructions in run order."""

    def __init__(self):
        self.module, self.launch, self.next, self.last = None, None, 0, -1

    def take(self, pos):
        self.next, self.last = pos + 1, pos
        return self.module.launches[pos]

    def seen(self, module, launch, instr):
        """A graph kernel named its own instruction: the launch is there."""
        pos = module.position.get(id(instr))
        if pos is not None:
            self.module, self.launch = module, launch
            self.take(pos)

    def match(self, module, launch, kernel):
        if module is not self.module or launch != self.launch:
            self.module, self.launch, self.next, self.last = \
                module, launch, 0, -1
        L = module.launches
        named = module.by_kernel.get(kernel)
        if named is not None and named.launch == "kernel":
            if self.last >= 0 and L[self.last] is named:
                return named

            def runs(pos):
                i = L[pos]
                return i is named or (i.launch == "kernel" and
                                      i.kclass == named.kclass)
            for pos in range(self.next, len(L)):
                if runs(pos):
                    return self.take(pos)
            for pos in range(self.next - 1, -1, -1):
                if runs(pos):
                    return self.take(pos)
            return named
        if kernel.startswith("Memset"):
            return L[self.next] if self.next < len(L) else None
        for pos in range(self.next, len(L)):
            if L[pos].launch == "library":
                return self.take(pos)
        return None


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
# flops, bytes, source, framework op]; the indices below name its fields.
START, DUR, SELF, NAME, MODULE, CAT, FLOPS, BYTES, SOURCE, FRAMEWORK = \
    range(10)


def framework_op(name, stats, instr):
    """The HLO op_name, else a tf_op that is not "XlaModule:", else name."""
    if instr is not None and instr.op_name:
        return instr.op_name
    tf = stats.get("tf_op")
    if isinstance(tf, str) and tf and not tf.startswith("XlaModule"):
        return tf[:-1] if tf.endswith(":") else tf
    return name


def occurrence(pl, start, dur, name, stats, category, instr=None):
    """category: the fallback when neither hlo_category nor the HLO say."""
    cat = stats.get("hlo_category")
    if not isinstance(cat, str):
        cat = instr.category if instr is not None else category
    return [start, dur, dur, name, pl.module(stats), cat,
            as_number(stats.get("flops")), as_number(stats.get("bytes_accessed")),
            instr.source if instr is not None else "",
            framework_op(name, stats, instr)]


def op_instr(pl, stats, op):
    """The HLO instruction named op in the event's program, or None; and
    whether the program's HLO is known at all."""
    m = find_module(pl.hlo, program_id(stats), stats.get("hlo_module")
                    if isinstance(stats.get("hlo_module"), str) else None)
    if m is None:
        return None, None
    return m.by_name.get(op), m


def xla_ops_line(pl, line):
    """Rule 1a: every event of an "XLA Ops" line is an op occurrence."""
    base = line.timestamp_ns * 1000
    occs = []
    for ev in line.events:
        name, stats = pl.event(ev)
        start, dur = timespan(base, ev, stats)
        instr, _ = op_instr(pl, stats, name)
        occs.append(occurrence(pl, start, dur, name, stats,
                               derive_category(name), instr))
    return occs


def hlo_op_line(pl, line, merge, tf_ops):
    """Rules 1b/2a (events with an hlo_op stat) and, if tf_ops, rule 2b.

    With merge (1b), the kernels of one run of an op form one occurrence
    (durations summed, first kernel's start and other stats): consecutive
    kernels with the same (op, hlo_module, program_id), in the same
    execution of the program, with the same scope_range_id where both have
    one, else not a second kernel named like the run's first.  An
    execution ends at another module or program, at another CUDA graph
    launch (correlation_id of kernels with cuda_graph_id), or, for plain
    kernels, when the op it began with starts a new run.  A later run of
    an HLO instruction outside loops in the same execution joins its first
    occurrence: it runs once per execution."""
    base = line.timestamp_ns * 1000
    occs = []
    prev_key = None
    run = None      # the current run: [scope, first kernel name]
    execution = None    # (module, program, graph launch, first op)
    joins = {}          # key -> its occurrence's index, in this execution
    at = None           # the index of the current run's occurrence
    cursor = Cursor()
    # The module of the last hlo_op kernel, when no HLO of /host:metadata
    # is its (an autotuner candidate): then a kernel without hlo_op after
    # it (a buffer check) is compile work, an op of its own.
    autotuner = None
    for ev in line.events:
        name, stats = pl.event(ev)
        hlo_op = stats.get("hlo_op")
        if (merge and not isinstance(hlo_op, str) and autotuner and
                "kernel_details" in stats and not name.startswith("Memcpy")):
            start, dur = timespan(base, ev, stats)
            occs.append([start, dur, dur, name, autotuner, "kernel", 0, 0,
                         "", name])
            continue
        if isinstance(hlo_op, str):
            op = hlo_op.rsplit("::", 1)[-1]
            start, dur = timespan(base, ev, stats)
            instr, module = op_instr(pl, stats, op)
            fallback = derive_category(op)
            module_name = stats.get("hlo_module")
            autotuner = (module_name if pl.hlo and module is None and
                         isinstance(module_name, str) else None)
            if instr is None and module is not None:
                # A CUDA graph's kernel: hlo_op names the launching call.
                instr = cursor.match(module, as_int(stats.get(
                    "correlation_id")), name)
                op = instr.name if instr is not None else name
                fallback = "unattributed"
            elif instr is not None:
                op = instr.name
                if "cuda_graph_id" in stats:
                    cursor.seen(module, as_int(stats.get("correlation_id")),
                                instr)
            if merge:
                module_name = stats.get("hlo_module")
                pid = program_id(stats)
                key = (op, module_name, pid)
                scope = as_int(stats.get("scope_range_id"))
                graph = (as_int(stats.get("correlation_id"))
                         if "cuda_graph_id" in stats else None)
                same = key == prev_key and (
                    run[0] == scope if scope is not None and
                    run[0] is not None else name != run[1])
                if isinstance(module_name, str):
                    if (execution is None or
                            execution[:2] != (module_name, pid) or
                            (graph is not None or execution[2] is not None)
                            and graph != execution[2] or
                            graph is None and execution[2] is None and
                            not same and op == execution[3]):
                        execution = (module_name, pid, graph, op)
                        joins = {}
                        same = False
                if same:
                    occs[at][DUR] += dur
                    occs[at][SELF] += dur
                    continue
                prev_key = key
                run = [scope, name]
                if key in joins:
                    at = joins[key]
                    occs[at][DUR] += dur
                    occs[at][SELF] += dur
                    continue
                at = len(occs)
                if (isinstance(module_name, str) and instr is not None
                        and not instr.in_loop):
                    joins[key] = at
            occs.append(occurrence(pl, start, dur, op, stats, fallback,
                                   instr))
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


def device_ops(plane, hlo):
    """Occurrence lists (one per line) of a device plane, rules 1a/1b."""
    pl = Plane(plane, hlo)
    xla_ops = [line for line in plane.lines if line.name == "XLA Ops"]
    if xla_ops:
        return [xla_ops_line(pl, line) for line in xla_ops]
    return [hlo_op_line(pl, line, True, False) for line in plane.lines]


def host_ops(plane, hlo):
    """Occurrence lists of the /host:CPU plane in a CPU-only file, 2a/2b."""
    pl = Plane(plane, hlo)
    return [hlo_op_line(pl, line, False, True) for line in plane.lines]


def file_ops(space, hlo):
    """Yield (device name, occurrence lists) of the planes that yield ops."""
    found = False
    for plane in space.planes:
        if plane.name.startswith("/device:"):
            lines = device_ops(plane, hlo)
            if any(lines):
                found = True
                yield plane.name, lines
    if not found:
        for plane in space.planes:
            if plane.name == "/host:CPU":
                yield plane.name, host_ops(plane, hlo)


def aggregate(files, pb2, hlo_pb2, by_device):
    """Map row key -> [category, count, total, self, min, max, flops, bytes,
    source].
    The key is (name, module, framework op, source), prefixed by (host,
    device) with by_device: programs that share a module name keep their
    own framework ops and source lines."""
    rows = {}
    for path in files:
        try:
            space = read_xspace(pb2, path)
        except Exception as e:  # DecodeError, OSError, gzip errors
            die("%s: %s" % (path, e))
        host = host_name(space, path) if by_device else None
        for device, lines in file_ops(space, read_hlo(hlo_pb2, space)):
            prefix = (host, device) if by_device else ()
            for occs in lines:
                subtract_children(occs)
                for o in occs:
                    key = prefix + (o[NAME], o[MODULE], o[FRAMEWORK],
                                    o[SOURCE])
                    r = rows.get(key)
                    dur = o[DUR]
                    if r is None:
                        rows[key] = [o[CAT], 1, dur, o[SELF], dur, dur,
                                     o[FLOPS], o[BYTES], o[SOURCE]]
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


def rate(amount, total_ps, count):
    """amount per ps * 1000 (GFLOP/s or GB/s); empty when unknown, or when
    the occurrences took under 1 us each on average (an issue stamp, not
    the time the work took)."""
    if not amount or total_ps <= 0 or total_ps < 1e6 * count:
        return ""
    return "%.3f" % (amount / total_ps * 1000)


def print_table(rows, limit, by_device):
    p = 2 if by_device else 0   # where (name, module, ...) begin in a key
    # total_ps desc, then name asc; module (and host, device) only break ties.
    order = sorted(rows.items(),
                   key=lambda kv: (-kv[1][2], kv[0][p], kv[0][p + 1],
                                   kv[0][:p], kv[0][p + 2:]))
    self_sum = sum(r[3] for r in rows.values())
    out = [("host,device," if by_device else "") + HEADER]
    cum = 0.0
    for rank, (key, r) in enumerate(order, 1):
        if limit is not None and rank > limit:
            break
        cat, count, total, self_ps, mn, mx, flops, nbytes, source = r
        percent = 100.0 * self_ps / self_sum if self_sum else 0.0
        cum += percent
        fields = [csv_field(k) for k in key[:p]] + [
            str(rank), csv_field(key[p]), csv_field(key[p + 1]),
            csv_field(cat), str(count), us(total), us(self_ps),
            "%.3f" % (total / count / 1e6), us(mn), us(mx),
            "%.2f" % percent, "%.2f" % cum,
            rate(flops, total, count), rate(nbytes, total, count),
            csv_field(source)]
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
    hlo_pb2 = load_xplane_pb2(os.path.join(os.path.dirname(args.proto),
                                           "hlo.proto"))
    files = find_files(args.paths)
    if not files:
        die("no .xplane.pb files found")
    rows = aggregate(files, pb2, hlo_pb2, args.by_device)
    print_table(rows, args.n, args.by_device)


if __name__ == "__main__":
    main()
