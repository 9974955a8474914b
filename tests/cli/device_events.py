"""The events of the device planes of the profiles under a folder, read
with the protobuf package (through bench/top_reference.py), for the CLI
tests that check jaxprof's numbers against the profile itself."""

import glob
import os
import sys


def _value(stat, names):
    kind = stat.WhichOneof("value")
    if kind == "ref_value":
        return names.get(stat.ref_value, "")
    return getattr(stat, kind) if kind is not None else None


def device_events(srcdir, folder):
    """Yield (plane, line, name, duration_ps, stats, autotune) for each
    event of a /device: plane: name is its metadata's (the HLO text of an
    XLA op), stats its metadata's and its own by name, and autotune
    whether the last event before it on its line with an hlo_op belongs to
    a module that /host:metadata does not name (the autotuner's)."""
    sys.path.insert(0, os.path.join(srcdir, "bench"))
    import top_reference
    pb2 = top_reference.load_xplane_pb2(
        os.path.join(srcdir, "proto", "xplane.proto"))
    for path in sorted(glob.glob(os.path.join(folder, "**", "*.xplane.pb"),
                                 recursive=True)):
        space = top_reference.read_xspace(pb2, path)
        programs = {md.name.rsplit("(", 1)[0] for p in space.planes
                    if p.name == "/host:metadata"
                    for md in p.event_metadata.values()}
        for p in space.planes:
            if not p.name.startswith("/device:"):
                continue
            names = {k: v.name for k, v in p.stat_metadata.items()}
            for line in p.lines:
                context = None
                for ev in line.events:
                    md = p.event_metadata[ev.metadata_id]
                    stats = {names.get(s.metadata_id): _value(s, names)
                             for s in list(md.stats) + list(ev.stats)}
                    if "hlo_op" in stats and "hlo_module" in stats:
                        context = stats["hlo_module"]
                    yield (p.name, line.name, md.name, ev.duration_ps,
                           stats, context is not None and
                           context not in programs)
