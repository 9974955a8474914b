#!/bin/sh
# Many small archive entries (issue 12, class 7): read in one pass over the
# archive, without a temporary file apiece, so that their number costs
# little more than reading them.
. "$(dirname "$0")/lib.sh"

# 2000 small XSpace entries (one hostname each) and 2000 other files.
mkdir -p "$tmp/a/plugins/profile/r"
i=0
while [ $i -lt 2000 ]; do
	printf '\042\001h' >"$tmp/a/plugins/profile/r/h$i.xplane.pb"
	printf 'x' >"$tmp/a/plugins/profile/r/h$i.overview_page.pb"
	i=$((i + 1))
done
(cd "$tmp/a" && tar -czf "$tmp/many.tar.gz" plugins)

test_case 'small entries need no temporary file'
# Before: a spool file per entry in $TMPDIR, so none could be read here.
expect_code 0 env TMPDIR="$tmp/no-such-dir" "$JAXPROF" list --format=csv "$tmp/many.tar.gz"
[ "$(grep -c ',xplane,' "$out")" -eq 2000 ] ||
    fail "$(grep -c ',xplane,' "$out") xplane rows, expected 2000"
expect_stderr_empty

test_case 'read once, then answered from the index'
expect_code 0 "$JAXPROF" list --format=csv "$tmp/many.tar.gz"
[ "$(grep -c ',xplane,' "$out")" -eq 2000 ] || fail "not 2000 xplane rows"
test_done
