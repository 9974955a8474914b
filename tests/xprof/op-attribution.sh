#!/bin/sh
# Writes xprof's device time per framework op and per source line of a
# profile, the golden files tests/cli/t0625-op-attribution.sh compares
# jaxprof with, so that `make check` needs no xprof.  Rerun it when a
# corpus profile or xprof changes (PYTHON: a Python with xprof installed):
#
#	pip install xprof
#	tests/xprof/op-attribution.sh ../shared/corpus/h200/no-cmdbuf-warm \
#	    > tests/cli/expect/t0625-op-attribution-no-cmdbuf-warm-xprof.out
#
# Output, sorted: "framework_op,NAME,US" from xprof's framework_op_stats
# (device ops, IDLE left out) and "source,FILE:LINE,US" from its
# get_top_hlo_ops (per program and op; "(none)" without a source line), US the total self
# time in microseconds.
set -eu
[ $# -eq 1 ] || { echo "usage: $0 LOGDIR" >&2; exit 2; }
. "$(dirname "$0")/lib.sh"
"$XPROF" get_top_hlo_ops --limit=1000000 "$work/logdir" 2>/dev/null \
    >"$work/top.json"
"$PYTHON" - "$work/logdir" "$work/top.json" 2>/dev/null <<'PY'
import collections, glob, json, os, sys
from xprof.convert import raw_to_tool_data

files = sorted(glob.glob(os.path.join(sys.argv[1], "**", "*.xplane.pb"),
                         recursive=True))
data, _ = raw_to_tool_data.xspace_to_tool_data(
    files, "framework_op_stats", {"use_saved_result": False})
table = json.loads(data)[0]
cols = [c["id"] for c in table["cols"]]
fw = collections.defaultdict(float)
for r in table["rows"]:
    v = dict(zip(cols, [c.get("v") for c in r["c"]]))
    if v["host_or_device"] == "Device" and v["type"] != "IDLE":
        fw[v["operation"]] += v["total_self_time"]
src = collections.defaultdict(float)
for r in json.load(open(sys.argv[2]))["top_by_time"]:
    if r.get("category") == "IDLE":
        continue
    key = ("%s:%s" % (r["source_file"], r["source_line"])
           if r["source_file"] else "(none)")
    src[key] += 1000 * r["total_self_time_ms"]
rows = ["framework_op,%s,%.3f" % (k, v) for k, v in fw.items()]
rows += ["source,%s,%.3f" % (k, v) for k, v in src.items()]
print("\n".join(sorted(rows)))
PY
