#!/bin/sh
# Every fuzz target (fuzz/README.md), linked with fuzz/replay.c, over its
# seed corpus and every input that ever crashed it (fuzz/crashers/<target>):
# under the ASan/UBSan build of .ci/run, a finding fails the test, and so
# does a hang (crashers/hlo/*shared-calls*: 10 minutes is far more than
# a target's whole corpus takes there).
. "$(dirname "$0")/lib.sh"

BUILDDIR=${BUILDDIR:-$SRCDIR}
for t in xspace json archive rules baseline hlo; do
	test_case "replay $t over its corpus and crashers"
	replay=$BUILDDIR/fuzz/replay-$t
	[ -x "$replay" ] || fail "no $replay: run through 'make check'"
	expect_code 0 timeout 600 "$replay" "$SRCDIR/fuzz/corpus/$t" \
	    "$SRCDIR/fuzz/crashers/$t"
	expect_stdout_match '^[0-9]+ inputs ran$'
done
test_done
