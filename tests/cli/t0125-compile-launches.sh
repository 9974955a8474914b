#!/bin/sh
# compile: executions are launches (issue 9).  One execution per launch of
# a program on a device, never merged with the next however close they
# run, and execute_us is the device time of those launches, not their
# wall span: on the real H200 runs of the corpus (train_step ran 10
# times, as a CUDA graph and as plain kernels) and on the CPU testdata.
. "$(dirname "$0")/lib.sh"

# Checks that function $1 (module $2) of profile $3 has $4 executions
# and an execute_us within 1% of its ops' device time in the index.
check_launches() {
	expect_code 0 jaxprof compile --format=csv "$3"
	save compile
	row=$(awk -F, -v n="$2" 'NR > 1 && $2 == n { print $5 " " $6 }' \
	    "$tmp/compile")
	[ "${row%% *}" = "$4" ] ||
		fail "$1 has executions '${row%% *}', expected $4"
	expect_code 0 jaxprof sql --format=csv "SELECT sum(o.total_ps) / 1e6 \
FROM ops o JOIN selected s ON s.file_id = o.file_id \
JOIN files f ON f.id = o.file_id JOIN planes p ON p.id = o.plane \
WHERE o.module = '$2' AND (p.kind = 'device' OR f.op_source LIKE 'host%')" "$3"
	ops=$(sed -n 2p "$out")
	awk -v e="${row#* }" -v o="$ops" 'BEGIN {
		d = e - o; if (d < 0) d = -d
		exit !(o > 0 && d <= o / 100) }' ||
		fail "$1: execute_us ${row#* } is not within 1% of its ops' device time $ops"
	echo "  $1: executions ${row%% *}, execute_us ${row#* }, ops $ops"
}

test_case 'CPU testdata: executions and execute_us per module'
check_launches train_step jit_train_step "$TESTDATA/jax-mlp" 6
check_launches normalize jit_normalize "$TESTDATA/jax-mlp" 7
check_launches predict jit_predict "$TESTDATA/jax-mlp" 3

if [ ! -d "$CORPUS/h200" ]; then
	note_skip "the H200 part: no corpus at '$CORPUS/h200'"
	test_done
fi

test_case 'cmdbuf-warm: 10 CUDA graph launches of train_step, back to back'
check_launches train_step jit_train_step "$CORPUS/h200/cmdbuf-warm" 10
expect_code 0 jaxprof sql --format=csv "SELECT count(*) FROM executions e \
JOIN selected s ON s.file_id = e.file_id" "$CORPUS/h200/cmdbuf-warm"
[ "$(sed -n 2p "$out")" = 10 ] || fail "the index has not 10 executions"

test_case 'no-cmdbuf-warm: 10 launches of plain kernels'
check_launches train_step jit_train_step "$CORPUS/h200/no-cmdbuf-warm" 10

G=$CORPUS/tracelens/tests/traces/mi300/jax08_gemm
if [ -d "$G" ]; then
	test_case 'MI300X jax08_gemm: back-to-back launches of one op are runs'
	# The host shows 18 executions of jit_dot: 15 of custom-call.1 alone
	# and 3 of gemm_fusion_dot_general.1.
	check_launches jit_dot jit_dot "$G" 18
	expect_code 0 jaxprof top --format=csv "$G"
	expect_stdout_match '^[0-9]*,custom-call\.1,jit_dot,[^,]*,15,'
else
	note_skip "the MI300X part: no corpus profile at '$G'"
fi

test_done
