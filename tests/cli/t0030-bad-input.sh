#!/bin/sh
# Unreadable profiles: top exits 2 with one message naming the file and the
# reason, prints nothing, and leaves nothing of the file in the index.
. "$(dirname "$0")/lib.sh"

SRC=$TESTDATA/jax-mlp/plugins/profile/2026_01_01_00_00_00/testhost.xplane.pb
GOOD=$TESTDATA/jax-mlp/plugins/profile/2026_01_01_00_00_01/testhost.xplane.pb
size=$(wc -c <"$SRC" | tr -d ' ')
[ "$size" -gt 1000 ] || fail "$SRC is too small"

mkdir "$tmp/bad" "$tmp/good"
cp "$GOOD" "$tmp/good/testhost.xplane.pb"
X=$tmp/bad/x.xplane.pb
# msg_re CMD: the one message CMD may print about the bad file.
msg_re() {
	echo "^jaxprof: $1: cannot read '$tmp/bad/x\.xplane\.pb(\.gz)?': (at byte [0-9]+: .*|empty file|truncated gzip data at byte [0-9]+)\$"
}

# bad NAME: the case for whatever is now in $tmp/bad.
bad() {
	test_case "$1: top exits 2, one message, no output"
	expect_code 2 jaxprof top "$tmp/bad"
	expect_stdout_empty
	expect_stderr_line "$(msg_re top)"

	# Named on the command line, a file is read by what it holds: trace
	# JSON named .xplane.pb is read as the JSON it is (t0425).
	if [ "${2:-}" != in-folder-only ]; then
		test_case "$1: the file alone, named on the command line"
		expect_code 2 jaxprof top --format=csv "$tmp"/bad/x.*
		expect_stdout_empty
		expect_stderr_line "$(msg_re top)"
	fi

	test_case "$1: next to a good file, the good one is shown, exit 0"
	expect_code 0 jaxprof top -n 0 --format=csv "$tmp/good" "$tmp/bad"
	expect_stderr_match "$(msg_re top)"
	expect_stderr_match '^jaxprof: top: 1 damaged file skipped \(named on standard error\); the report covers the files that could be read\.$'
	[ "$(wc -l <"$err")" -eq 2 ] || fail "more than the file and the count on stderr"
	expect_stdout_file "$tmp/good-top"

	test_case "$1: the index holds no row of the bad file"
	expect_code 2 jaxprof sql --format=csv \
	    "SELECT count(*) AS n, sum(path LIKE '%/bad/%') AS bad, sum(events IS NOT NULL) AS read FROM files" \
	    "$tmp/good" "$tmp/bad"
	expect_stderr_line "$(msg_re sql)"
	printf 'n,bad,read\n1,0,1\n' >"$tmp/want"
	expect_stdout_file "$tmp/want"
	for t in planes ops steps compiles transfers modules kernels; do
		expect_code 0 jaxprof sql --format=csv \
		    "SELECT count(*) AS n FROM $t WHERE file_id NOT IN (SELECT id FROM files)" \
		    "$tmp/good"
		printf 'n\n0\n' >"$tmp/want"
		expect_stdout_file "$tmp/want"
		expect_stderr_empty
	done
	rm -f "$tmp"/bad/*
}

test_case 'the good file alone'
expect_code 0 jaxprof top -n 0 --format=csv "$tmp/good"
expect_stderr_empty
save good-top
[ "$(grep -c . "$out")" -gt 1 ] || fail "no ops in $GOOD"

# A truncated copy must not parse: a prefix that happens to be a whole
# XSpace would be accepted, and rightly so.  These offsets cut a field.
: >"$X"
bad 'an empty file'
for n in 1 2 100 $((size / 2)) $((size - 1)); do
	head -c "$n" "$SRC" >"$X"
	bad "the first $n of $size bytes"
done

# High-entropy bytes that are not a protobuf: the deflate stream of a
# committed gzip file (fixed, so the test is repeatable).
tail -c +11 "$TESTDATA/jax-mlp/plugins/profile/2026_01_01_00_00_00/testhost.trace.json.gz" |
    head -c 4096 >"$X"
bad 'random bytes'

printf '{"displayTimeUnit": "ns", "traceEvents": []}\n' >"$X"
test_case 'JSON text named .xplane.pb, in a folder: it says what the file looks like'
expect_code 2 jaxprof top "$tmp/bad"
expect_stderr_line "\\(its name says an XSpace, but it looks like trace JSON\\)\$"
bad 'JSON text named .xplane.pb' in-folder-only

gzip -c <"$SRC" >"$tmp/full.gz"
gz_size=$(wc -c <"$tmp/full.gz" | tr -d ' ')
head -c $((gz_size / 2)) "$tmp/full.gz" >"$X.gz"
bad 'a truncated .xplane.pb.gz'

head -c $((gz_size - 4)) "$tmp/full.gz" >"$X.gz"
bad 'a .xplane.pb.gz without its trailer'

head -c $((size / 2)) "$SRC" | gzip -c >"$X.gz"
bad 'a whole gzip of a truncated XSpace'

test_case 'a bad file that is fixed is read again'
head -c 100 "$SRC" >"$X"
expect_code 2 jaxprof top "$tmp/bad"
cp "$GOOD" "$X"
expect_code 0 jaxprof top -n 0 --format=csv "$tmp/bad"
expect_stderr_empty
expect_stdout_file "$tmp/good-top"

test_case 'a good file that goes bad loses its rows'
head -c 100 "$SRC" >"$X"
expect_code 2 jaxprof top "$tmp/bad"
expect_stdout_empty
expect_stderr_line "$(msg_re top)"
expect_code 0 jaxprof sql --format=csv \
    "SELECT count(*) AS n FROM files WHERE path LIKE '%/bad/%'" "$tmp/good"
printf 'n\n0\n' >"$tmp/want"
expect_stdout_file "$tmp/want"
expect_stderr_empty

test_done
