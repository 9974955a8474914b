#!/bin/sh
# summary on real JAX profiles from an NVIDIA H200 ($CORPUS/h200): the
# command-buffer run waits on command_buffer::update, the same run without
# command buffers names no false problem, the run compiled inside the trace
# is compile-bound; golden text and markdown, json checked against `idle`,
# bad usage, and each page rendered in Chromium.
. "$(dirname "$0")/lib.sh"
. "$CLI_DIR/summary-page.sh"

H=$CORPUS/h200
[ -d "$H/cmdbuf-warm" ] || skip "no H200 profiles under '$H'"

test_case 'bad usage: html needs -o, no csv'
expect_code 2 jaxprof summary --format=html "$H/cmdbuf-warm"
expect_stderr_is "jaxprof: summary: --format=html needs -o FILE"
expect_code 2 jaxprof summary --format=csv "$H/cmdbuf-warm"
expect_stderr_is "jaxprof: summary: invalid --format 'csv' (choose from table, json, markdown, html)"
expect_code 2 jaxprof summary -o "$tmp/no/such/dir" "$H/cmdbuf-warm"
expect_stderr_match "^jaxprof: summary: cannot write '$tmp/no/such/dir': No such file"

test_case 'cmdbuf-warm: the table'
expect_code 0 jaxprof summary "$H/cmdbuf-warm"
expect_stderr_empty
compare_golden table
expect_stdout_match '^Verdict: launch overhead bound: .* `command_buffer::update`'

test_case 'cmdbuf-warm: markdown'
expect_code 0 jaxprof summary --format=markdown "$H/cmdbuf-warm"
expect_stderr_empty
compare_golden markdown

test_case 'cmdbuf-warm: the launch overhead is the idle that `idle` shows'
expect_code 0 jaxprof summary --format=json "$H/cmdbuf-warm"
save warm.json
expect_code 0 jaxprof idle --min-gap=100us -n 0 --format=csv "$H/cmdbuf-warm"
save idle.csv
expect_code 0 jaxprof steps --format=csv "$H/cmdbuf-warm"
"$PYTHON" - "$tmp/warm.json" "$tmp/idle.csv" "$out" <<'PY' || fail "launch idle differs from the idle gaps"
import csv, json, sys
rep = json.load(open(sys.argv[1]))
steps = list(csv.DictReader(open(sys.argv[3])))
lo = min(float(s["start_us"]) for s in steps)
hi = max(float(s["start_us"]) + float(s["duration_us"]) for s in steps)
# Gaps wholly inside the steps, while the host updated the command buffer.
upd = sum(float(g["duration_us"]) for g in csv.DictReader(open(sys.argv[2]))
          if g["host_activity"] == "command_buffer::update"
          and lo <= float(g["start_us"]) and float(g["start_us"]) + float(g["duration_us"]) <= hi)
cause = [c for c in rep["idle_causes"] if c["host_activity"] == "command_buffer::update"]
total = sum(float(s["duration_us"]) for s in steps)
ok = (rep["verdict"]["rule"] == "launch" and cause and cause[0]["part"] == "launch_idle"
      and abs(cause[0]["total_us"] - upd) <= 0.01 * upd
      and abs(rep["breakdown"]["launch_idle"]["percent"] - 100 * rep["breakdown"]["launch_idle"]["per_step_us"] * len(steps) / total) < 0.05)
print(rep["verdict"], cause, upd)
sys.exit(0 if ok else 1)
PY

for run in no-cmdbuf-warm cmdbuf-train; do
	[ -d "$H/$run" ] || { note_skip "no $H/$run"; continue; }
	test_case "$run: the verdict"
	expect_code 0 jaxprof summary --format=json "$H/$run"
	expect_stderr_empty
	save "$run.json"
	"$PYTHON" - "$run" "$tmp/$run.json" "$H/$run/truth.json" <<'PY' || fail "wrong verdict for $run"
import json, sys
run, rep, truth = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
v = rep["verdict"]
rules = {r["rule"] for r in rep["recommendations"]}
print(v)
if run == "no-cmdbuf-warm":
    # Compiled before the trace, no command buffers: nothing to blame.
    ok = v["rule"] == "compute" and not rules & {"host", "launch", "compile", "recompile"}
else:
    # Compiled inside the trace, in step 0: compile-bound, step 0 left out.
    s0 = rep["series"][0]["steps"][0]
    ok = (not truth["warmed_up_before_trace"] and v["rule"] == "compile"
          and s0["skipped"] == "compiled during the step" and rep["steps_kept"] == rep["steps"] - 1)
sys.exit(0 if ok else 1)
PY
done

check_page cmdbuf-warm "$H/cmdbuf-warm"
[ ! -d "$H/cmdbuf-train" ] || check_page cmdbuf-train "$H/cmdbuf-train"

test_done
