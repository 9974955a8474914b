#!/bin/sh
# A damaged index is never an empty answer: with a table's root page
# zeroed, every report that reads the table exits 2 naming the index
# (never an empty table and exit 0), and the default cache is set aside
# so that the next command builds it again and answers as before.
. "$(dirname "$0")/lib.sh"

# A GPU profile (kernels, memory) where the corpus is, else the testdata's
# newest run alone (summary and steps note the other run of the folder on
# stderr, which the cases below want empty but for the error).
T=$CORPUS/h200/cmdbuf-warm
CPU=$TESTDATA/jax-mlp/plugins/profile/2026_01_01_00_00_01
[ -d "$T" ] || T=$CPU
python_has sqlite3 || skip "no Python sqlite3 module ($(install_hint sqlite3))"

# zero_root DB TABLE: zeroes the page at the root of TABLE's B-tree.
zero_root() {
	"$PYTHON" - "$1" "$2" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
size = db.execute("PRAGMA page_size").fetchone()[0]
root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = ?",
    (sys.argv[2],)).fetchone()[0]
db.close()
with open(sys.argv[1], "r+b") as f:
    f.seek((root - 1) * size)
    f.write(b"\0" * size)
PY
}

GOOD=$tmp/good.sqlite
REPORTS='top summary steps compile transfers idle memory list'
test_case 'each report on an intact index'
for cmd in $REPORTS; do
	expect_code 0 jaxprof "$cmd" --db="$GOOD" "$T"
	save "good-$cmd"
done
for g in op category module kernel framework-op source scope; do
	expect_code 0 jaxprof top --group="$g" --db="$GOOD" "$T"
	save "good-top-$g"
done

# Every report answers exactly as before (it does not read the table),
# or exits 2 naming the damaged index; none prints a partial answer.
for table in ops host_events steps memory_allocators files; do
	test_case "the root page of '$table' zeroed"
	cp "$GOOD" "$tmp/bad.sqlite"
	zero_root "$tmp/bad.sqlite" "$table"
	failed=0
	for cmd in $REPORTS; do
		if jaxprof "$cmd" --db="$tmp/bad.sqlite" "$T" >"$out" 2>"$err"
		then
			expect_files_equal "$tmp/good-$cmd" "$out" \
			    "$cmd answered differently with '$table' damaged"
			continue
		else
			rc=$?
		fi
		last_cmd="$cmd with '$table' damaged"
		[ "$rc" -eq 2 ] || fail "$last_cmd exited with $rc, expected 2"
		expect_stdout_empty
		expect_stderr_line "^jaxprof: $cmd: index '.*bad.sqlite': .*malformed.*damaged index"
		failed=$((failed + 1))
	done
	[ "$failed" -gt 0 ] || fail "no report read '$table'"
done

test_case 'top refuses a damaged ops table whatever the --group'
cp "$GOOD" "$tmp/bad.sqlite"
zero_root "$tmp/bad.sqlite" ops
for g in op category module framework-op source; do
	expect_code 2 jaxprof top --group="$g" --db="$tmp/bad.sqlite" "$T"
	expect_stdout_empty
	expect_stderr_match "index '.*bad.sqlite': database disk image is malformed"
done

# The testdata (CPU) has no kernels: only the GPU profile reads them.
if [ "$T" != "$CPU" ]; then
	test_case 'top --group=kernel refuses a damaged kernels table'
	cp "$GOOD" "$tmp/bad.sqlite"
	zero_root "$tmp/bad.sqlite" kernels
	expect_code 2 jaxprof top --group=kernel --db="$tmp/bad.sqlite" "$T"
	expect_stdout_empty
	expect_stderr_match "index '.*bad.sqlite': database disk image is malformed"
fi

test_case 'the default cache is set aside, then built again'
unset JAXPROF_DB
for pair in top:ops summary:host_events memory:memory_allocators; do
	cmd=${pair%:*}
	expect_code 0 jaxprof "$cmd" "$T"
	cache=$(ls "$XDG_CACHE_HOME"/jaxprof/*.sqlite)
	[ -f "$cache" ] || fail "no default cache under $XDG_CACHE_HOME/jaxprof"
	zero_root "$cache" "${pair#*:}"
	expect_code 2 jaxprof "$cmd" "$T"
	expect_stdout_empty
	expect_stderr_match "index '$cache': .*malformed; set aside as '$cache.damaged': the next command builds the index again"
	[ -f "$cache.damaged" ] || fail "'$cache.damaged' is missing"
	expect_code 0 jaxprof "$cmd" "$T"
	expect_files_equal "$tmp/good-$cmd" "$out" \
	    "$cmd on the rebuilt cache answered differently"
	rm -f "$cache.damaged"*
done

test_done
