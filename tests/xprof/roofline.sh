#!/bin/sh
# Writes xprof's answers on the hardware side of a profile, the golden files
# tests/cli/t0628-top-cost-h200.sh and t0629-top-kernels-h200.sh compare
# jaxprof with, so that `make check` needs no xprof.  Rerun it when the
# corpus profile or xprof changes:
#
#	pip install xprof
#	L=../shared/corpus/h200/no-cmdbuf-warm
#	tests/xprof/roofline.sh roofline $L \
#	    > tests/cli/expect/t0628-top-cost-h200-xprof-roofline.out
#	tests/xprof/roofline.sh kernels $L \
#	    > tests/cli/expect/t0629-top-kernels-h200-xprof-kernels.out
#	M=../shared/corpus/tracelens/tests/traces/mi300
#	for p in jax08_gemm jax08_elementwise; do
#		d=$(mktemp -d); mkdir -p $d/plugins/profile/run
#		cp $M/$p/tw003.xplane.pb $d/plugins/profile/run/
#		tests/xprof/roofline.sh programs $d \
#		    > tests/cli/expect/t0631-top-cost-mi300-$p.out
#		rm -rf $d
#	done
#
# roofline: "peak,GFLOP/s,GB/s" of the device, then "name,flops,bytes,bound"
# of the 20 ops with the most self time in xprof's roofline_model tool,
# FLOPs and bytes of one occurrence (xprof counts each kernel of an op as
# one; jaxprof counts runs), bound compute or memory, sorted by name.
# programs: as roofline, with the program id after the name (for a
# profile of many programs that share op names), bound unknown where xprof
# has none.
# kernels: "name,registers,shared_bytes,block,grid,occupancy_pct,
# tensor_core,framework_op,count,total_us" of the 20 longest kernels (per
# launch configuration and framework op) of xprof's kernel_stats, sorted.
set -eu
[ $# -eq 2 ] ||
    { echo "usage: $0 roofline|programs|kernels LOGDIR" >&2; exit 2; }
case $1 in
roofline|programs) tool=roofline_model.json ;;
kernels) tool=kernel_stats.json ;;
*) echo "$0: roofline, programs or kernels, not '$1'" >&2; exit 2 ;;
esac
PYTHON=${PYTHON:-python3}
# xprof writes caches beside the profile: give it a copy.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -R "$2" "$work/logdir"
chmod -R u+w "$work/logdir"
"$PYTHON" - "$1" "$tool" "$work/logdir" <<'PY' 2>/dev/null
import csv, json, sys
from xprof.cli.internal.oss import xprof_client
what, tool, logdir = sys.argv[1:]
r = xprof_client.get_client().fetch(tool_name=tool, session_id=logdir)
data = json.loads(r[1] if isinstance(r, tuple) else r)
table = data if what == "kernels" else data[0]
cols = [c["id"] for c in table["cols"]]
rows = [dict(zip(cols, [c.get("v") if isinstance(c, dict) else c
                        for c in row["c"]])) for row in table["rows"]]
out = []
if what != "kernels":
    ops = [o for o in rows if o["step"] == "Total" and
           o["include_infeed_outfeed"] and
           o["category"] not in ("Program", "IDLE")]
    ops.sort(key=lambda o: -o["total_self_time"])
    peaks = table["p"]
    # xprof gives the bandwidth in GiB/s.
    print("peak,%.6g,%.6g" % (float(peaks["peak_flop_rate"]),
                              float(peaks["peak_hbm_bw"]) * 2**30 / 1e9))
    for o in ops[:20]:
        # GFLOP/s x us = 1e3 FLOP; GiB/s x us = 2^30 / 1e6 bytes.
        flops = o["measured_flop_rate"] * 1e3 * o["total_time"]
        nbytes = o["measured_memory_bw"] * 2**30 * 1e-6 * o["total_time"]
        n = o["occurrences"]
        bound = "compute" if o["bound_by"] == "Compute" else "memory"
        if what == "roofline":
            out.append("%s,%.6g,%.6g,%s" % (o["operation"], flops / n,
                                            nbytes / n, bound))
            continue
        if o["bound_by"] == "Unknown":
            bound = "unknown"
        out.append("%s,%s,%.6g,%.6g,%s" % (o["operation"], o["hlo_module_id"],
                                           flops / n, nbytes / n, bound))
    print("\n".join(sorted(out)))
else:
    rows.sort(key=lambda k: -k["total_duration_us"])
    for k in rows[:20]:
        out.append([k["kernel_name"], "%d" % k["registers_per_thread"],
                    "%d" % k["shmem_bytes"], k["block_dim"], k["grid_dim"],
                    "%.2f" % k["occupancy_pct"],
                    "yes" if k["is_kernel_using_tensor_core"] else "no",
                    k["op_name"], "%d" % k["occurrences"],
                    "%.3f" % k["total_duration_us"]])
    csv.writer(sys.stdout, lineterminator="\n").writerows(sorted(out))
PY
