#!/bin/sh
# summary on other real profiles ($CORPUS): a TPU run whose steps are
# module executions (the breakdown is `steps`' one, summed), and a
# TensorFlow CPU profile without steps (the verdict says so and names
# top's first op).
. "$(dirname "$0")/lib.sh"

TPU=$CORPUS/xprof/xprof/convert/test_xplanes/tpu_inference_2.xplane.pb
TF=$CORPUS/ampere
[ -f "$TPU" ] || [ -d "$TF" ] || skip "no corpus under '$CORPUS'"
python_has json csv || skip "no Python at '$PYTHON'"

if [ -f "$TPU" ]; then
	test_case 'TPU: the breakdown is the steps, the verdict its largest share'
	expect_code 0 jaxprof summary --format=json "$TPU"
	expect_stderr_empty
	save tpu.json
	expect_code 0 jaxprof steps --format=csv "$TPU"
	"$PYTHON" - "$tmp/tpu.json" "$out" <<'PY' || fail "TPU summary differs from steps"
import csv, json, sys
rep = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
total = sum(float(r["duration_us"]) for r in rows)
share = {k: 100 * sum(float(r[k + "_us"]) for r in rows) / total
         for k in ("compute", "collective", "transfer")}
bad = [k for k in share if abs(share[k] - rep["breakdown"][k]["percent"]) > 0.01]
best = max(share, key=share.get)
rule = {"transfer": "transfers", "collective": "collectives"}.get(best)
print(share, rep["verdict"])
if rep["steps"] != len(rows) or bad or (share[best] >= 10 and rule and rep["verdict"]["rule"] != rule):
    sys.exit(1)
PY
fi

if [ -d "$TF" ]; then
	test_case 'TensorFlow CPU, no steps: the verdict says so, names top first'
	expect_code 0 jaxprof summary --format=json "$TF"
	expect_stderr_empty
	save tf.json
	expect_code 0 jaxprof top -n 1 --format=csv "$TF"
	"$PYTHON" - "$tmp/tf.json" "$out" <<'PY' || fail "wrong no-steps verdict"
import csv, json, sys
rep = json.load(open(sys.argv[1]))
top = list(csv.DictReader(open(sys.argv[2])))[0]
v = rep["verdict"]
print(v)
sys.exit(0 if rep["steps"] == 0 and v["rule"] in ("no-steps", "few-ops")
         and "`%s`" % top["name"] in v["text"] and float(top["percent"]) == rep["top_ops"][0]["percent"] else 1)
PY
fi

test_done
