#!/bin/sh
# FLOPs and bytes from the HLO on real H200 profiles ($CORPUS/h200): the 20
# ops with the most time against xprof's roofline model (a golden file made
# by tests/xprof/roofline.sh roofline, so no xprof is needed here), within
# 1% per run, with xprof's bound and device peaks; the command-buffer run
# of the same program gets the same numbers.
. "$(dirname "$0")/lib.sh"

H=$CORPUS/h200
[ -d "$H/cmdbuf-warm" ] && [ -d "$H/no-cmdbuf-warm" ] ||
    skip "no H200 profiles under '$H'"
"$PYTHON" -c 'import csv' 2>/dev/null || skip "no Python at '$PYTHON'"

# name,flops,bytes,bound of one run of each op of a top csv.
per_run() {
	"$PYTHON" - "$1" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["flops"] and r["bytes_accessed"]:
        n = int(r["count"])
        print("%s,%.6g,%.6g,%s" % (r["name"], int(r["flops"]) / n,
                                   int(r["bytes_accessed"]) / n, r["bound"]))
PY
}

# within1 WANT GOT: each op of WANT in GOT, FLOPs and bytes within 1%,
# the same bound.
within1() {
	awk -F, 'NR == FNR { if ($1 != "peak") {
		f[$1] = $2; b[$1] = $3; r[$1] = $4 }; next }
	function off(a, w) { return (a > w ? a - w : w - a) > 0.01 * w }
	($1 in f) { seen[$1] = 1
		if (off($2, f[$1]) || off($3, b[$1]) || $4 != r[$1]) {
			print $1 ": " $2 " FLOP " $3 " B " $4 ", want " f[$1] \
			    " " b[$1] " " r[$1]
			bad = 1 } }
	END { for (k in f) if (!(k in seen)) { print "missing " k; bad = 1 }
		exit bad }' "$1" "$2" >"$tmp/off" || fail "$(head -n 5 "$tmp/off")"
}

XP=$EXPECT_DIR/$TEST_NAME-xprof-roofline.out
test_case "no-cmdbuf-warm: the profile's own peaks are those of xprof"
expect_code 0 jaxprof sql --format=csv "SELECT 'peak', profile_gflops,
    profile_gbps FROM planes WHERE profile_gflops IS NOT NULL" \
    "$H/no-cmdbuf-warm"
sed 1d "$out" >"$tmp/peak"
awk -F, 'NR == FNR { if ($1 == "peak") { f = $2; b = $3 }; next }
    function off(a, w) { return (a > w ? a - w : w - a) > 0.001 * w }
    { n++; if (off($2, f) || off($3, b)) bad = 1 }
    END { exit bad || n != 1 }' "$XP" "$tmp/peak" ||
    fail "peaks $(cat "$tmp/peak"), want $(head -n 1 "$XP")"
for run in no-cmdbuf-warm cmdbuf-warm; do
	test_case "$run: the top 20 ops cost what xprof's roofline says"
	expect_code 0 jaxprof top -n 0 --format=csv "$H/$run"
	expect_stderr_empty
	save "top-$run"
	per_run "$tmp/top-$run" >"$tmp/cost-$run"
	within1 "$XP" "$tmp/cost-$run"
done

test_case 'cmdbuf-warm: every op has the FLOPs of no-cmdbuf-warm'
awk -F, 'NR == FNR { f[$1] = $2; next }
    ($1 in f) && f[$1] != $2 { print $1 ": " $2 " vs " f[$1]; bad = 1 }
    END { exit bad }' "$tmp/cost-no-cmdbuf-warm" "$tmp/cost-cmdbuf-warm" \
    >"$tmp/off" || fail "$(head -n 5 "$tmp/off")"

test_case 'the category groups sum the FLOPs of their ops'
expect_code 0 jaxprof top --group=category -n 0 --format=csv "$H/no-cmdbuf-warm"
"$PYTHON" - "$out" "$tmp/top-no-cmdbuf-warm" <<'PY' >"$tmp/off" ||
import csv, sys
want = {}
for r in csv.DictReader(open(sys.argv[2])):
    want[r["category"]] = want.get(r["category"], 0) + int(r["flops"] or 0)
bad = 0
for r in csv.DictReader(open(sys.argv[1])):
    if int(r["flops"] or 0) != want.get(r["name"], 0):
        print(r["name"], r["flops"], want.get(r["name"]))
        bad = 1
sys.exit(bad)
PY
    fail "$(head -n 5 "$tmp/off")"

test_done
