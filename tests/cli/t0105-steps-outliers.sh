#!/bin/sh
# steps: an outlier is beyond median + 3 MAD and more than a margin
# (--outlier-margin, default 10%) above the median (issue 9).  On the
# H200 run of the corpus the steps vary by 1-2%, so the MAD rule alone
# flags a step that is no outlier; the margin keeps it out.
. "$(dirname "$0")/lib.sh"

test_case 'an invalid --outlier-margin exits 2'
expect_code 2 jaxprof steps --outlier-margin=ten "$TESTDATA/jax-mlp"
expect_stdout_empty
expect_stderr_match "invalid --outlier-margin 'ten'"

test_case 'testdata: the compile steps are still outliers'
expect_code 0 jaxprof steps --summary --run='*' --format=csv "$TESTDATA/jax-mlp"
awk -F, 'NR > 1 { n += $NF } END { exit n != 3 }' "$out" ||
	fail "testdata has not 3 outliers"

P=$CORPUS/h200/cmdbuf-warm
if [ ! -d "$P" ]; then
	note_skip "the H200 part: no corpus at '$P'"
	test_done
fi

test_case 'H200 cmdbuf-warm: no outlier with the default margin'
expect_code 0 jaxprof steps --summary --skip=1 --format=csv "$P"
[ "$(awk -F, 'NR == 2 { print $NF }' "$out")" = 0 ] ||
	fail "a step within 10% of the median is an outlier"

test_case 'H200 cmdbuf-warm: the MAD rule alone (--outlier-margin=0) flags one'
expect_code 0 jaxprof steps --summary --skip=1 --outlier-margin=0 "$P"
expect_stdout_match 'step [0-9]* is an outlier \(.*, above median \+ 3 MAD and median \+ 0%\)\.$'

test_done
