#!/bin/sh
# The committed profiles record no one's disk layout: every source file
# name in them (the HLO's stack frames) is relative to the repository,
# "testdata/make-profiles.py", as make-profiles.py makes it; and what
# jaxprof shows of them (top's source column) is relative too.
. "$(dirname "$0")/lib.sh"

T=$TESTDATA/jax-mlp

# The text of every file, gzip'd JSON uncompressed.
contents() {
	for f in "$T"/plugins/profile/*/*; do
		case $f in
		*.gz) gzip -dc "$f" ;;
		*) cat "$f" ;;
		esac
	done
}

test_case 'the profiles name testdata/make-profiles.py, relative'
contents | tr -c '[:print:]' '\n' | grep -o '[^ "$%&]*make-profiles\.py' |
    sort | uniq -c >"$out"
grep -q ' testdata/make-profiles\.py$' "$out" ||
    fail "no source file name testdata/make-profiles.py in the profiles"
! grep -v ' testdata/make-profiles\.py$' "$out" >/dev/null ||
    fail "other names for the script: $(grep -v ' testdata/make-profiles\.py$' "$out")"

test_case 'no absolute path of a home, build or checkout folder'
contents | tr -c '[:print:]' '\n' |
    grep -E '(/home/|/root/|/work/|/tmp/|/Users/|site-packages)' >"$out" || :
expect_stdout_empty

test_case "top's source column shows the relative name"
expect_code 0 jaxprof top -n 0 --format=csv "$T"
expect_stderr_empty
grep -Eq ',testdata/make-profiles\.py:[0-9]*(,|$)' "$out" ||
    fail "no op with source testdata/make-profiles.py:LINE"
! grep -Eq ',/[^,]*make-profiles\.py:[0-9]*(,|$)' "$out" ||
    fail "an absolute source path in top"

test_done
