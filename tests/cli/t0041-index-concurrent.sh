#!/bin/sh
# Several jaxprof processes on one index, and one killed mid-way: the index
# stays whole and gives the same answers as a single clean run.
. "$(dirname "$0")/lib.sh"

DB=$tmp/shared.sqlite

test_case 'generate a ~20 MB profile'
expect_code 0 gen_xplane --seed=5 --devices=4 --steps=20 --ops=50 --repeat=220 \
    "$tmp/big"
[ "$(wc -c <"$tmp/big/plugins/profile/2026_01_01_00_00_00/host0.xplane.pb")" \
    -gt 15000000 ] || fail "the generated profile is smaller than 15 MB"

test_case 'the answer of one clean process'
expect_code 0 jaxprof top -n 0 --format=csv --db="$tmp/clean.sqlite" "$tmp/big"
expect_stderr_empty
save clean-top
expect_code 0 jaxprof list --format=csv --db="$tmp/clean.sqlite" "$tmp/big"
expect_stderr_empty
save clean-list

test_case '4 concurrent index processes on a fresh index all exit 0'
pids=
for i in 1 2 3 4; do
	"$JAXPROF" index --db="$DB" "$tmp/big" >"$tmp/index$i.out" \
	    2>"$tmp/index$i.err" &
	pids="$pids $!"
done
i=0
for p in $pids; do
	i=$((i + 1))
	if wait "$p"; then
		:
	else
		rc=$?
		cp "$tmp/index$i.err" "$err"
		fail "concurrent index process $i exited with $rc"
	fi
	[ ! -s "$tmp/index$i.err" ] || { cp "$tmp/index$i.err" "$err"; fail "concurrent index process $i wrote to stderr"; }
	printf '%s: 1 profile files, 0 other files\n' "$DB" >"$tmp/want"
	expect_files_equal "$tmp/want" "$tmp/index$i.out" "index process $i output"
done

test_case 'after them, one row per file, and the same top as a clean run'
expect_code 0 jaxprof sql --db="$DB" --format=csv \
    'SELECT count(*) AS files, (SELECT count(*) FROM planes) AS planes FROM files' "$tmp/big"
expect_stderr_empty
printf 'files,planes\n1,5\n' >"$tmp/want"
expect_stdout_file "$tmp/want"
expect_code 0 jaxprof top -n 0 --format=csv --db="$DB" "$tmp/big"
expect_stderr_empty
expect_stdout_file "$tmp/clean-top"

test_case '40 rounds of 6 concurrent index processes creating a fresh index'
# Opening races (the switch of a new index to WAL) show in a few rounds.
expect_code 0 gen_xplane --seed=2 --devices=1 --steps=2 --ops=3 "$tmp/small"
round=0
while [ "$round" -lt 40 ]; do
	round=$((round + 1))
	db=$tmp/round.sqlite
	rm -f "$db" "$db-journal" "$db-wal" "$db-shm"
	pids=
	for i in 1 2 3 4 5 6; do
		"$JAXPROF" index --db="$db" "$tmp/small" >/dev/null \
		    2>"$tmp/round$i.err" &
		pids="$pids $!"
	done
	i=0
	for p in $pids; do
		i=$((i + 1))
		if wait "$p"; then
			:
		else
			rc=$?
			cp "$tmp/round$i.err" "$err"
			fail "round $round: index process $i exited with $rc"
		fi
	done
done

test_case '4 concurrent top processes on a fresh index give the same answer'
rm -f "$DB" "$DB-journal" "$DB-wal" "$DB-shm"
pids=
for i in 1 2 3 4; do
	"$JAXPROF" top -n 0 --format=csv --db="$DB" "$tmp/big" \
	    >"$tmp/top$i.out" 2>"$tmp/top$i.err" &
	pids="$pids $!"
done
i=0
for p in $pids; do
	i=$((i + 1))
	wait "$p" || fail "concurrent top process $i failed"
	[ ! -s "$tmp/top$i.err" ] || { cp "$tmp/top$i.err" "$err"; fail "concurrent top process $i wrote to stderr"; }
	expect_files_equal "$tmp/clean-top" "$tmp/top$i.out" "concurrent top $i"
done

# A profile of several files that takes a while to index.
test_case 'generate 4 hosts, ~9 MB each'
expect_code 0 gen_xplane --seed=9 --hosts=4 --devices=4 --steps=20 --ops=50 \
    --repeat=100 "$tmp/many"
expect_code 0 jaxprof top -n 0 --format=csv --db="$tmp/clean-many.sqlite" "$tmp/many"
expect_stderr_empty
save clean-many

# Kills an index of $tmp/many after $1 s; 0 if it was killed, 1 if it had
# already finished.
kill_index_after() {
	rm -f "$DB" "$DB-journal" "$DB-wal" "$DB-shm"
	"$JAXPROF" index --db="$DB" "$tmp/many" >/dev/null 2>&1 &
	pid=$!
	sleep "$1"
	kill -9 "$pid" 2>/dev/null || :
	if wait "$pid"; then
		return 1
	else
		rc=$?
	fi
	[ "$rc" -eq 137 ] || fail "jaxprof index exited with $rc, not killed"
}

test_case 'kill -9 an index mid-way'
killed=
for delay in 0.2 0.1 0.05 0.02 0.01; do
	if kill_index_after "$delay"; then
		killed=$delay
		break
	fi
done
[ -n "$killed" ] || fail "jaxprof index always finished before kill -9"
echo "killed after $killed s"

test_case 'after the kill: the index passes PRAGMA integrity_check'
# Asked about another path, so that nothing of $tmp/many is refreshed.
expect_code 0 jaxprof sql --db="$DB" --format=csv 'PRAGMA integrity_check' \
    "$TESTDATA/jax-mlp/plugins/profile/2026_01_01_00_00_01/testhost.xplane.pb"
expect_stderr_empty
printf 'integrity_check\nok\n' >"$tmp/want"
expect_stdout_file "$tmp/want"

test_case 'after the kill: no half-written file'
expect_code 0 jaxprof sql --db="$DB" --format=csv \
    "SELECT count(*) AS n FROM files f WHERE path LIKE '%/many/%' AND (events IS NULL OR (SELECT count(*) FROM planes p WHERE p.file_id = f.id) != 5)" \
    "$TESTDATA/jax-mlp/plugins/profile/2026_01_01_00_00_01/testhost.xplane.pb"
expect_stderr_empty
printf 'n\n0\n' >"$tmp/want"
expect_stdout_file "$tmp/want"
expect_code 0 jaxprof sql --db="$DB" --format=csv \
    "SELECT count(*) AS n FROM files WHERE path LIKE '%/many/%'" \
    "$TESTDATA/jax-mlp/plugins/profile/2026_01_01_00_00_01/testhost.xplane.pb"
echo "files indexed before the kill: $(tail -n 1 "$out") of 4"

test_case 'after the kill: top gives the answer of a clean run'
expect_code 0 jaxprof top -n 0 --format=csv --db="$DB" "$tmp/many"
expect_stderr_empty
expect_stdout_file "$tmp/clean-many"

test_case 'after the kill: PRAGMA integrity_check once more'
expect_code 0 jaxprof sql --db="$DB" --format=csv 'PRAGMA integrity_check' "$tmp/many"
expect_stderr_empty
printf 'integrity_check\nok\n' >"$tmp/want"
expect_stdout_file "$tmp/want"

test_done
