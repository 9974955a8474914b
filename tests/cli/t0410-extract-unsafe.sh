#!/bin/sh
# extract refuses hostile archives (crafted with Python's tarfile and
# zipfile) with exit 2 and a message naming the entry, and writes nothing:
# not outside OUTDIR, and not even inside it.
. "$(dirname "$0")/lib.sh"

X=$TESTDATA/jax-mlp/plugins/profile/2026_01_01_00_00_01/testhost.xplane.pb
[ -f "$X" ] || fail "no $X"
python_has tarfile zipfile || skip "no $PYTHON with tarfile and zipfile"

# Every archive holds a good profile first, then one bad entry.
"$PYTHON" - "$X" "$tmp" <<'PY' || fail "cannot make the archives"
import io, os, sys, tarfile, zipfile
xplane, tmp = sys.argv[1], sys.argv[2]
good = open(xplane, "rb").read()
GOOD = "plugins/profile/r1/host0.xplane.pb"

def tar(name, bad):
    with tarfile.open(os.path.join(tmp, name), "w") as t:
        i = tarfile.TarInfo(GOOD)
        i.size = len(good)
        t.addfile(i, io.BytesIO(good))
        if bad is not None:
            data = bad.pop("data", b"")
            i = tarfile.TarInfo(bad.pop("name"))
            for k, v in bad.items():
                setattr(i, k, v)
            if i.type == tarfile.REGTYPE:
                i.size = len(data)
            t.addfile(i, io.BytesIO(data))

def zipf(name, bad_name):
    with zipfile.ZipFile(os.path.join(tmp, name), "w") as z:
        z.writestr(GOOD, good)
        z.writestr(zipfile.ZipInfo(bad_name), b"evil")

tar("dotdot.tar", {"name": "../evil", "data": b"evil"})
tar("dotdot-deep.tar", {"name": "plugins/profile/r1/../../../evil.xplane.pb",
                        "data": b"evil"})
tar("abs.tar", {"name": "/abs/path", "data": b"evil"})
tar("symlink.tar", {"name": "plugins/profile/r1/passwd",
                    "type": tarfile.SYMTYPE, "linkname": "/etc/passwd"})
tar("symlink-up.tar", {"name": "plugins/profile/r1/up",
                       "type": tarfile.SYMTYPE, "linkname": "../../../.."})
tar("hardlink.tar", {"name": "plugins/profile/r1/hard.xplane.pb",
                     "type": tarfile.LNKTYPE, "linkname": "../../outside"})
tar("device.tar", {"name": "plugins/profile/r1/dev", "type": tarfile.CHRTYPE,
                   "devmajor": 1, "devminor": 3})
tar("fifo.tar", {"name": "fifo", "type": tarfile.FIFOTYPE})
tar("symlink-in.tar", {"name": "plugins/profile/r1/latest",
                       "type": tarfile.SYMTYPE, "linkname": "host0.xplane.pb"})
tar("good.tar", None)
zipf("dotdot.zip", "../zipevil.xplane.pb")
zipf("abs.zip", "/abs/zipevil")
PY
cd "$tmp"
mkdir work
W=$tmp/work

# refuse ARCHIVE ENTRY WHY: exit 2, the entry named, nothing written.
refuse() {
	a=$1
	entry=$2
	why=$3
	shift 3
	(cd "$W" && find . | sort) >"$tmp/before"
	expect_code 2 jaxprof extract -o "$W/out" "$@" "$tmp/$a"
	expect_stdout_empty
	expect_stderr_line "^jaxprof: extract: refusing '$tmp/$a': entry '$entry' $why"
	(cd "$W" && find . | sort) >"$tmp/after"
	expect_files_equal "$tmp/before" "$tmp/after" "files appeared in $W"
	[ ! -e "$W/out" ] || fail "the output folder was made"
	[ ! -e /abs ] || fail "/abs exists"
	for f in evil outside zipevil.xplane.pb; do
		[ ! -e "$tmp/$f" ] && [ ! -e "$W/$f" ] ||
		    fail "'$f' was written outside"
	done
}

test_case '../evil'
refuse dotdot.tar '\.\./evil' "has a '\.\.' component"
test_case 'a .. deep inside a profile path'
refuse dotdot-deep.tar 'plugins/profile/r1/\.\./\.\./\.\./evil\.xplane\.pb' \
    "has a '\.\.' component"
test_case '/abs/path'
refuse abs.tar '/abs/path' 'has an absolute path'
test_case 'a symlink to /etc/passwd'
refuse symlink.tar 'plugins/profile/r1/passwd' \
    "is a symbolic link pointing outside \('/etc/passwd'\)"
test_case 'a symlink climbing out'
refuse symlink-up.tar 'plugins/profile/r1/up' \
    'is a symbolic link pointing outside'
test_case 'a hardlink outside'
refuse hardlink.tar 'plugins/profile/r1/hard\.xplane\.pb' \
    "is a hard link pointing outside \('\.\./\.\./outside'\)"
test_case 'a device node'
refuse device.tar 'plugins/profile/r1/dev' 'is a device, fifo or socket'
test_case 'a fifo'
refuse fifo.tar 'fifo' 'is a device, fifo or socket'
test_case 'zip: ../'
refuse dotdot.zip '\.\./zipevil\.xplane\.pb' "has a '\.\.' component"
test_case 'zip: an absolute path'
refuse abs.zip '/abs/zipevil' 'has an absolute path'
test_case '--list-only refuses too'
refuse dotdot.tar '\.\./evil' "has a '\.\.' component" --list-only

test_case 'list still reads the good entry of a hostile archive'
expect_code 0 jaxprof list --format=csv "$tmp/dotdot.tar"
expect_stdout_match '^r1,host0,host0\.xplane\.pb,xplane,'
[ "$(grep -c . "$out")" -eq 2 ] || fail "expected one row"

test_case 'a symlink that stays inside is accepted, and not written'
expect_code 0 jaxprof extract -o "$W/in" "$tmp/symlink-in.tar"
expect_stderr_empty
(cd "$W/in" && find . | sort) >got
printf '%s\n' . ./plugins ./plugins/profile ./plugins/profile/r1 \
    ./plugins/profile/r1/host0.xplane.pb >want
expect_files_equal want got
rm -rf "$W/in"

size=$(wc -c <"$X" | tr -d ' ')
test_case 'over --max-bytes'
expect_code 2 jaxprof extract --max-bytes=1K -o "$W/out" "$tmp/good.tar"
expect_stdout_empty
expect_stderr_line "^jaxprof: extract: refusing '$tmp/good\.tar/plugins/profile/r1/host0\.xplane\.pb': $size bytes in all with it, over --max-bytes=1024$"
[ ! -e "$W/out" ] || fail "the output folder was made"

test_case 'exactly --max-bytes is fine'
expect_code 0 jaxprof extract --max-bytes="$size" -o "$W/out" "$tmp/good.tar"
expect_stderr_empty
rm -rf "$W/out"

for m in 1x -1 K 1KK ''; do
	test_case "--max-bytes='$m'"
	expect_code 2 jaxprof extract --max-bytes="$m" -o "$W/out" "$tmp/good.tar"
	expect_stdout_empty
	expect_stderr_is "jaxprof: extract: invalid --max-bytes '$m' (expected bytes, or a number with K, M or G)"
done

test_case 'an existing file without --force'
mkdir -p "$W/out/plugins/profile/r1"
echo keep >"$W/out/plugins/profile/r1/host0.xplane.pb"
expect_code 2 jaxprof extract -o "$W/out" "$tmp/good.tar"
expect_stdout_empty
expect_stderr_line "refusing '$tmp/good\.tar/plugins/profile/r1/host0\.xplane\.pb': '$W/out/plugins/profile/r1/host0\.xplane\.pb' exists \(use --force to overwrite it\)$"
[ "$(cat "$W/out/plugins/profile/r1/host0.xplane.pb")" = keep ] ||
    fail "the file was changed"

test_case 'a symlink in OUTDIR is replaced with --force, never followed'
echo secret >"$tmp/target"
rm "$W/out/plugins/profile/r1/host0.xplane.pb"
ln -s "$tmp/target" "$W/out/plugins/profile/r1/host0.xplane.pb"
expect_code 0 jaxprof extract --force -o "$W/out" "$tmp/good.tar"
expect_stderr_empty
[ "$(cat "$tmp/target")" = secret ] || fail "wrote through the symlink"
[ ! -L "$W/out/plugins/profile/r1/host0.xplane.pb" ] || fail "still a link"
cmp -s "$X" "$W/out/plugins/profile/r1/host0.xplane.pb" || fail "wrong bytes"

test_case 'a symlinked folder in OUTDIR: refused even with --force'
rm -rf "$W/out"
mkdir -p "$W/out/plugins" "$tmp/elsewhere"
ln -s "$tmp/elsewhere" "$W/out/plugins/profile"
expect_code 2 jaxprof extract --force -o "$W/out" "$tmp/good.tar"
expect_stderr_line "'$W/out/plugins/profile' is in the way and not a folder$"
[ -z "$(ls -A "$tmp/elsewhere")" ] || fail "wrote through the symlink"

test_done
