#!/bin/sh
# An index killed part way keeps what it committed: the next run reads
# only the files it had not stored (their rows keep their ids), and the
# result is the index a run that was never interrupted builds.
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null 2>&1 || skip "no python3 to watch the index"
gen_xplane --hosts=120 --devices=2 --steps=10 --ops=100 --repeat=8 \
    "$tmp/logdir" >/dev/null || fail "gen-xplane failed"
IX=$tmp/idx.sqlite

# files_stored DB: "id path" of each file the index holds, sorted.
files_stored() {
	python3 -c 'import sqlite3, sys
db = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
try:
    rows = db.execute("SELECT id, path FROM files ORDER BY path").fetchall()
except sqlite3.OperationalError:
    rows = []
for r in rows:
    print(r[0], r[1])' "$1" | LC_ALL=C sort
}

# kill_after_files PID DB N: lets stopped process PID run 2 ms at a time
# and kills it (-9) once DB holds N files.  It runs only while it is
# watched, so a loaded machine cannot let it finish unseen.
kill_after_files() {
	python3 -c 'import os, signal, sqlite3, sys, time
pid, n = int(sys.argv[1]), int(sys.argv[3])
end = time.time() + 60
while time.time() < end:
    try:
        os.kill(pid, signal.SIGCONT)
        time.sleep(0.002)
        os.kill(pid, signal.SIGSTOP)
    except ProcessLookupError:
        break
    try:
        db = sqlite3.connect("file:" + sys.argv[2] + "?mode=ro", uri=True)
        stored = db.execute("SELECT count(*) FROM files").fetchone()[0]
        db.close()
    except sqlite3.OperationalError:
        continue
    if stored >= n:
        break
try:
    os.kill(pid, signal.SIGKILL)
except ProcessLookupError:
    pass' "$1" "$2" "$3"
}

test_case 'kill -9 while indexing, once some files are committed'
# Stopped before it starts: the watcher lets it run.
sh -c 'kill -STOP $$; exec "$@"' sh "$JAXPROF" index --db="$IX" \
    "$tmp/logdir" >/dev/null 2>&1 &
pid=$!
kill_after_files "$pid" "$IX" 10
wait "$pid" 2>/dev/null || :
files_stored "$IX" >"$tmp/before"
n=$(wc -l <"$tmp/before")
echo "killed with $n of 120 files stored"
[ "$n" -ge 10 ] || fail "only $n files committed before the kill"
[ "$n" -lt 120 ] ||
    skip "indexing finished before it could be killed (a fast machine)"

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
