#!/bin/sh
# summary's verdict names the largest part of the step and what takes
# most of it, and its advice is ordered by what fixing each would save, on
# the H200 runs ($CORPUS/h200): only rules at their threshold, not the
# verdict again, each with the measured time of its part a step.
. "$(dirname "$0")/lib.sh"

H=$CORPUS/h200
[ -d "$H/cmdbuf-warm" ] || skip "no H200 profiles under '$H'"
python_has json || skip "no Python at '$PYTHON'"

for run in cmdbuf-warm no-cmdbuf-warm cmdbuf-train; do
	[ -d "$H/$run" ] || { note_skip "no $H/$run"; continue; }
	test_case "$run: advice by what it would save"
	expect_code 0 jaxprof summary --format=json "$H/$run"
	expect_stderr_empty
	save "$run.json"
	"$PYTHON" "$CLI_DIR/summary-advice.py" "$tmp/$run.json" ||
	    fail "the advice of $run is not by what it would save"
done

test_case 'no CUDA graphs: compute is the largest part, its top line named'
expect_code 0 jaxprof summary --format=json "$H/no-cmdbuf-warm"
"$PYTHON" - "$out" <<'PY' || fail "the verdict does not name the largest part"
import json, re, sys
rep = json.load(open(sys.argv[1]))
v, parts, line = rep["verdict"], rep["breakdown"], rep["top_lines"][0]
print(v["text"])
m = re.match(r"compute bound: compute takes ([0-9.]+)% of step time", v["text"])
sys.exit(0 if v["rule"] == "compute"
         and max(parts, key=lambda p: parts[p]["percent"]) == "compute"
         and m and abs(float(m.group(1)) - parts["compute"]["percent"]) <= 0.06
         and "`%s` first, %.1f%% of device time" % (line["name"], line["percent"]) in v["text"] else 1)
PY

test_case 'CUDA graphs: launch overhead stays the verdict, not repeated'
expect_code 0 jaxprof summary "$H/cmdbuf-warm"
expect_stdout_match '^Verdict: launch overhead bound: .* `command_buffer::update`'
expect_stdout_match '^1  top-line +[0-9.]+ +25 +[0-9.]+ ms$'
! grep -q '^[0-9]  launch ' "$out" || fail "the verdict is repeated as advice"
! grep -q '^[0-9]  top-op ' "$out" || fail "top-op below its threshold is advice"

test_case 'nothing beyond the verdict: said in one line'
expect_code 0 jaxprof summary "$H/no-cmdbuf-warm"
expect_stdout_match '^Recommendations: none besides the verdict \(no other rule reaches its threshold\)\.$'

test_done
