#!/bin/sh
# What a person sees at a terminal 80 and 120 columns wide (golden):
# columns empty on every row gone, SI numbers, long names cut in the
# middle, the least important columns left out and named under the table;
# top, memory, hosts, and on the H200 corpus diff, check and summary.
. "$(dirname "$0")/lib.sh"

command -v script >/dev/null || skip "no script(1) to make a pseudo-terminal; apt-get install bsdutils"

DB=$tmp/idx.sqlite

# at_terminal COLS ARGS...: jaxprof ARGS in a pty COLS wide, in $out.
at_terminal() {
	cols=$1
	shift
	last_cmd="jaxprof $* (at a $cols-column terminal)"
	script -qec "stty cols $cols rows 50; unset COLUMNS; \
	    \"$JAXPROF\" $* --db=\"$DB\"" /dev/null </dev/null | tr -d '\r' >"$out"
}

T=$TESTDATA/jax-mlp
for cols in 80 120; do
	test_case "testdata top -n 8 at $cols columns (golden)"
	at_terminal "$cols" top -n 8 --run='*00' "$T"
	compare_golden "top-$cols"
	test_case "testdata memory --group=program at $cols columns (golden)"
	at_terminal "$cols" memory --group=program "$T"
	compare_golden "memory-program-$cols"
	test_case "hosts of the straggler run at $cols columns (golden)"
	at_terminal "$cols" hosts "$TESTDATA/multihost-straggler"
	compare_golden "hosts-$cols"
done

H200=$CORPUS/h200/cmdbuf-train
[ -d "$H200" ] || skip "no H200 corpus ($H200) for the cost columns"
for cols in 80 120; do
	test_case "H200 top -n 5 at $cols columns: SI units, what each op is (golden)"
	at_terminal "$cols" top -n 5 "$H200"
	compare_golden "h200-top-$cols"
	test_case "H200 top --group=kernel -n 5 at $cols columns (golden)"
	at_terminal "$cols" top --group=kernel -n 5 "$H200"
	compare_golden "h200-kernel-$cols"
done

# diff, check and summary name their inputs: relative paths, so the
# goldens hold wherever the corpus is.
cd "$CORPUS/h200" || fail "cannot enter $CORPUS/h200"
for cols in 80 120; do
	test_case "H200 diff -n 8 at $cols columns: what each op is (golden)"
	at_terminal "$cols" diff -n 8 no-cmdbuf-warm cmdbuf-warm
	compare_golden "h200-diff-$cols"
	test_case "H200 check at $cols columns: every row kind, judged (golden)"
	at_terminal "$cols" check --baseline=no-cmdbuf-warm cmdbuf-warm
	compare_golden "h200-check-$cols"
	test_case "H200 summary at $cols columns: the verdict folded (golden)"
	at_terminal "$cols" summary cmdbuf-warm
	compare_golden "h200-summary-$cols"
done

test_case 'H200 top --wide: FLOP and bytes in SI units, the rates with theirs'
at_terminal 120 top --wide -n 1 "$H200"
expect_stdout_match '^1  custom-call\.22 .* 265\.2 TFLOP/s +647\.4 GB/s .* 1\.37 TFLOP +3\.36 GB '
test_done
