#!/bin/sh
# FLOPs and bytes from the HLO on real MI300X profiles
# ($CORPUS/tracelens/tests/traces/mi300): the ops of xprof's roofline model
# (golden files made by tests/xprof/roofline.sh programs) within 1% per run,
# with xprof's bound, wherever an op's name and module name one program;
# the gemm custom calls, which xprof leaves uncosted on ROCm, costed as XLA
# costs them (jaxprof-top(1), COST RULES).
. "$(dirname "$0")/lib.sh"

M=$CORPUS/tracelens/tests/traces/mi300
[ -f "$M/jax08_gemm/tw003.xplane.pb" ] &&
    [ -f "$M/jax08_elementwise/tw003.xplane.pb" ] ||
    skip "no MI300X profiles under '$M'"
"$PYTHON" -c 'import csv' 2>/dev/null || skip "no Python at '$PYTHON'"

for p in jax08_gemm jax08_elementwise; do
	f=$M/$p/tw003.xplane.pb
	test_case "$p: xprof's costs, and the gemms XLA costs"
	expect_code 0 jaxprof top -n 0 --format=csv "$f"
	expect_stderr_empty
	save "top-$p"
	expect_code 0 jaxprof sql --format=csv "SELECT program_id, module, name
	    FROM hlo_instructions WHERE schedule_index IS NOT NULL" "$f"
	save "launched-$p"
	"$PYTHON" - "$EXPECT_DIR/$TEST_NAME-$p.out" "$tmp/top-$p" \
	    "$tmp/launched-$p" >"$tmp/off" <<'PY' || fail "$(head -n 5 "$tmp/off")"
import csv, sys
want = [r for r in csv.reader(open(sys.argv[1])) if r[0] != "peak"]
ours = {(r["name"], r["module"]): r for r in csv.DictReader(open(sys.argv[2]))}
module, programs = {}, {}
for r in csv.DictReader(open(sys.argv[3])):
    module[(r["program_id"], r["name"])] = r["module"]
    programs.setdefault((r["module"], r["name"]), set()).add(r["program_id"])
off = lambda a, w: abs(a - w) > 0.01 * abs(w)
bad = compared = gemms = 0
for name, pid, flops, nbytes, bound in want:
    flops, nbytes = float(flops), float(nbytes)
    m = module.get((pid, name))
    r = ours.get((name, m))
    if r is None:
        print("missing", name, "of program", pid)
        bad = 1
        continue
    if bound == "unknown":
        # xprof 0 FLOP 0 B; XLA's rule costs a __cublas$gemm from its config.
        gemms += 1
        if r["category"] != "gemm" or not int(r["flops"] or 0) > 0:
            print(name, m, "is", r["category"], r["flops"], "FLOP, want a gemm")
            bad = 1
        continue
    if len(programs[(m, name)]) > 1:
        continue  # summed over programs of one name: not xprof's per program
    compared += 1
    n = int(r["count"])
    got_f, got_b = int(r["flops"] or 0) / n, int(r["bytes_accessed"] or 0) / n
    if off(got_f, flops) or off(got_b, nbytes) or \
            (flops > 0 and r["bound"] != bound):
        print("%s %s: %g FLOP %g B %s, want %g %g %s" % (name, m, got_f, got_b,
              r["bound"], flops, nbytes, bound))
        bad = 1
if compared == 0:
    print("no op to compare")
    bad = 1
print("compared", compared, "gemms", gemms, file=sys.stderr)
sys.exit(bad)
PY
done

test_done
