#!/bin/sh
# Reports remembered in the index: the same command line on the same
# files answers from the index with the same stdout, stderr and status;
# any stored or forgotten file makes every report compute afresh.
. "$(dirname "$0")/lib.sh"

T=$TESTDATA/jax-mlp
IX=$tmp/idx.sqlite

remembered() {
	"$JAXPROF" sql --db="$IX" --format=csv \
	    'SELECT count(*) FROM report_cache' "$1" | tail -n 1
}

# same_as_fresh CMD...: a second run prints what a fresh index prints.
same_as_fresh() {
	expect_code 0 jaxprof "$@" --db="$tmp/fresh.sqlite"
	save fresh-out
	cp "$err" "$tmp/fresh-err"
	rm -f "$tmp/fresh.sqlite"*
	expect_code 0 jaxprof "$@" --db="$IX"
	expect_code 0 jaxprof "$@" --db="$IX"
	expect_stdout_file "$tmp/fresh-out"
	expect_files_equal "$tmp/fresh-err" "$err" "stderr of '$*' changed"
}

test_case 'each report, run twice, prints what a fresh index prints'
for cmd in "list" "top -n 5" "top --group=category --format=json" \
    "steps" "steps --summary --format=markdown" "steps --skew" \
    "compile --phases" "transfers" "idle"; do
	# shellcheck disable=SC2086
	same_as_fresh $cmd "$T"
done
n=$(remembered "$T")
[ "$n" -eq 9 ] || fail "$n reports remembered, expected 9"

test_case 'warnings are replayed on stderr'
expect_code 0 jaxprof steps --skew --db="$IX" "$T"
expect_stderr_match '^jaxprof: steps: --skew compares the hosts'

test_case 'the remembered answer is used (not computed again)'
# Plant another answer (jaxprof sql cannot write): a hit prints it.
command -v python3 >/dev/null 2>&1 || skip "no python3 to plant an answer"
# plant_answer STDOUT: every remembered answer becomes STDOUT (8 bytes),
# zstd-compressed by hand: one frame of one raw block (RFC 8878).
plant_answer() {
	python3 -c 'import sqlite3, sys
data = sys.argv[2].encode() + b"\n"
frame = bytes([0x28, 0xb5, 0x2f, 0xfd, 0x20, len(data),
               1 | len(data) << 3, 0, 0]) + data
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE report_cache SET stdout = ?, stdout_size = ?",
           (frame, len(data)))
db.commit()' "$IX" "$1" || fail "cannot plant an answer"
}
plant_answer planted
expect_code 0 jaxprof idle --db="$IX" "$T"
[ "$(cat "$out")" = planted ] || fail "idle did not print the remembered answer"

test_case 'another folder, option order or file set is another report'
expect_code 0 jaxprof top -n 4 --db="$IX" "$T"
grep -q planted "$out" && fail "top -n 4 answered from top -n 5"
R0=$T/plugins/profile/2026_01_01_00_00_00
expect_code 0 jaxprof idle --db="$IX" "$R0"
grep -q planted "$out" && fail "one run's idle answered from both runs'"
(cd "$T/plugins" && "$JAXPROF" idle --db="$IX" profile) >"$out" ||
    fail "idle from another folder failed"
grep -q planted "$out" && fail "a relative path answered from another folder"

test_case 'an answer that does not decompress is computed again'
python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE report_cache SET stdout = ?", (b"not zstd",))
db.commit()' "$IX" || fail "cannot plant a broken answer"
expect_code 0 jaxprof idle --db="$IX" "$T"
expect_stderr_empty
expect_stdout_match '^Device idle gaps of '

test_case 'an answer kept by an older jaxprof (zlib) is computed again'
python3 -c 'import sqlite3, sys, zlib
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE report_cache SET stdout = ?, stdout_size = 8",
           (zlib.compress(b"planted\n"),))
db.commit()' "$IX" || fail "cannot plant a zlib answer"
expect_code 0 jaxprof idle --db="$IX" "$T"
expect_stderr_empty
expect_stdout_match '^Device idle gaps of '

test_case 'answers are kept compressed: a long table takes less room'
expect_code 0 jaxprof steps --format=csv --db="$IX" "$T"
kept=$("$JAXPROF" sql --db="$IX" --format=csv "SELECT length(stdout), \
    stdout_size FROM report_cache ORDER BY rowid DESC LIMIT 1" "$T" |
    tail -n 1)
[ "${kept#*,}" -eq "$(wc -c <"$out")" ] ||
    fail "stdout_size $kept is not the $(wc -c <"$out") bytes printed"
[ "${kept%,*}" -lt "$(($(wc -c <"$out") / 2))" ] ||
    fail "the answer is not kept compressed ($kept)"

test_case 'a changed file forgets every remembered report'
mkdir -p "$tmp/logdir"
cp -R "$T/plugins" "$tmp/logdir/"
expect_code 0 jaxprof top -n 3 --db="$IX" "$tmp/logdir"
[ "$(remembered "$T")" -gt 0 ] || fail "nothing remembered"
# The second run's profile in place of the first run's: new content.
cp "$T/plugins/profile/2026_01_01_00_00_01/testhost.xplane.pb" \
    "$tmp/logdir/plugins/profile/2026_01_01_00_00_00/testhost.xplane.pb"
expect_code 0 jaxprof top -n 3 --db="$tmp/fresh.sqlite" "$tmp/logdir"
save fresh
expect_code 0 jaxprof top -n 3 --db="$IX" "$tmp/logdir"
expect_stdout_file "$tmp/fresh"
n=$(remembered "$T")
[ "$n" -eq 1 ] || fail "$n reports remembered after a change, expected 1"

test_case 'an answer that could not be written is not remembered'
rm -f "$IX"*
if [ -w /dev/full ]; then
	expect_code 2 sh -c '"$0" list --db="$1" "$2" >/dev/full' \
	    "$JAXPROF" "$IX" "$T"
	expect_stderr_match 'cannot write standard output'
	n=$(remembered "$T")
	[ "$n" -eq 0 ] || fail "a failed list was remembered"
else
	note_skip "the /dev/full case: no /dev/full"
fi

test_done
