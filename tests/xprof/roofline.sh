#!/bin/sh
# Writes xprof's roofline model of the top ops of a profile, the golden file
# tests/cli/t0625-top-cost-h200.sh compares jaxprof's FLOPs and bytes with,
# so that `make check` needs no xprof.  Rerun it when the corpus profile or
# xprof changes:
#
#	pip install xprof
#	tests/xprof/roofline.sh ../shared/corpus/h200/no-cmdbuf-warm \
#	    > tests/cli/expect/t0625-top-cost-h200-xprof-roofline.out
#
# Output: "peak,GFLOP/s,GB/s" of the device, then "name,flops,bytes,bound"
# of the 20 ops with the most self time in xprof's roofline_model tool,
# FLOPs and bytes of one occurrence (xprof counts each kernel of an op as
# one; jaxprof counts runs), bound compute or memory, sorted by name.
set -eu
[ $# -eq 1 ] || { echo "usage: $0 LOGDIR" >&2; exit 2; }
PYTHON=${PYTHON:-python3}
# xprof writes caches beside the profile: give it a copy.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -R "$1" "$work/logdir"
chmod -R u+w "$work/logdir"
"$PYTHON" - "$work/logdir" <<'PY' 2>/dev/null
import json, sys
from xprof.cli.internal.oss import xprof_client
r = xprof_client.get_client().fetch(tool_name="roofline_model.json",
                                    session_id=sys.argv[1])
data = r[1] if isinstance(r, tuple) else r
table = json.loads(data)[0]
cols = [c["id"] for c in table["cols"]]
rows = [dict(zip(cols, [c.get("v") if isinstance(c, dict) else c
                        for c in row["c"]])) for row in table["rows"]]
ops = [o for o in rows if o["step"] == "Total" and o["include_infeed_outfeed"] and
       o["category"] not in ("Program", "IDLE")]
ops.sort(key=lambda o: -o["total_self_time"])
peaks = table["p"]
# xprof gives the bandwidth in GiB/s.
print("peak,%.6g,%.6g" % (float(peaks["peak_flop_rate"]),
                          float(peaks["peak_hbm_bw"]) * 2**30 / 1e9))
out = []
for o in ops[:20]:
    # GFLOP/s x us = 1e3 FLOP; GiB/s x us = 2^30 / 1e6 bytes.
    flops = o["measured_flop_rate"] * 1e3 * o["total_time"]
    nbytes = o["measured_memory_bw"] * 2**30 * 1e-6 * o["total_time"]
    n = o["occurrences"]
    bound = "compute" if o["bound_by"] == "Compute" else "memory"
    out.append("%s,%.6g,%.6g,%s" % (o["operation"], flops / n, nbytes / n,
                                    bound))
print("\n".join(sorted(out)))
PY
