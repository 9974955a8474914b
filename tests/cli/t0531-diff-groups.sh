#!/bin/sh
# diff by every --group pairs the rows of the two profiles' own top
# tables: each side's self time, summed over diff's rows, is that side's
# top total.  --group=kernel once freed a kernel row's details twice (its
# copy shared them: ASan's build aborts), and the page of a profile
# against itself sorted a NULL list (UBSan's build aborts).
. "$(dirname "$0")/lib.sh"

# self_sum FILE COLUMN: the column named, summed, to the nanosecond.
self_sum() {
	"$PYTHON" -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
if rows and sys.argv[2] not in rows[0]:
    sys.exit(1)
print("%.3f" % sum(float(r[sys.argv[2]]) for r in rows if r[sys.argv[2]]))' \
	    "$1" "$2"
}

pairs="$TESTDATA/multihost-even $TESTDATA/multihost-straggler"
H=$CORPUS/h200
[ -d "$H/cmdbuf-warm" ] && [ -d "$H/no-cmdbuf-warm" ] &&
    pairs="$pairs $H/cmdbuf-warm $H/no-cmdbuf-warm"

set -- $pairs
while [ $# -ge 2 ]; do
	base=$1 new=$2
	shift 2
	for g in op category module kernel framework-op source; do
		test_case "diff --group=$g $(basename "$base") $(basename "$new")"
		expect_code 0 jaxprof top --group="$g" -n 0 --format=csv "$base"
		want_base=$(self_sum "$out" self_us) || want_base=0.000
		expect_code 0 jaxprof top --group="$g" -n 0 --format=csv "$new"
		want_new=$(self_sum "$out" self_us) || want_new=0.000
		expect_code 0 jaxprof diff --group="$g" -n 0 --format=csv \
		    "$base" "$new"
		got_base=$(self_sum "$out" base_self_us) ||
			fail "no base_self_us column"
		got_new=$(self_sum "$out" new_self_us) ||
			fail "no new_self_us column"
		[ "$got_base" = "$want_base" ] ||
			fail "base self time $got_base us, top says $want_base"
		[ "$got_new" = "$want_new" ] ||
			fail "new self time $got_new us, top says $want_new"
	done
done

test_case 'the page of a profile against itself: nothing slower, nothing new'
expect_code 0 jaxprof diff --format=html -o "$tmp/same.html" \
    "$TESTDATA/jax-mlp" "$TESTDATA/jax-mlp"
grep -q 'Nothing got slower, nothing is new\.' "$tmp/same.html" ||
	fail "the page does not say nothing changed"

test_done
