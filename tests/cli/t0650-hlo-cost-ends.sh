#!/bin/sh
# The cost rules end on hostile HLO (issue 41.2): each class of
# fuzz/crashers/hlo/ that used to hang or exhaust memory (a reducer or a
# fusion that calls itself, fusions of the entry, a convolution of 2^31
# windows, a shape of 60,000 dims fields) and one that overflowed runs
# through fuzz-hlo, which costs every launch, in seconds, and so does top
# on profiles that run such ops; the crashers are what
# fuzz/make-hostile.py writes.
. "$(dirname "$0")/lib.sh"

BUILDDIR=${BUILDDIR:-$SRCDIR}
replay=$BUILDDIR/fuzz/replay-hlo
[ -x "$replay" ] || fail "no $replay: run through 'make check'"
for f in timeout-self-calling-reducer timeout-self-calling-fusion \
    timeout-fusion-calls-entry timeout-conv-2e31-windows \
    conv-stride-overflow timeout-shape-60000-dims; do
	test_case "$f ends"
	# Before the fix each ran for minutes or ran out of memory.
	expect_code 0 timeout 20 "$replay" "$SRCDIR/fuzz/crashers/hlo/$f.hlo.pb"
	expect_stdout_match '^1 inputs ran$'
done

# The same in profiles whose events run the op: top lists it, uncosted.
for f in timeout-hlo-self-calling-reducer:reduce.45 \
    timeout-hlo-fusion-calls-entry:fusion.9 \
    timeout-hlo-conv-2e31-windows:convolution.3; do
	test_case "top on ${f%%:*} ends"
	expect_code 0 timeout 20 "$JAXPROF" top -n 0 --format=csv \
	    "$SRCDIR/fuzz/crashers/xspace/${f%%:*}.xplane.pb"
	expect_stdout_match "^[0-9]+,${f#*:},jit_hostile,"
done

test_case "the crashers are make-hostile.py's"
if "$PYTHON" -c '' 2>/dev/null; then
	expect_code 0 "$PYTHON" "$SRCDIR/fuzz/make-hostile.py" "$tmp/made"
	for f in "$tmp"/made/hlo/* "$tmp"/made/xspace/timeout-hlo-*; do
		d=${f%/*}
		expect_files_equal "$f" "$SRCDIR/fuzz/crashers/${d##*/}/${f##*/}"
	done
else
	note_skip "the comparison: no $PYTHON"
fi
test_done
