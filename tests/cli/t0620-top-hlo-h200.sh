#!/bin/sh
# HLO-aware ops on real JAX 0.11 profiles from an NVIDIA H200 ($CORPUS/h200):
# CUDA-graph ("command buffer") kernels attributed to the HLO ops they run,
# categories and source lines from the HLO, compared with the same program
# run without command buffers and with xprof's own answer (a golden file
# made by tests/xprof/top-hlo-ops.sh, so no xprof is needed here).
. "$(dirname "$0")/lib.sh"

H=$CORPUS/h200
[ -d "$H/cmdbuf-warm" ] && [ -d "$H/no-cmdbuf-warm" ] ||
    skip "no H200 profiles under '$H'"
"$PYTHON" -c 'import csv' 2>/dev/null || skip "no Python at '$PYTHON'"

for run in cmdbuf-warm no-cmdbuf-warm cmdbuf-train; do
	[ -d "$H/$run" ] || continue
	test_case "$run: top reads it without a warning"
	expect_code 0 jaxprof top -n 0 --format=csv "$H/$run"
	expect_stderr_empty
	save "top-$run"
done

test_case 'cmdbuf-warm: no op row is the CUDA graph launch itself'
grep -q 'command_buffer' "$tmp/top-cmdbuf-warm" &&
    fail "a row still names the command buffer"
expect_code 0 jaxprof top "$H/cmdbuf-warm"
expect_stdout_match '^ 1  custom-call\.22 +transpose\(jvp\(\)\)/transpose +jit_train_step +gemm +10 '
grep -q unattributed "$out" && fail "unattributed kernels on cmdbuf-warm"

# The acceptance of issue 8: the same ops as the run without command
# buffers for >= 95% of its device time, and a time-weighted mean of the
# per-op relative difference of total time of at most 15%.
test_case 'cmdbuf-warm names the ops of no-cmdbuf-warm, with their times'
"$PYTHON" - "$tmp/top-cmdbuf-warm" "$tmp/top-no-cmdbuf-warm" >"$tmp/cmp" <<'PY' ||
import csv, sys
def load(p):
    return {(r["name"], r["module"]): float(r["total_us"])
            for r in csv.DictReader(open(p))}
got, ref = load(sys.argv[1]), load(sys.argv[2])
total = sum(ref.values())
named = sum(v for k, v in ref.items() if k in got)
diff = sum(v * abs(got[k] - v) / v for k, v in ref.items() if k in got)
cover, mean = 100 * named / total, 100 * diff / named
print("covered %.2f%% of the time, weighted difference %.2f%%" % (cover, mean))
sys.exit(0 if cover >= 95 and mean <= 15 else 1)
PY
    fail "$(cat "$tmp/cmp")"
cat "$tmp/cmp"

# Memsets inside a CUDA graph carry the graph call's hlo_op: they clear a
# buffer for the instruction after the last kernel that named its own, not
# a run of their own (input_reduce_fusion.9 counted 20 for 10 steps).
for run in cmdbuf-warm cmdbuf-train; do
	[ -f "$tmp/top-$run" ] || continue
	test_case "$run: each op runs as often as without command buffers"
	"$PYTHON" - "$tmp/top-$run" "$tmp/top-no-cmdbuf-warm" \
	    >"$tmp/cmp" <<'PY' || fail "$(cat "$tmp/cmp")"
import csv, sys
def load(p):
    return {(r["name"], r["module"]): int(r["count"])
            for r in csv.DictReader(open(p))}
got, ref = load(sys.argv[1]), load(sys.argv[2])
bad = ["%s: %d, not %d" % (k[0], got[k], n) for k, n in sorted(ref.items())
       if k in got and got[k] != n]
print("; ".join(bad) or "all %d ops agree" % len(ref))
sys.exit(1 if bad else 0)
PY
	cat "$tmp/cmp"
done

test_case 'no-cmdbuf-warm: the top 20 ops have the source lines xprof reports'
"$PYTHON" - "$tmp/top-no-cmdbuf-warm" <<'PY' >"$tmp/ours"
import csv, sys
rows = {r["name"]: r["source"] for r in csv.DictReader(open(sys.argv[1]))}
print("\n".join("%s,%s" % (n, s) for n, s in sorted(rows.items())))
PY
cut -d, -f1 "$EXPECT_DIR/$TEST_NAME-xprof-top20.out" >"$tmp/names"
awk -F, 'NR == FNR { want[$1] = 1; next } ($1 in want)' "$tmp/names" \
    "$tmp/ours" >"$tmp/got"
expect_files_equal "$EXPECT_DIR/$TEST_NAME-xprof-top20.out" "$tmp/got"

test_case 'cmdbuf-warm: --group=source ranks lines of code (golden)'
expect_code 0 jaxprof top --group=source -n 8 "$H/cmdbuf-warm"
expect_stderr_empty
compare_golden group-source

test_case 'cmdbuf-warm: --group=category from the HLO (golden)'
expect_code 0 jaxprof top --group=category "$H/cmdbuf-warm"
expect_stderr_empty
compare_golden group-category

test_case 'the HLO of every program is in the index'
expect_code 0 jaxprof sql --format=csv "SELECT module, count(*) AS n,
    count(schedule_index) AS scheduled FROM hlo_instructions
    WHERE module = 'jit_train_step' AND file_id IN
    (SELECT file_id FROM selected) GROUP BY program_id" "$H/cmdbuf-warm"
compare_golden hlo-instructions

test_done
