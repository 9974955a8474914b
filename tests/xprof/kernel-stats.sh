#!/bin/sh
# Writes xprof's kernel stats of the 20 longest kernels of a profile, the
# golden file tests/cli/t0626-top-kernels-h200.sh compares jaxprof's
# --group=kernel with, so that `make check` needs no xprof.  Rerun it when
# the corpus profile or xprof changes:
#
#	pip install xprof
#	tests/xprof/kernel-stats.sh ../shared/corpus/h200/no-cmdbuf-warm \
#	    > tests/cli/expect/t0626-top-kernels-h200-xprof-kernels.out
#
# Output: "name,registers,shared_bytes,block,grid,occupancy_pct,
# tensor_core,framework_op,count,total_us" per kernel, launch configuration
# and framework op, sorted.
set -eu
[ $# -eq 1 ] || { echo "usage: $0 LOGDIR" >&2; exit 2; }
PYTHON=${PYTHON:-python3}
# xprof writes caches beside the profile: give it a copy.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -R "$1" "$work/logdir"
chmod -R u+w "$work/logdir"
"$PYTHON" - "$work/logdir" <<'PY' 2>/dev/null
import csv, json, sys
from xprof.cli.internal.oss import xprof_client
r = xprof_client.get_client().fetch(tool_name="kernel_stats.json",
                                    session_id=sys.argv[1])
data = r[1] if isinstance(r, tuple) else r
table = json.loads(data)
cols = [c["id"] for c in table["cols"]]
rows = [dict(zip(cols, [c.get("v") if isinstance(c, dict) else c
                        for c in row["c"]])) for row in table["rows"]]
rows.sort(key=lambda k: -k["total_duration_us"])
out = []
for k in rows[:20]:
    out.append([k["kernel_name"], "%d" % k["registers_per_thread"],
                "%d" % k["shmem_bytes"], k["block_dim"], k["grid_dim"],
                "%.2f" % k["occupancy_pct"],
                "yes" if k["is_kernel_using_tensor_core"] else "no",
                k["op_name"], "%d" % k["occurrences"],
                "%.3f" % k["total_duration_us"]])
csv.writer(sys.stdout, lineterminator="\n").writerows(sorted(out))
PY
