#!/bin/sh
# Profiles packed in archives: list and top read a .tar.gz and a .zip of
# testdata/jax-mlp as they read the folder; extract writes the
# plugins/profile/<run>/ layout, with --run, --latest, --list-only, --force.
. "$(dirname "$0")/lib.sh"

T=$TESTDATA/jax-mlp
[ -d "$T" ] || fail "no $T"
python_has tarfile zipfile || skip "no $PYTHON with tarfile and zipfile"

# The archives, made with Python so the test needs no tar or zip tools;
# entries sorted, folders included, as "./plugins/..." in the tar.
"$PYTHON" - "$T" "$tmp" <<'PY' || fail "cannot make the archives"
import os, sys, tarfile, zipfile
src, tmp = sys.argv[1], sys.argv[2]
with tarfile.open(os.path.join(tmp, "mlp.tar.gz"), "w:gz") as t:
    t.add(src, arcname=".")
with zipfile.ZipFile(os.path.join(tmp, "mlp.zip"), "w",
                     zipfile.ZIP_DEFLATED) as z:
    for d, dirs, files in os.walk(src):
        dirs.sort()
        for f in sorted(files):
            p = os.path.join(d, f)
            z.write(p, os.path.relpath(p, src))
PY
cd "$tmp"

test_case 'list of the folder (the reference)'
expect_code 0 jaxprof list --format=csv "$T"
expect_stderr_empty
save list-dir

for a in mlp.tar.gz mlp.zip; do
	test_case "list $a is list of the folder"
	expect_code 0 jaxprof list --format=csv "$a"
	expect_stdout_file "$tmp/list-dir"
	expect_stderr_empty
done

test_case 'top of the folder (the reference)'
expect_code 0 jaxprof top --format=csv "$T"
expect_stderr_empty
save top-dir

for a in mlp.tar.gz mlp.zip; do
	test_case "top $a is top of the folder"
	expect_code 0 jaxprof top --format=csv "$a"
	expect_stdout_file "$tmp/top-dir"
	expect_stderr_empty
done

test_case 'an archive inside a folder is read too'
mkdir -p logs/sub
cp mlp.zip logs/sub/
expect_code 0 jaxprof top --format=csv logs
expect_stdout_file "$tmp/top-dir"
expect_stderr_empty

test_case '--list-only --format=csv'
expect_code 0 jaxprof extract --list-only --format=csv mlp.tar.gz
compare_golden list
expect_stderr_empty
save list-only

test_case '--list-only is the same for the zip and the folder'
expect_code 0 jaxprof extract --list-only --format=csv mlp.zip
expect_stdout_file "$tmp/list-only"
expect_code 0 jaxprof extract --list-only --format=csv "$T"
expect_stdout_file "$tmp/list-only"

test_case '--list-only writes nothing'
expect_code 0 jaxprof extract --list-only -o never mlp.tar.gz
[ ! -e never ] || fail "--list-only made the output folder"

# Which files a folder holds, one relative path per line.
files_of() {
	(cd "$1" && find . -type f | sort)
}

(cd "$T" && find . -type f | sort) >"$tmp/want-all"
for a in mlp.tar.gz mlp.zip; do
	test_case "extract $a"
	expect_code 0 jaxprof extract -o "out-$a" "$a"
	expect_stdout_empty
	expect_stderr_empty
	files_of "out-$a" >got
	expect_files_equal "$tmp/want-all" got "extract wrote other files"
	while read -r f; do
		cmp -s "$T/$f" "out-$a/$f" || fail "$f differs"
	done <"$tmp/want-all"
done

test_case 'extract a folder'
expect_code 0 jaxprof extract -o out-dir "$T"
expect_stderr_empty
files_of out-dir >got
expect_files_equal "$tmp/want-all" got

test_case 'an existing file without --force: exit 2, nothing written'
expect_code 2 jaxprof extract -o out-mlp.tar.gz mlp.zip
expect_stdout_empty
expect_stderr_match "^jaxprof: extract: refusing '.*/mlp\.zip/plugins/profile/2026_01_01_00_00_00/testhost\.xplane\.pb': 'out-mlp\.tar\.gz/plugins/profile/2026_01_01_00_00_00/testhost\.xplane\.pb' exists \(use --force to overwrite it\)$"
[ "$(grep -c . "$err")" -eq 6 ] || fail "expected one line per file"

test_case 'one existing file: refused before anything is written'
mkdir -p partial/plugins/profile/2026_01_01_00_00_01
echo keep >partial/plugins/profile/2026_01_01_00_00_01/testhost.xplane.pb
expect_code 2 jaxprof extract -o partial mlp.tar.gz
expect_stderr_line "'partial/plugins/profile/2026_01_01_00_00_01/testhost\.xplane\.pb' exists"
files_of partial >got
echo ./plugins/profile/2026_01_01_00_00_01/testhost.xplane.pb >want
expect_files_equal want got "a refused extraction wrote files"
[ "$(cat partial/plugins/profile/2026_01_01_00_00_01/testhost.xplane.pb)" = keep ] ||
    fail "the existing file was changed"

test_case '--force overwrites'
expect_code 0 jaxprof extract --force -o partial mlp.tar.gz
expect_stderr_empty
files_of partial >got
expect_files_equal "$tmp/want-all" got
cmp -s "$T/plugins/profile/2026_01_01_00_00_01/testhost.xplane.pb" \
    partial/plugins/profile/2026_01_01_00_00_01/testhost.xplane.pb ||
    fail "--force did not overwrite"

test_case '--run'
expect_code 0 jaxprof extract --run='*00' -o out-run mlp.zip
expect_stderr_empty
files_of out-run >got
grep '2026_01_01_00_00_00/' "$tmp/want-all" >want
expect_files_equal want got

test_case '--latest'
expect_code 0 jaxprof extract --latest -o out-latest mlp.tar.gz
expect_stderr_empty
files_of out-latest >got
grep '2026_01_01_00_00_01/' "$tmp/want-all" >want
expect_files_equal want got

test_case '--run matching nothing: exit 2'
expect_code 2 jaxprof extract --run=nope -o out-none mlp.tar.gz
expect_stdout_empty
expect_stderr_is "jaxprof: extract: --run='nope' matches no run; runs found: '2026_01_01_00_00_00', '2026_01_01_00_00_01'"
[ ! -e out-none ] || fail "made the output folder"

test_case 'no -o: usage error'
expect_code 2 jaxprof extract mlp.tar.gz
expect_stdout_empty
expect_stderr_is "jaxprof: extract: no output folder: give -o outdir, or --list-only"

test_case 'a corrupt archive: exit 2, named'
head -c 20000 mlp.tar.gz >cut.tar.gz
expect_code 2 jaxprof list cut.tar.gz
expect_stdout_empty
expect_stderr_match "cannot read archive '.*/cut\.tar\.gz'"
expect_code 2 jaxprof extract -o out-cut cut.tar.gz
expect_stderr_match "cannot read archive '.*/cut\.tar\.gz'"
[ ! -e out-cut ] || fail "made the output folder"

test_done
