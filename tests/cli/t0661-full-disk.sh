#!/bin/sh
# A full disk keeps the old file: every file jaxprof writes for the user
# (summary -o, diff -o, baseline save -o, extract and extract --to=chrome with
# --force) goes to a temporary file beside it, renamed over the old one
# only when whole; a write that fails exits 2 naming the file, and leaves
# the old file byte for byte and no temporary file behind.
. "$(dirname "$0")/lib.sh"

T=$TESTDATA/jax-mlp
# summary analyses one run: name it, so stderr holds only the error.
ONE=--run=2026_01_01_00_00_01
BASE=$TESTDATA/baselines/jax-mlp.json

# Never extract --force onto /dev/full: a jaxprof that deletes the old
# file first would delete the device (tests may run as root).
test_case 'an output written to /dev/full (cannot be replaced) fails'
expect_code 2 jaxprof summary $ONE --format=json -o /dev/full "$T"
expect_stderr_match "^jaxprof: summary: cannot write '/dev/full': No space left on device$"
expect_code 2 jaxprof baseline save -o /dev/full "$T"
expect_stderr_match "^jaxprof: baseline: cannot write '/dev/full'"

test_case 'replacing keeps the mode, and a symbolic link'
expect_code 0 jaxprof baseline save -o "$tmp/b.json" "$T"
chmod 640 "$tmp/b.json"
ln -s b.json "$tmp/link.json"
expect_code 0 jaxprof baseline save --latest -o "$tmp/link.json" "$T"
[ -L "$tmp/link.json" ] || fail "the symbolic link was replaced"
[ "$(stat -c %a "$tmp/b.json")" = 640 ] || fail "the mode of b.json changed"
jaxprof baseline save --latest "$T" >"$tmp/latest.json" 2>"$err" ||
    fail "baseline save to standard output failed"
# The same baseline, but for the second it was made in.
grep -v '"created":' "$tmp/latest.json" >"$tmp/want"
grep -v '"created":' "$tmp/b.json" >"$tmp/got"
expect_files_equal "$tmp/want" "$tmp/got" "b.json is not the --latest baseline"
[ "$(ls -A "$tmp" | grep -c jaxprof-)" -eq 0 ] || fail "a temporary file is left"

D=$tmp/full
mkdir "$D"
mount -t tmpfs -o size=4m tmpfs "$D" 2>/dev/null ||
    { note_skip "the full-disk cases: cannot mount a tmpfs (needs root)"; test_done; }
trap 'umount "$D" 2>/dev/null; rm -rf "$tmp"' EXIT

test_case 'the old outputs, written while there is room'
expect_code 0 jaxprof baseline save -o "$D/b.json" "$T"
expect_code 0 jaxprof summary $ONE --format=html -o "$D/page.html" "$T"
expect_code 0 jaxprof summary $ONE --format=json -o "$D/s.json" "$T"
expect_code 0 jaxprof diff $ONE --format=html -o "$D/diff.html" "$BASE" "$T"
expect_code 0 jaxprof extract --latest -o "$D/x" "$T"
expect_code 0 jaxprof extract --to=chrome --latest -o "$D/t.json" "$T"
expect_code 0 jaxprof extract --to=chrome --latest -o "$D/t.json.gz" "$T"
mkdir "$tmp/old"
cp -a "$D"/. "$tmp/old/"
# The disk filled up, to its last block.
dd if=/dev/zero of="$D/filler" bs=4096 2>/dev/null || :
[ "$(df -P "$D" | awk 'NR == 2 { print $4 }')" -eq 0 ] ||
    fail "the tmpfs is not full"

# expect_kept FILE: FILE is as it was, and no temporary file is left.
expect_kept() {
	cmp "$tmp/old/${1#$D/}" "$1" >/dev/null 2>&1 ||
	    fail "'$1' changed on a full disk"
	left=$(find "$D" -name '*jaxprof-*')
	[ -z "$left" ] || fail "temporary files left: $left"
}

test_case 'baseline save on a full disk'
expect_code 2 jaxprof baseline save -o "$D/b.json" "$T"
expect_stderr_match "cannot write '$D/b.json'.*No space left on device"
expect_kept "$D/b.json"

test_case 'summary -o on a full disk, html and json'
expect_code 2 jaxprof summary $ONE --format=html -o "$D/page.html" "$T"
expect_stderr_line "^jaxprof: summary: cannot write '$D/page.html': No space left on device$"
expect_kept "$D/page.html"
expect_code 2 jaxprof summary $ONE --format=json -o "$D/s.json" "$T"
expect_stderr_line "^jaxprof: summary: cannot write '$D/s.json': No space left on device$"
expect_kept "$D/s.json"

test_case 'diff -o on a full disk, the page and a table'
expect_code 2 jaxprof diff $ONE --format=html -o "$D/diff.html" "$BASE" "$T"
expect_stderr_line "^jaxprof: diff: cannot write '$D/diff.html': No space left on device$"
expect_kept "$D/diff.html"
expect_code 2 jaxprof diff $ONE --format=csv -o "$D/diff.html" "$BASE" "$T"
expect_stderr_line "^jaxprof: diff: cannot write '$D/diff.html': No space left on device$"
expect_kept "$D/diff.html"

test_case 'extract --force on a full disk'
expect_code 2 jaxprof extract --force --latest -o "$D/x" "$T"
expect_stderr_match "cannot write '$D/x/plugins/.*': No space left on device"
for f in $(cd "$tmp/old/x" && find . -type f); do
	expect_kept "$D/x/${f#./}"
done

test_case 'extract --to=chrome --force on a full disk, plain and gzip'
for f in t.json t.json.gz; do
	expect_code 2 jaxprof extract --to=chrome --force --latest \
	    -o "$D/$f" "$T"
	expect_stderr_match "cannot write '$D/$f'.*No space left on device"
	expect_kept "$D/$f"
done

test_done
