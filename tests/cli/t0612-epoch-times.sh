#!/bin/sh
# Files stamped with the Unix epoch (issue 36, point 7): xplane.proto has
# XLine.timestamp_ns count from it, and other tracers write trace JSON ts
# in us since it.  Such a file is rebased to its earliest line or event:
# every report reads it as the same file stamped from 0, its times moved by
# one constant.  Only a span past 2^61 ps is refused (t0610).
. "$(dirname "$0")/lib.sh"

EPOCH_NS=1700000000000000000

# steps csv: the rows but the start (column 6), and the starts apart
# (each rounded to the ns: a shift may differ by 1 ns).
steps_split() {
	awk -F, 'NR > 1 { $6 = ""; print }' OFS=, "$1" >"$1.rows"
	awk -F, 'NR > 1 { print $6 }' "$1" >"$1.starts"
}

# Whether the starts of $1 are those of $2 moved by one constant.
same_shift() {
	paste -d' ' "$1.starts" "$2.starts" | awk '
	{ d = $1 - $2; if (NR == 1) k = d; else if (d - k > 0.0015 || k - d > 0.0015) bad = 1 }
	END { exit bad || NR == 0 }'
}

# same_as_rebased WHAT PLAIN EPOCH: top and steps of the folder EPOCH are
# those of PLAIN, the step starts moved by one constant.
same_as_rebased() {
	test_case "$1: the same ops"
	expect_code 0 jaxprof top -n 0 --format=csv "$2"
	save top-plain
	expect_code 0 jaxprof top -n 0 --format=csv "$3"
	expect_stderr_empty
	expect_stdout_file "$tmp/top-plain"

	test_case "$1: the same steps, their starts moved by one constant"
	expect_code 0 jaxprof steps --format=csv "$2"
	save steps-plain
	expect_code 0 jaxprof steps --format=csv "$3"
	expect_stderr_empty
	save steps-epoch
	steps_split "$tmp/steps-plain"
	steps_split "$tmp/steps-epoch"
	expect_files_equal "$tmp/steps-plain.rows" "$tmp/steps-epoch.rows" \
	    "the steps differ but for their start"
	same_shift "$tmp/steps-epoch" "$tmp/steps-plain" ||
	    fail "the starts are not those of PLAIN moved by one constant"
}

gen_xplane --steps=4 --devices=2 "$tmp/plain" || fail "gen-xplane failed"
gen_xplane --steps=4 --devices=2 --epoch=$EPOCH_NS "$tmp/epoch" ||
    fail "gen-xplane --epoch failed"
same_as_rebased 'XSpace stamped with the epoch' "$tmp/plain" "$tmp/epoch"
# The earliest line is the host's: the first step starts after it.
[ "$(head -n 1 "$tmp/steps-epoch.starts" | cut -d. -f1)" -lt \
    "$(head -n 1 "$tmp/steps-plain.starts" | cut -d. -f1)" ] ||
    fail "the epoch file's first step does not start earlier than the plain one's"

# The testdata's trace JSON with EPOCH_NS / 1000 us added to every ts, by
# text (a double cannot hold 1.7e15 us to the ns).
if ! python_has re decimal; then
	note_skip "trace JSON ($PYTHON lacks re or decimal)"
	test_done
fi
R=$TESTDATA/jax-mlp/plugins/profile/2026_01_01_00_00_00
mkdir -p "$tmp/jp/run" "$tmp/je/run"
gzip -dc "$R/testhost.trace.json.gz" >"$tmp/jp/run/testhost.trace.json"
"$PYTHON" -c '
import re, sys
from decimal import Decimal
add = Decimal(sys.argv[1]) / 1000
text = sys.stdin.read()
out = re.sub(r"(\"ts\":)([-0-9.eE+]+)",
             lambda m: m.group(1) + str(Decimal(m.group(2)) + add), text)
assert out != text
sys.stdout.write(out)
' $EPOCH_NS <"$tmp/jp/run/testhost.trace.json" \
    >"$tmp/je/run/testhost.trace.json" || fail "cannot write the epoch trace"

same_as_rebased 'trace JSON, ts since the epoch' "$tmp/jp/run" "$tmp/je/run"
test_done
