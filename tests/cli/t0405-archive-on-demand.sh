#!/bin/sh
# libarchive is loaded only when an archive is read (src/archive-api.h):
# with a broken libarchive first on the library path, a folder still
# reads, and an archive fails with a message naming the library.
. "$(dirname "$0")/lib.sh"

T=$TESTDATA/jax-mlp
[ -d "$T" ] || fail "no $T"
python_has tarfile || skip "no $PYTHON with tarfile"
config=$(dirname "$JAXPROF")/config.h
soname=$(sed -n 's/^#define LIBARCHIVE_SONAME "\(.*\)"$/\1/p' "$config" \
    2>/dev/null) || :
[ -n "$soname" ] || skip "no LIBARCHIVE_SONAME in '$config'"

"$PYTHON" - "$T" "$tmp/mlp.tar.gz" <<'PY' || fail "cannot make the archive"
import sys, tarfile
with tarfile.open(sys.argv[2], "w:gz") as t:
    t.add(sys.argv[1], arcname=".")
PY
# Not a shared object: loading it fails, as a missing library would.
mkdir "$tmp/broken"
printf 'not a library\n' >"$tmp/broken/$soname"

test_case 'top of the folder (the reference)'
expect_code 0 jaxprof top --format=csv "$T"
save top-dir

test_case 'a folder reads without loading libarchive'
LD_LIBRARY_PATH=$tmp/broken
export LD_LIBRARY_PATH
expect_code 0 jaxprof top --format=csv --db="$tmp/other.sqlite" "$T"
expect_stdout_file "$tmp/top-dir"
expect_stderr_empty

test_case 'an archive names the library that could not be loaded'
expect_code 2 jaxprof list "$tmp/mlp.tar.gz"
expect_stdout_empty
expect_stderr_line "^jaxprof: list: cannot read archive '$tmp/mlp.tar.gz': $tmp/broken/$soname: "

test_case 'extract says the same'
expect_code 2 jaxprof extract --list-only "$tmp/mlp.tar.gz"
expect_stderr_line "^jaxprof: extract: cannot read archive '$tmp/mlp.tar.gz': $tmp/broken/$soname: "

test_case 'with the library found again, the archive reads as the folder'
unset LD_LIBRARY_PATH
expect_code 0 jaxprof top --format=csv "$tmp/mlp.tar.gz"
expect_stdout_file "$tmp/top-dir"
expect_stderr_empty
test_done
