#!/bin/sh
# summary's compute time by precision (issue 44.2), as xprof's overview
# breaks it down, on real profiles: the H200's (TF32 gemms, fp32
# fusions), the MI300X's (a bf16 gemm), the TPU v6e's (fp32 fusions); each
# share worked out here from top's rows (the self time of the ops that
# compute, by precision), in text, json and on the page; none for a trace
# JSON, which has no FLOPs.
. "$(dirname "$0")/lib.sh"

H=$CORPUS/h200/no-cmdbuf-warm
HJ=$(ls "$H"/plugins/profile/*/perfetto_trace.json.gz 2>/dev/null | head -n 1)
M=$CORPUS/tracelens/tests/traces/mi300/jax08_gemm/tw003.xplane.pb
T=$CORPUS/xprof/xprof/convert/test_xplanes/tpu_inference_2.xplane.pb
[ -d "$H" ] && [ -f "$HJ" ] && [ -f "$M" ] && [ -f "$T" ] ||
    skip "no H200, MI300X and TPU profiles under '$CORPUS'"
"$PYTHON" -c 'import csv, json' 2>/dev/null || skip "no Python at '$PYTHON'"

# shares PROFILE WANT: summary's json, text and page give each precision
# the share of compute time top's rows make, and WANT ("tf32 fp32") are
# the precisions with any, in that order.
shares() {
	expect_code 0 jaxprof top -n 0 --format=csv \
	    --fields=name,module,self_us,flops,precision "$1"
	save top.csv
	expect_code 0 jaxprof summary --format=json "$1"
	expect_stderr_empty
	save summary.json
	expect_code 0 jaxprof summary "$1"
	save summary.txt
	expect_code 0 jaxprof summary --format=html -o "$tmp/page.html" "$1"
	"$PYTHON" - "$tmp/top.csv" "$tmp/summary.json" "$tmp/summary.txt" \
	    "$tmp/page.html" "$2" >"$tmp/off" <<'PY' ||
import csv, json, re, sys
top, js, txt, page, want = sys.argv[1:6]
order = ["fp8", "bf16", "tf32", "fp32", "fp64", "int8", None]
us = dict.fromkeys(order, 0.0)
for r in csv.DictReader(open(top)):
    if r["flops"] and int(r["flops"]) > 0:
        us[r["precision"] or None] += float(r["self_us"])
total = sum(us.values())
got = json.load(open(js))["compute_precision"]
bad = []
if [g["precision"] for g in got] != order:
    bad.append(("order", [g["precision"] for g in got]))
for g in got:
    pct = 100 * us[g["precision"]] / total
    if abs(g["total_us"] - us[g["precision"]]) > 0.01 * len(order) or \
            abs(g["percent"] - pct) > 0.006:
        bad.append((g, us[g["precision"]], pct))
with_any = [p for p in order if us[p] > 0]
if " ".join(p or "unknown" for p in with_any) != want:
    bad.append(("precisions", with_any, want))
text = open(txt).read()
html = open(page).read()
for p in with_any:
    pct = "%.2f%%" % (100 * us[p] / total)
    name = "bf16/fp16" if p == "bf16" else p or "unknown"
    if not re.search(r"^%s +[0-9.]+ [mu]?s +%s$" % (re.escape(name),
                                                   re.escape(pct)),
                     text, re.M):
        bad.append(("text", name, pct))
    if not re.search(r'<tr data-precision="%s"><td>%s</td><td>[^<]+</td>'
                     r'<td>%s</td></tr>' % (p or "unknown", re.escape(name),
                                            re.escape(pct)), html):
        bad.append(("page", name, pct))
if html.count("<tr data-precision=") != len(with_any) or \
        'id="precision"' not in html:
    bad.append(("page rows", html.count("<tr data-precision=")))
print(bad)
sys.exit(1 if bad else 0)
PY
	    fail "$(head -c 600 "$tmp/off")"
}

test_case "H200: TF32 gemms and fp32 fusions"
shares "$H" "tf32 fp32"
expect_code 0 jaxprof summary "$H"
expect_stdout_match '^Compute time by precision '
expect_stdout_match '^tf32 +[0-9.]+ ms +70\.76%$'
expect_stdout_match '^fp32 +[0-9.]+ ms +29\.24%$'

test_case "MI300X: a bf16 gemm"
shares "$M" "bf16"
expect_code 0 jaxprof summary --format=markdown "$M"
expect_stdout_match '^\| bf16/fp16 +\| +[0-9.]+ ms \| +100\.00% \|$'

test_case "TPU v6e: fp32 fusions"
shares "$T" "fp32"

test_case "trace JSON: no FLOPs, no breakdown"
# Alone: beside its xplane.pb, that would be read instead.
mkdir "$tmp/json" && cp "$HJ" "$tmp/json/" || fail "cannot copy '$HJ'"
HJ=$tmp/json
expect_code 0 jaxprof summary --format=json "$HJ"
"$PYTHON" -c 'import json, sys
got = json.load(open(sys.argv[1]))["compute_precision"]
sys.exit(0 if len(got) == 7 and all(g["percent"] == 0 and
         g["total_us"] == 0 for g in got) else 1)' "$out" ||
    fail "compute_precision not all 0 for a trace JSON"
expect_code 0 jaxprof summary "$HJ"
! grep -q '^Compute time by precision' "$out" ||
    fail "a precision breakdown without FLOPs"

test_done
