#!/bin/sh
# An index killed part way keeps what it committed: the next run reads
# only the files it had not stored (their rows keep their ids), and the
# result is the index a run that was never interrupted builds.
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null 2>&1 || skip "no python3 to watch the index"
gen_xplane --hosts=120 --devices=2 --steps=10 --ops=100 --repeat=8 \
    "$tmp/logdir" >/dev/null || fail "gen-xplane failed"
IX=$tmp/idx.sqlite

# files_stored DB: "id path" of each file the index holds, sorted.  Opened
# for writing, as jaxprof opens it: a killed run's rollback journal is
# played back first.
files_stored() {
	python3 -c 'import sqlite3, sys
try:
    db = sqlite3.connect("file:" + sys.argv[1] + "?mode=rw", uri=True)
    rows = db.execute("SELECT id, path FROM files ORDER BY path").fetchall()
except sqlite3.OperationalError:
    rows = []
for r in rows:
    print(r[0], r[1])' "$1" | LC_ALL=C sort
}

# run_slices PID N: lets stopped process PID run N slices of 2 ms, 10 ms
# apart, then kills it (-9).  It runs only while it is let, so a loaded
# machine makes the same progress in N slices as an idle one; the pauses
# let the wall clock, on which a batch of stores commits (250 ms), run
# six times as fast as its work, so that a fast machine, which indexes
# this logdir in well under one batch, still commits it in several.
run_slices() {
	python3 -c 'import os, signal, sys, time
pid, n = int(sys.argv[1]), int(sys.argv[2])
for _ in range(n):
    try:
        os.kill(pid, signal.SIGCONT)
        time.sleep(0.002)
        os.kill(pid, signal.SIGSTOP)
        time.sleep(0.010)
    except ProcessLookupError:
        sys.exit(0)
try:
    os.kill(pid, signal.SIGKILL)
except ProcessLookupError:
    pass' "$1" "$2"
}

# stored_after N: how many files a fresh index of the logdir had committed
# when it was killed after N slices; they are listed in $tmp/before.
stored_after() {
	rm -f "$IX" "$IX-journal" "$IX-wal" "$IX-shm"
	# Stopped before it starts: run_slices lets it run.
	sh -c 'kill -STOP $$; exec "$@"' sh "$JAXPROF" index --db="$IX" \
	    "$tmp/logdir" >/dev/null 2>&1 &
	pid=$!
	run_slices "$pid" "$1"
	wait "$pid" 2>/dev/null || :
	files_stored "$IX" >"$tmp/before"
	echo "killed after $1 slices: $(wc -l <"$tmp/before") files stored" >&2
	wc -l <"$tmp/before" | tr -d ' '
}

test_case 'kill -9 while indexing, once some files are committed'
# A commit takes many files at once: the kill point is searched for, from
# too early (nothing committed) and too late (all committed) inward.
early=0 late=16
while n=$(stored_after "$late") && [ "$n" -lt 10 ]; do
	early=$late late=$((late * 2))
	[ "$late" -le 16384 ] || fail "only $n files committed in $early slices"
done
while { [ "$n" -lt 10 ] || [ "$n" -ge 120 ]; } &&
    [ $((late - early)) -gt 1 ]; do
	mid=$(((early + late) / 2))
	n=$(stored_after "$mid")
	if [ "$n" -lt 10 ]; then
		early=$mid
	elif [ "$n" -ge 120 ]; then
		late=$mid
	fi
done
[ "$n" -ge 10 ] && [ "$n" -lt 120 ] ||
    skip "no kill left part of the files committed (one commit took them all)"

test_case 'the next run stores only the others, keeping the committed rows'
expect_code 0 jaxprof index --db="$IX" "$tmp/logdir"
expect_stdout_match '120 profile files'
files_stored "$IX" >"$tmp/after"
[ "$(wc -l <"$tmp/after")" -eq 120 ] || fail "not 120 files after resuming"
# Re-stored files would have new ids: every committed row is unchanged.
LC_ALL=C comm -23 "$tmp/before" "$tmp/after" >"$tmp/lost"
[ ! -s "$tmp/lost" ] ||
    fail "$(wc -l <"$tmp/lost") committed files were stored again"

test_case 'the resumed index answers as an uninterrupted one'
expect_code 0 jaxprof top -n 1000 --format=csv --db="$tmp/fresh.sqlite" \
    "$tmp/logdir"
save fresh
expect_code 0 jaxprof top -n 1000 --format=csv --db="$IX" "$tmp/logdir"
expect_stdout_file "$tmp/fresh"
expect_code 0 jaxprof steps --format=csv --db="$tmp/fresh.sqlite" \
    "$tmp/logdir"
save fresh-steps
expect_code 0 jaxprof steps --format=csv --db="$IX" "$tmp/logdir"
expect_stdout_file "$tmp/fresh-steps"
test_done
