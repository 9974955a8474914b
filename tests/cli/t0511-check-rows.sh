#!/bin/sh
# check's rows a CI can trust: each row's result is its own measured value
# against its own limit (the parts of failing new work too), the checked
# ops' sums and the op that grew most are rows of their own, json gives
# numbers as numbers with their units apart, and an op rule's limit rises
# to twice the noise of the means compared (said in the row), so an op of
# the same program that moved within its noise passes.
. "$(dirname "$0")/lib.sh"
python_has json || skip "no Python at '$PYTHON'"

# rows_follow FILE.json: every row has rule, measured, limit, unit and
# result; numbers are numbers; PASS exactly when measured <= limit; an
# op row's limit is the larger of the rule's and the noise it names.
rows_follow() {
	"$PYTHON" - "$1" <<'PY'
import json, re, sys
rows, bad = json.load(open(sys.argv[1])), []
for r in rows:
    for k in ("rule", "measured", "limit", "unit", "result", "base", "new", "value_unit", "judged"):
        if k not in r:
            bad.append("no %s: %r" % (k, r))
    for k in ("measured", "limit", "base", "new"):
        if r.get(k) is not None and not isinstance(r[k], (int, float)):
            bad.append("%s is not a number: %r" % (k, r))
    m, l = r.get("measured"), r.get("limit")
    want = "PASS" if m is not None and m <= l else "FAIL"
    if r.get("result") != want:
        bad.append("%s: measured %r, limit %r, result %s" % (r["subject"], m, l, r.get("result")))
    if r["unit"] == "%" and r["value_unit"] == "us" and r["base"] and r["new"] is not None \
            and r["rule"] != "max-new-op-share" and abs((r["new"] / r["base"] - 1) * 100 - m) > \
            0.006 + 100 * 0.0005 * (1 / r["base"] + r["new"] / r["base"] ** 2):  # ns rounding
        bad.append("%s: %r -> %r is not %r%%" % (r["subject"], r["base"], r["new"], m))
    if r["rule"] == "max-op-regression":
        n = re.match(r"(the rule; )?noise ([0-9.]+)% = 2x the (op's|steps') spread ([0-9.]+)% / sqrt\(([0-9]+)\)", r["judged"])
        if not n:
            bad.append("op row does not say how it was judged: %r" % r["judged"])
            continue
        noise = 2 * float(n.group(4)) / float(n.group(5)) ** 0.5
        if abs(noise - float(n.group(2))) > 0.01 or abs(l - max(noise, 10)) > 0.01:
            bad.append("%s: limit %r, noise %.2f" % (r["subject"], l, noise))
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
}

gen_xplane --seed=3 --steps=6 --ops=8 "$tmp/a"
gen_xplane --seed=3 --steps=6 --ops=12 "$tmp/more"
gen_xplane --seed=3 --steps=6 --ops=8 --slow-op=input_reduce_fusion.5 "$tmp/slow"

test_case 'new work fails as a whole; each part judged on its own share'
expect_code 1 jaxprof check --baseline="$tmp/a" --format=json "$tmp/more"
expect_stderr_empty
save more.json
rows_follow "$tmp/more.json" || fail "a row's result does not follow from its figures"
"$PYTHON" - "$tmp/more.json" <<'PY' || fail "no part of the new work under its limit passes"
import json, sys
rows = [r for r in json.load(open(sys.argv[1])) if r["rule"] == "max-new-op-share"]
whole, parts = rows[0], rows[1:]
ok = whole["result"] == "FAIL" and any(p["measured"] < p["limit"] and p["result"] == "PASS" for p in parts)
sys.exit(0 if ok else 1)
PY
expect_code 1 jaxprof check --baseline="$tmp/a" "$tmp/more"
expect_stdout_match '^max-new-op-share +new at .* +absent +[0-9.]+ us +[0-4]\.[0-9]+% +5\.00% +PASS +default'

test_case 'the op that grew most and the summed ops: two rows'
expect_code 1 jaxprof check --baseline="$tmp/a" --format=json "$tmp/slow"
save slow.json
rows_follow "$tmp/slow.json" || fail "a row's result does not follow from its figures"
"$PYTHON" - "$tmp/slow.json" <<'PY' || fail "the op rows are not one op and one sum"
import json, sys
ops = [r for r in json.load(open(sys.argv[1])) if r["rule"] == "max-op-regression"]
one = [r for r in ops if r["framework_op"] == "input_reduce_fusion.5"]
summed = [r for r in ops if ", summed (per step)" in r["subject"]]
ok = (len(ops) == 2 and len(one) == 1 and one[0]["result"] == "FAIL"
      and len(summed) == 1 and summed[0]["base"] > one[0]["base"]
      and summed[0]["measured"] < one[0]["measured"])
print(ops)
sys.exit(0 if ok else 1)
PY

test_case 'passing: the op that grew most, the sums, each with its figures'
expect_code 0 jaxprof check --baseline="$tmp/a" --format=json "$tmp/a"
save same.json
rows_follow "$tmp/same.json" || fail "a row's result does not follow from its figures"
expect_stdout_match '"subject": "grew most of [0-9]+: '
expect_code 0 jaxprof check --baseline="$tmp/a" --format=csv "$tmp/a"
expect_stdout_match '^rule,subject,base,new,value_unit,measured,limit,unit,result,limit_from,framework_op,source,judged$'
expect_stdout_match '^max-step-regression,p50 of 12 steps,[0-9.]+,[0-9.]+,us,0,5,%,PASS,default,,,$'

H=$CORPUS/h200
if [ -d "$H/cmdbuf-train" ] && [ -d "$H/cmdbuf-warm" ]; then
	test_case 'H200: the same program, every op checked: moves within noise pass'
	# cmdbuf-train and cmdbuf-warm run the same compiled step with command
	# buffers; a tiny op moving 13% between them is its own spread.
	expect_code 0 jaxprof check --baseline="$H/cmdbuf-train" --skip=1 \
	    --min-op-share=0 --format=json "$H/cmdbuf-warm"
	save h200.json
	rows_follow "$tmp/h200.json" || fail "a row's result does not follow from its figures"
	expect_code 0 jaxprof check --baseline="$H/cmdbuf-train" --skip=1 \
	    --min-op-share=0 "$H/cmdbuf-warm"
	expect_stdout_match '^max-op-regression +grew most of [0-9]+: .* PASS +default .* noise [0-9.]+% = 2x the op.s spread [0-9.]+% / sqrt\([0-9]+\), over the rule$'
	expect_stdout_match '^PASS: all 3 rules passed\.$'

	test_case 'H200: the runs without and with command buffers, every row follows'
	expect_code 1 jaxprof check --baseline="$H/no-cmdbuf-warm" --format=json "$H/cmdbuf-warm"
	save nocmd.json
	rows_follow "$tmp/nocmd.json" || fail "a row's result does not follow from its figures"
else
	note_skip "the H200 part: no corpus at '$H'"
fi

test_done
