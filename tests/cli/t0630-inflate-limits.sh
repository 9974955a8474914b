#!/bin/sh
# Decompression bombs and the one gzip policy (issue 12, classes 4 and 6;
# jaxprof(1), UNTRUSTED INPUT): limits on what compressed input inflates
# to, an XSpace refused on its first bytes, the same gzip errors for every
# reader.
. "$(dirname "$0")/lib.sh"

# 100 MB of zeros (sparse: no disk), a file and its gzip.
truncate -s 100M "$tmp/zeros" 2>/dev/null ||
    head -c 100000000 /dev/zero >"$tmp/zeros"

test_case 'a gzip XSpace of zeros is refused on its first bytes'
gzip -1 <"$tmp/zeros" >"$tmp/zeros.xplane.pb.gz"
# Inflating it all to the temporary file would pass this file size limit.
expect_code 2 sh -c 'ulimit -f 2000; exec "$@"' sh "$JAXPROF" top "$tmp/zeros.xplane.pb.gz"
expect_stderr_line "cannot read '.*zeros\.xplane\.pb\.gz': at byte 0: invalid field number 0 in XSpace$"

test_case 'a gzip XSpace that starts well, then zeros: the ratio limit'
{ printf '\042\001h\012\377\377\377\377\007'; cat "$tmp/zeros"; } |
    gzip -1 >"$tmp/bomb.xplane.pb.gz"
expect_code 2 jaxprof top "$tmp/bomb.xplane.pb.gz"
expect_stderr_line "cannot read '.*bomb\.xplane\.pb\.gz': inflates more than 200 times: [0-9]+ bytes from the first [0-9]+ \(a decompression bomb\? raise the limit with --max-inflate-ratio\)$"

test_case '--max-inflated: the absolute limit'
expect_code 2 jaxprof --max-inflated=1M --max-inflate-ratio=0 top "$tmp/bomb.xplane.pb.gz"
expect_stderr_line "inflates to more than 1048576 bytes \(the limit; raise it with --max-inflated\)$"

# Trace JSON in a folder of its own: beside an XSpace, that is read.
mkdir -p "$tmp/json"

test_case 'trace JSON of whitespace: the ratio limit'
{ printf '{"traceEvents":['; tr '\000' ' ' <"$tmp/zeros"; } |
    gzip -1 >"$tmp/json/bomb.trace.json.gz"
expect_code 2 jaxprof top "$tmp/json/bomb.trace.json.gz"
expect_stderr_line "cannot read '.*bomb\.trace\.json\.gz': inflates more than 200 times: "

test_case 'an archive entry of zeros: the ratio limit'
mkdir -p "$tmp/a/plugins/profile/r"
ln -s "$tmp/zeros" "$tmp/a/plugins/profile/r/h.xplane.pb"
(cd "$tmp/a" && tar -czhf "$tmp/bomb.tar.gz" plugins)
expect_code 2 jaxprof list "$tmp/bomb.tar.gz"
expect_stderr_match "entry 'plugins/profile/r/h\.xplane\.pb' of '.*bomb\.tar\.gz' inflates more than 200 times: "

test_case 'invalid limits'
expect_code 2 jaxprof --max-inflated=lots list "$tmp"
expect_stderr_is "jaxprof: invalid --max-inflated 'lots' (expected a size such as 64G)"
expect_code 2 jaxprof --max-inflate-ratio=-1 list "$tmp"
expect_stderr_is "jaxprof: invalid --max-inflate-ratio '-1' (expected a whole number from 0 to 1000000000)"

# One gzip policy: trailing bytes and a bad CRC, XSpace and JSON alike.
gen_xplane --gzip --steps=1 --ops=2 --devices=1 "$tmp/g" >/dev/null
x=$(find "$tmp/g" -name '*.xplane.pb.gz')
j=$tmp/j.trace.json.gz
cp "$TESTDATA/jax-mlp/plugins/profile/2026_01_01_00_00_01/testhost.trace.json.gz" "$j"
for f in "$x" "$j"; do
	size=$(wc -c <"$f")
	case $f in *.json.gz) g=$tmp/json/t.trace.json.gz ;; *) g=$tmp/t.xplane.pb.gz ;; esac
	test_case "trailing garbage: $(basename "$g")"
	{ cat "$f"; printf 'garbage'; } >"$g"
	expect_code 2 jaxprof top "$g"
	expect_stderr_line "cannot read '.*': trailing garbage after gzip data at byte $size$"
	test_case "bad CRC: $(basename "$g")"
	# The CRC is the 4 bytes before the last 4: change its first byte.
	cp "$f" "$g"
	b=$(od -An -tu1 -j $((size - 8)) -N 1 "$f")
	printf "\\$(printf %03o $(((b + 1) % 256)))" |
	    dd of="$g" bs=1 seek=$((size - 8)) conv=notrunc 2>/dev/null
	expect_code 2 jaxprof top "$g"
	expect_stderr_line "cannot read '.*': corrupt gzip data at byte $((size - 8)): incorrect data check$"
done
test_done
