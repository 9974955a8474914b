# Sourced by every CLI test (tests/cli/tNNNN-<cmd>-<what>.sh); STYLE.md 9.
#
#	. "$(dirname "$0")/lib.sh"
#	test_case 'csv of the testdata'
#	expect_code 0 jaxprof list --format=csv "$TESTDATA/jax-mlp"
#	compare_golden csv		# stdout vs expect/<test>-csv.out
#	expect_stderr_empty
#	...
#	test_done
#
# Each case checks, separately, the exit status, stdout and stderr.  The
# first wrong check fails the script, naming the test and the case.
# JAXPROF_UPDATE_GOLDEN=1 rewrites the expect/ files instead of comparing;
# review the diff.  Exit status: 0 pass, 1 fail, 77 skip (automake).
#
# Environment (set by make check, see tests/Makefile.inc): JAXPROF,
# GEN_XPLANE, TESTDATA, SRCDIR, CORPUS, PYTHON.

set -eu
LC_ALL=C
TZ=UTC
export LC_ALL TZ
unset LANGUAGE 2>/dev/null || :

TEST_NAME=$(basename "$0" .sh)
CLI_DIR=$(cd "$(dirname "$0")" && pwd)
SRCDIR=${SRCDIR:-$(cd "$CLI_DIR/../.." && pwd)}
TESTDATA=${TESTDATA:-$SRCDIR/testdata}
CORPUS=${CORPUS:-$SRCDIR/../shared/corpus}
# jaxprof names files by their real path: so do the expected messages
# (out-of-tree builds pass paths like build/../testdata).
SRCDIR=$(cd "$SRCDIR" && pwd -P)
TESTDATA=$(cd "$TESTDATA" && pwd -P)
[ ! -d "$CORPUS" ] || CORPUS=$(cd "$CORPUS" && pwd -P)
PYTHON=${PYTHON:-python3}
EXPECT_DIR=$CLI_DIR/expect
export SRCDIR TESTDATA CORPUS PYTHON

if [ -z "${JAXPROF:-}" ] || [ ! -x "$JAXPROF" ]; then
	echo "$TEST_NAME: JAXPROF is not set to the jaxprof binary;" \
	    "run it through 'make check'" >&2
	exit 99
fi

# The work dir; everything a test writes goes there, the index included,
# so no test ever touches ~/.cache.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jaxprof-$TEST_NAME.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' HUP INT TERM
JAXPROF_DB=$tmp/index.sqlite
XDG_CACHE_HOME=$tmp/cache
export JAXPROF_DB XDG_CACHE_HOME

out=$tmp/stdout		# what the last expect_code captured
err=$tmp/stderr
: >"$out"
: >"$err"
case_name='(setup)'
ncases=0

jaxprof() {
	"$JAXPROF" "$@"
}

gen_xplane() {
	"$GEN_XPLANE" "$@"
}

# Starts a case: every message until the next one names it.
test_case() {
	case_name=$1
	ncases=$((ncases + 1))
	echo "case $ncases: $case_name"
}

# Fails the script, naming the case, with the captured output.
fail() {
	{
		echo "FAIL: $TEST_NAME: case '$case_name': $*"
		if [ -s "$err" ]; then
			echo "--- stderr of the last command:"
			head -n 20 "$err"
		fi
		if [ -s "$out" ]; then
			echo "--- stdout of the last command (first 20 lines):"
			head -n 20 "$out"
		fi
	} >&2
	exit 1
}

# Ends the test successfully.
test_done() {
	echo "$TEST_NAME: all $ncases cases passed"
	exit 0
}

# Skips the whole test (or what is left of it), saying why.
skip() {
	echo "SKIP: $TEST_NAME: $*"
	exit 77
}

# A part of a test that cannot run here: said in the log, not a failure.
note_skip() {
	echo "note: $TEST_NAME: skipping $*"
}

# expect_code N cmd...: runs cmd with stdout in $out and stderr in $err;
# fails unless it exits with N.
expect_code() {
	want=$1
	shift
	last_cmd=$*
	if "$@" >"$out" 2>"$err"; then
		got=0
	else
		got=$?
	fi
	[ "$got" -eq "$want" ] ||
	    fail "'$last_cmd' exited with $got, expected $want"
}

# expect_stdout_file FILE: stdout is exactly FILE.
expect_stdout_file() {
	diff -u "$1" "$out" >"$tmp/diff" ||
	    { cat "$tmp/diff" >&2; fail "stdout of '$last_cmd' differs from $1"; }
}

# compare_golden NAME: stdout is exactly expect/<test>-NAME.out.
# With JAXPROF_UPDATE_GOLDEN=1 the file is (re)written instead.
compare_golden() {
	golden=$EXPECT_DIR/$TEST_NAME-$1.out
	if [ "${JAXPROF_UPDATE_GOLDEN:-0}" = 1 ]; then
		cp "$out" "$golden"
		echo "updated $golden"
		return 0
	fi
	[ -f "$golden" ] ||
	    fail "no golden file $golden (make it with JAXPROF_UPDATE_GOLDEN=1)"
	diff -u "$golden" "$out" >"$tmp/diff" ||
	    { cat "$tmp/diff" >&2; fail "stdout of '$last_cmd' differs from $golden"; }
}

# filter_stdout cmd...: replaces $out by cmd < $out (to normalise it).
filter_stdout() {
	"$@" <"$out" >"$tmp/filtered" || fail "filter '$*' failed"
	mv "$tmp/filtered" "$out"
}

expect_stdout_empty() {
	[ ! -s "$out" ] || fail "stdout of '$last_cmd' is not empty"
}

expect_stderr_empty() {
	[ ! -s "$err" ] || fail "stderr of '$last_cmd' is not empty"
}

# expect_stdout_match ERE: some line of stdout matches.
expect_stdout_match() {
	grep -Eq -e "$1" "$out" ||
	    fail "no line of stdout of '$last_cmd' matches /$1/"
}

# expect_stderr_match ERE: some line of stderr matches.
expect_stderr_match() {
	grep -Eq -e "$1" "$err" ||
	    fail "no line of stderr of '$last_cmd' matches /$1/"
}

# expect_stderr_line ERE: stderr is exactly one line, matching ERE.
expect_stderr_line() {
	n=$(wc -l <"$err")
	[ "$n" -eq 1 ] ||
	    fail "stderr of '$last_cmd' has $n lines, expected 1"
	grep -Eq -e "$1" "$err" ||
	    fail "stderr of '$last_cmd' does not match /$1/"
}

# expect_stderr_is TEXT: stderr is exactly the line TEXT.
expect_stderr_is() {
	printf '%s\n' "$1" >"$tmp/want-stderr"
	diff -u "$tmp/want-stderr" "$err" >"$tmp/diff" ||
	    { cat "$tmp/diff" >&2; fail "stderr of '$last_cmd' is not '$1'"; }
}

# expect_files_equal WANT GOT [what]: two files have the same bytes.
expect_files_equal() {
	diff -u "$1" "$2" >"$tmp/diff" ||
	    { cat "$tmp/diff" >&2; fail "${3:-$2 differs from $1}"; }
}

# save NAME: keeps a copy of the last stdout as $tmp/NAME.
save() {
	cp "$out" "$tmp/$1"
}

# Whether $PYTHON runs and can import all the modules named.
# What to install for a Python module a test needs (a skip message's hint).
install_hint() {
	case $1 in
	google.protobuf) echo "install it: apt-get install python3-protobuf, or" \
	    "pip install protobuf in a venv and run make check" \
	    "PYTHON=/path/to/venv/bin/python" ;;
	jax) echo "install it: python3 -m venv venv && venv/bin/pip install" \
	    "jax jaxlib protobuf, then make check PYTHON=\$PWD/venv/bin/python" \
	    "(.ci/run does this)" ;;
	protoc) echo "install it: apt-get install protobuf-compiler" ;;
	*) echo "install the Python module $1 for '$PYTHON'" ;;
	esac
}

python_has() {
	for m in "$@"; do
		"$PYTHON" -c "import $m" >/dev/null 2>&1 || return 1
	done
}

# need_protobuf: skips unless $PYTHON can read protobuf messages and a
# protoc makes their modules (bench/top_reference.py's load_xplane_pb2).
need_protobuf() {
	python_has google.protobuf ||
	    skip "'$PYTHON' cannot import google.protobuf; $(install_hint google.protobuf)"
	command -v protoc >/dev/null 2>&1 || python_has grpc_tools.protoc ||
	    skip "neither protoc nor grpc_tools.protoc is installed; $(install_hint protoc)"
}

# expect_same_ops WANT GOT: two `top -n 0 --format=csv` outputs list the
# same ops (by name, rows of one name added up) with the same count, and
# total_us and self_us within 0.001 * count of each other: what rounding
# times to whole ns (trace JSON) may change.  Names must hold no comma.
expect_same_ops() {
	awk -F, '
	FNR == 1 {
		if ($2 != "name" || $5 != "count" || $6 != "total_us" ||
		    $7 != "self_us") { print FILENAME ": not top csv"; bad = 1 }
		f++
		next
	}
	NF != 21 { print FILENAME ":" FNR ": " NF " fields"; bad = 1; next }
	f == 1 { c[$2] += $5; t[$2] += $6; s[$2] += $7; n++; next }
	{ c2[$2] += $5; t2[$2] += $6; s2[$2] += $7 }
	function off(a, b, n) { return (a > b ? a - b : b - a) > 0.001 * n + 1e-6 }
	END {
		for (k in c) {
			if (!(k in c2)) { print "missing: " k; bad = 1; continue }
			if (c[k] != c2[k]) { print k ": count " c[k] " vs " c2[k]; bad = 1 }
			if (off(t[k], t2[k], c[k])) { print k ": total_us " t[k] " vs " t2[k]; bad = 1 }
			if (off(s[k], s2[k], c[k])) { print k ": self_us " s[k] " vs " s2[k]; bad = 1 }
		}
		for (k in c2)
			if (!(k in c)) { print "extra: " k; bad = 1 }
		if (n == 0) { print "no ops at all"; bad = 1 }
		exit bad
	}' "$1" "$2" >"$tmp/ops-diff" 2>&1 ||
	    { head -n 20 "$tmp/ops-diff" >&2; fail "the ops of $2 are not those of $1"; }
}

# ---- top against the answers of tests/gen-xplane (OUTDIR/expected/*.csv) ----

# The columns compared, from `jaxprof top --format=csv`:
# name,module,category,count,total_us,self_us,min_us,max_us,gflops_per_s,gbps
project_top() {
	awk -F, 'NR > 1 { print $2 "," $3 "," $4 "," $5 "," $6 "," $7 "," \
	    $9 "," $10 "," $13 "," $14 }' "$out"
}

# The same from expected rows name,module,category,count,total_ps,self_ps,
# min_ps,max_ps,flops,bytes_accessed (no header): times in us with 3
# decimals and rates as jaxprof computes them (amount / ps * 1e3), printed
# with the same printf of the same doubles.
ps_to_us() {
	awk -F, '{
		r1 = $9 > 0 && $5 > 0 ? sprintf("%.3f", $9 / $5 * 1e3) : ""
		r2 = $10 > 0 && $5 > 0 ? sprintf("%.3f", $10 / $5 * 1e3) : ""
		printf "%s,%s,%s,%d,%.3f,%.3f,%.3f,%.3f,%s,%s\n", $1, $2, $3,
		    $4, $5 / 1e6, $6 / 1e6, $7 / 1e6, $8 / 1e6, r1, r2
	}'
}

# Sums top-by-device.csv rows (host,device,name,...) kept by the awk
# condition $1 into one row per (name, module), ordered as top orders them.
sum_by_device() {
	awk -F, "NR > 1 && ($1)"' {
		k = $3 "," $4
		if (!(k in cnt)) {
			cat[k] = $5; mn[k] = $9; mx[k] = $10; keys[++n] = k
		}
		cnt[k] += $6; tot[k] += $7; slf[k] += $8
		if ($9 < mn[k]) mn[k] = $9
		if ($10 > mx[k]) mx[k] = $10
		fl[k] += $11; by[k] += $12
	} END {
		for (i = 1; i <= n; i++) {
			k = keys[i]
			printf "%s,%s,%d,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f\n", k,
			    cat[k], cnt[k], tot[k], slf[k], mn[k], mx[k],
			    fl[k], by[k]
		}
	}' "$2" | sort -t, -k5,5nr -k1,1 -k2,2
}
