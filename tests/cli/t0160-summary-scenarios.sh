#!/bin/sh
# summary's verdict on fresh CPU-JAX profiles of four scenarios made by
# shared/gpu/make_gpu_profiles.py --small, each checked against what the
# script did (its truth.json and its source), and each page rendered in
# Chromium with its charts checked against the json.
. "$(dirname "$0")/lib.sh"
. "$CLI_DIR/summary-page.sh"

MAKE=${CORPUS%/corpus}/gpu/make_gpu_profiles.py
[ -f "$MAKE" ] || skip "no '$MAKE' to make the profiles"
python_has jax || skip "JAX not installed ('$PYTHON' cannot import jax); $(install_hint jax)"
python_has optax || skip "optax not installed for '$PYTHON' (make_gpu_profiles.py needs it); pip install optax"

O=$tmp/gen
test_case 'make_gpu_profiles.py --small writes the four scenarios'
expect_code 0 env JAX_PLATFORMS=cpu "$PYTHON" "$MAKE" "$O" --small \
    --only=input-bound,recompile,slow,warm
for s in input-bound recompile slow warm; do
	[ -f "$O/$s/truth.json" ] || fail "no $s/truth.json"
done

# verdict SCENARIO: the summary's json checked against the truth.
verdict() {
	test_case "$1: the verdict says what the script did"
	expect_code 0 jaxprof summary --format=json "$O/$1"
	expect_stderr_empty
	save "$1.json"
	"$PYTHON" - "$1" "$tmp/$1.json" "$O/$1/truth.json" "$MAKE" <<'PY' ||
import json, re, sys
name, rep, truth = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
src = open(sys.argv[4]).read().split("\n")
v, bad = rep["verdict"], []
rules = [r["rule"] for r in rep["recommendations"]]
parts = sum(p["percent"] for p in rep["breakdown"].values())
if abs(parts - 100) > 0.1:
    bad.append("the parts add up to %.2f%%" % parts)
if rep["steps"] != truth["steps"]:
    bad.append("%d steps, the script ran %d" % (rep["steps"], truth["steps"]))
if len(rules) > 5:
    bad.append("%d recommendations" % len(rules))
# The waits' parts and thresholds (jaxprof-summary(1) RULES).
waits = {"host_idle": 20, "launch_idle": 10, "compile_idle": 10,
         "transfer": 10, "collective": 10, "sync_idle": 20}
# What warm and slow do not do.  Not "sync": on a CPU backend a loaded
# machine deschedules the compute threads while the host waits in
# float(loss), an idle device and a waiting host, which it reports.
false_alarms = {"host", "launch", "compile", "transfers", "collectives", "recompile"}
if name == "input-bound":
    sleep_us = truth["host_sleep_s"] * 1e6
    if v["rule"] != "host" or "`time.sleep` inside `load_batch`" not in v["text"]:
        bad.append("verdict does not name the sleep: " + v["text"])
    # Each gap given to the sleep holds it whole, and not much more (the
    # batch's making and device_put around it; more on a busy machine).
    c = rep["idle_causes"][0]
    each = c["total_us"] / c["gaps"]
    if c["host_activity"] != "time.sleep" or not 0.97 * sleep_us <= each <= 1.5 * sleep_us:
        bad.append("%r: %.0f us a gap, the sleep %.0f us" % (c["host_activity"], each, sleep_us))
elif name == "recompile":
    seq = truth["seq"]
    shapes = len(set(seq))
    changes = [i for i in range(len(seq)) if i == 0 or seq[i] != seq[i - 1]]
    c = rep["compiles"][0] if rep["compiles"] else {}
    if v["rule"] not in ("recompile", "compile") or \
            "compiled %d times" % shapes not in v["text"]:
        bad.append("verdict does not name the recompiles: " + v["text"])
    if c.get("count") != truth["compiles_in_trace"]:
        bad.append("compiles %r, the script compiled %d" % (c.get("count"), truth["compiles_in_trace"]))
    if c.get("steps") != ", ".join(map(str, changes)):
        bad.append("compiled in steps %r, shapes changed at %r" % (c.get("steps"), changes))
    if len(c.get("programs", "").split(", ")) != shapes:
        bad.append("programs %r for %d shapes" % (c.get("programs"), shapes))
    # x and y are int32 (batch, seq): the shapes of the programs, in order.
    firsts = [seq[i] for i in changes]
    want = " / ".join("s32[%d,%d]" % (truth["batch"], s) for s in firsts)
    if want not in c.get("shapes", "") or want not in v["text"]:
        bad.append("shapes %r, the script fed %s" % (c.get("shapes"), want))
elif name == "slow":
    extra = [i + 1 for i, l in enumerate(src) if "jnp.tanh(y @" in l]
    top = rep["top_lines"][0]["name"] if rep["top_lines"] else ""
    if len(extra) != 1 or "make_gpu_profiles.py:%d (" % extra[0] not in top:
        bad.append("top line %r, the added work is at line %r" % (top, extra))
    if v["rule"] in false_alarms:
        bad.append("slow blames a wait: " + v["text"])
    if v["rule"] in ("compute", "few-ops") and "`%s` first" % top not in v["text"]:
        bad.append("verdict does not put the line first: " + v["text"])
    line_recs = [r["text"] for r in rep["recommendations"] if r["rule"] == "top-line"]
    share = rep["top_lines"][0]["percent"] if rep["top_lines"] else 0
    parts = rep["breakdown"]
    # A line with most of the device time, compute the largest part and
    # the line more time than any wait: the line is the verdict.
    fired = [parts[p]["per_step_us"] for p, t in waits.items() if parts[p]["percent"] >= t]
    line_step = rep["top_lines"][0]["total_us"] / rep["steps"] if rep["top_lines"] else 0
    if share >= 50 and max(parts, key=lambda p: parts[p]["percent"]) == "compute" and \
            all(line_step > w for w in fired):
        m = re.match(r"compute bound: compute takes ([0-9.]+)% of step time", v["text"])
        if v["rule"] != "compute" or not m or abs(float(m.group(1)) - parts["compute"]["percent"]) > 0.06:
            bad.append("the line dominates, the verdict is: " + v["text"])
    elif not line_recs or not line_recs[0].startswith("`%s` takes" % top) or share < 25:
        if v["rule"] != "compute":
            bad.append("no recommendation puts the line first: %r" % line_recs)
elif name == "warm":
    if v["rule"] in false_alarms or false_alarms & set(rules):
        bad.append("warm names a problem: %s %r" % (v["text"], rules))
print(v["text"])
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
	    fail "the verdict of $1 is wrong"
	"$PYTHON" "$CLI_DIR/summary-advice.py" "$tmp/$1.json" ||
	    fail "the advice of $1 is not by what it would save"
}

for s in input-bound recompile slow warm; do
	verdict "$s"
done

test_case 'the series are the steps of `jaxprof steps`'
expect_code 0 jaxprof steps --format=csv "$O/input-bound"
"$PYTHON" - "$out" "$tmp/input-bound.json" <<'PY' || fail "series differ from steps"
import csv, json, sys
steps = [float(r["duration_us"]) for r in csv.DictReader(open(sys.argv[1]))]
rep = json.load(open(sys.argv[2]))
got = [s["duration_us"] for s in rep["series"][0]["steps"]]
sys.exit(0 if got == steps else 1)
PY

for s in input-bound recompile slow warm; do
	check_page "$s" "$O/$s"
done

test_done
