#!/bin/sh
# Writes xprof's answer for the device memory of a profile, the golden file
# tests/cli/t0700-memory-xprof.sh compares `jaxprof memory` with, so that
# `make check` needs no xprof.  Rerun it when the corpus profile or xprof
# changes:
#
#	pip install xprof
#	tests/xprof/memory.sh ../shared/corpus/h200/cmdbuf-warm \
#	    > tests/cli/expect/t0700-memory-xprof-cmdbuf-warm.out
#
# Output lines, sorted:
#   allocator NAME PEAK_BYTES      memory_profile: each allocator's peak
#                                  in use within the capture (heap+stack)
#   program NAME(ID) BYTES         get_peak_allocations: each program's
#                                  total_hbm_mib, in bytes
#   buffer NAME(ID) BUFFER COUNT BYTES   its top buffers (1 MiB or more,
#                                  repeats grouped as name.*) of the program
#                                  with the largest total
# LOGDIR may also be a single .xplane.pb file.
set -eu
[ $# -eq 1 ] || { echo "usage: $0 LOGDIR" >&2; exit 2; }
. "$(dirname "$0")/lib.sh"
"$XPROF" get_peak_allocations --limit=0 "$work/logdir" 2>/dev/null \
    >"$work/peak.json"
"$PYTHON" - "$work/logdir" "$work/peak.json" <<'PY'
import glob, json, re, sys
from xprof.convert import raw_to_tool_data

rows = []
xplane = glob.glob(sys.argv[1] + "/plugins/profile/*/*.xplane.pb")[0]
data, _ = raw_to_tool_data.xspace_to_tool_data([xplane], "memory_profile", {})
per = json.loads(data).get("memoryProfilePerAllocator", {})
for name, a in per.items():
    peak = a["profileSummary"]["peakStats"].get("peakBytesInUse", "0")
    rows.append("allocator %s %d" % (name, int(peak)))
peaks = json.load(open(sys.argv[2]))["modules"]
for m in peaks:
    rows.append("program %s %d" % (m["module_name"],
                                   round(m["total_hbm_mib"] * 2**20)))
top = max(peaks, key=lambda m: m["total_hbm_mib"])
grouped = re.compile(r"(\S+) \((\d+) occurrences of size .*\)")
for b in top["top_buffers"]:
    if b["instruction"].startswith("Others ("):
        continue
    g = grouped.fullmatch(b["instruction"])
    name, count = (g.group(1), int(g.group(2))) if g else (b["instruction"], 1)
    rows.append("buffer %s %s %d %d" % (top["module_name"], name, count,
                                        round(b["size_mib"] * 2**20 / count)))
print("\n".join(sorted(rows)))
PY
