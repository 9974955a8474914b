#!/bin/sh
# extract --to=chrome writes jaxprof's attribution into the trace: on the
# H200 profiles ($CORPUS/h200) every kernel, those inside a CUDA graph
# ("command buffer") too, carries the HLO op, framework op and source line
# that `top` shows, so Perfetto tells what the tables tell: per op, the
# kernels' time in the trace is top's total.
. "$(dirname "$0")/lib.sh"

H=$CORPUS/h200
[ -d "$H/cmdbuf-warm" ] || skip "no H200 profiles under '$H'"
python_has json csv || skip "no Python at '$PYTHON'"

for run in cmdbuf-warm no-cmdbuf-warm; do
	[ -d "$H/$run" ] || { note_skip "no $H/$run"; continue; }
	test_case "$run: the trace's kernels are top's ops"
	expect_code 0 jaxprof extract --to=chrome -o "$tmp/$run.json" "$H/$run"
	expect_code 0 jaxprof top -n 0 --format=csv "$H/$run"
	save "top-$run.csv"
	"$PYTHON" - "$tmp/$run.json" "$tmp/top-$run.csv" <<'PY' || fail "the trace of $run does not tell top's story"
import collections, csv, json, sys
trace = json.load(open(sys.argv[1]))
top = {r["name"]: r for r in csv.DictReader(open(sys.argv[2]))}
kernels = [e for e in trace["traceEvents"]
           if e.get("ph") == "X" and "hlo_module" in e.get("args", {})]
total = collections.defaultdict(float)
bad = []
for e in kernels:
    a = e["args"]
    total[a["hlo_op"]] += e["dur"]
    if a["hlo_op"].startswith("command_buffer"):
        bad.append("a kernel still names its launch: %s" % e["name"])
    row = top.get(a["hlo_op"])
    if row is None:
        bad.append("kernel %s: op %s is not in top" % (e["name"], a["hlo_op"]))
    elif a.get("source", "") != row["source"]:
        bad.append("%s: source %r, top %r" % (a["hlo_op"], a.get("source"), row["source"]))
    elif "framework_op" not in a:
        bad.append("%s: no framework_op" % a["hlo_op"])
for op, t in total.items():
    want = float(top[op]["total_us"]) if op in top else 0
    if abs(t - want) > 1e-3 * want + 0.01:
        bad.append("%s: %.3f us in the trace, top %.3f" % (op, t, want))
launched = sum("hlo_launch" in e["args"] for e in kernels)
print(len(kernels), "kernels,", launched, "inside a CUDA graph,", len(total), "ops")
if not kernels or (sys.argv[1].endswith("/cmdbuf-warm.json") and launched != len(kernels)):
    bad.append("%d kernels, %d matched inside graphs" % (len(kernels), launched))
print("\n".join(bad[:20]))
sys.exit(1 if bad else 0)
PY
done

test_done
