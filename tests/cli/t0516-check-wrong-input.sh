#!/bin/sh
# check: inputs that parse but are wrong are refused with exit 2 and a
# message naming the file and what is wrong, never judged (issue 41.9): a
# baseline that holds nothing ("[]" reads as an empty trace), negative
# counts, times and FLOPs in a baseline, rules numbers that are not plain
# decimals (0x10, 010, 1e1, +5) and shares above 100%.
. "$(dirname "$0")/lib.sh"

T=$TESTDATA/jax-mlp
BASE=$TESTDATA/baselines/jax-mlp.json
[ -f "$BASE" ] || fail "no $BASE"
cd "$tmp"
RUN='--run=2026_01_01_00_00_00'

test_case 'the committed baseline and plain decimal rules pass (exit 0)'
cat >good.rules <<RULES
baseline = $BASE
min-op-share = 10%
max-op-regression = 1000%
max-new-op-share = 50
max-step-regression = off
step-percentile = 0.5
max-compiles = 2
max-peak-memory = 16G
skip = 1
RULES
expect_code 0 jaxprof check --rules=good.rules $RUN "$T"
expect_stderr_empty

test_case 'a baseline "[]", "{"traceEvents": []}" or of nothing: exit 2'
printf '[]\n' >empty.json
expect_code 2 jaxprof check --baseline=empty.json "$T"
expect_stdout_empty
expect_stderr_is "jaxprof: check: 'empty.json' holds nothing to compare: no ops, steps, compiles, transfers or memory (an empty trace?)"
printf '{"traceEvents": []}\n' >events.json
expect_code 2 jaxprof check --baseline=events.json "$T"
expect_stderr_line "^jaxprof: check: 'events\.json' holds nothing to compare"
expect_code 2 jaxprof diff empty.json "$T"
expect_stdout_empty
expect_stderr_line "^jaxprof: diff: 'empty\.json' holds nothing to compare"
# The new side too.
expect_code 2 jaxprof check --baseline="$BASE" empty.json
expect_stderr_line "^jaxprof: check: 'empty\.json' holds nothing to compare"

# negative FIELD [WHERE]: the baseline with the first number of FIELD made
# negative is refused, naming the file and the field.
negative() {
	"$PYTHON" - "$BASE" "$1" <<'PY' >neg.json || fail "cannot edit the baseline"
import json, sys
d = json.load(open(sys.argv[1]))
field = sys.argv[2]
def first(x):
    if isinstance(x, dict):
        for k, v in x.items():
            if k == field and isinstance(v, int) and not isinstance(v, bool):
                x[k] = -v - 1
                return True
            if first(v):
                return True
    elif isinstance(x, list):
        for v in x:
            if first(v):
                return True
    return False
if field == "dur_ps":
    d["steps"]["series"][0]["dur_ps"][0] = -5
elif field in ("flops", "bytes_accessed"):	# null on CPU
    d["ops"][0][field] = -5
elif not first(d):
    sys.exit("no integer '%s'" % field)
json.dump(d, sys.stdout, indent=1)
PY
	expect_code 2 jaxprof check --baseline=neg.json $RUN "$T"
	expect_stdout_empty
	expect_stderr_line "^jaxprof: check: invalid baseline 'neg\.json': negative( number in)? '$1'$"
}

test_case 'negative total_ps, count, flops and the other figures: exit 2'
for f in total_ps count flops self_ps min_ps max_ps bytes_accessed dur_ps \
    executions; do
	negative $f
done

# rule KEY VALUE: a rules file setting KEY to VALUE is refused, naming it.
rule() {
	printf 'baseline = %s\n%s = %s\n' "$BASE" "$1" "$2" >bad.rules
	expect_code 2 jaxprof check --rules=bad.rules $RUN "$T"
	expect_stdout_empty
	expect_stderr_line "^jaxprof: check: rules 'bad\.rules' line 2: invalid $1 '$(printf '%s' "$2" | sed 's/[.+*]/\\&/g')' \(expected "
}

test_case 'rules: hexadecimal, leading zeros, exponents and signs: exit 2'
for v in 0x10 010 1e1 +5 -1 .5 5. inf nan 0x1p3; do
	rule min-op-share "$v"
	rule max-compiles "$v"
done
rule skip 010
rule skip 0x10
rule max-step-time 0x10ms
rule max-step-time 1e3ms
rule max-peak-memory 010G
rule max-op-regression 0x10%

test_case 'rules: shares and the percentile above 100: exit 2'
rule min-op-share 200%
rule max-new-op-share 100.5%
rule step-percentile 101
expect_stderr_is "jaxprof: check: rules 'bad.rules' line 2: invalid step-percentile '101' (expected a percentage from 0 to 100 such as 5%)"
rule min-op-share 200
expect_stderr_is "jaxprof: check: rules 'bad.rules' line 2: invalid min-op-share '200' (expected a percentage from 0 to 100 such as 5%)"

test_case 'the same values as options: exit 2'
expect_code 2 jaxprof check --baseline="$BASE" --min-op-share=200% "$T"
expect_stderr_line "invalid --min-op-share '200%'"
expect_code 2 jaxprof check --baseline="$BASE" --max-compiles=0x10 "$T"
expect_stderr_line "invalid --max-compiles '0x10'"

test_case 'a regression may exceed 100%, a share may be 100%'
printf 'baseline = %s\nmax-op-regression = 250%%\nmin-op-share = 100%%\n' \
    "$BASE" >ok.rules
expect_code 0 jaxprof check --rules=ok.rules $RUN "$T"

test_done
