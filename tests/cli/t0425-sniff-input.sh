#!/bin/sh
# A file named on the command line is read by what it holds (XSpace, trace
# JSON plain or gzip'd, archive), whatever its name; in folders the naming
# rules stay, and a file whose bytes do not match its name is described by
# what it looks like.
. "$(dirname "$0")/lib.sh"

T=$TESTDATA/jax-mlp
R=$T/plugins/profile/2026_01_01_00_00_00
cd "$tmp"

kinds() {	# the kind column of list --format=csv
	awk -F, 'NR > 1 { print $4 }' "$out" | sort | uniq -c |
	    awk '{ printf "%s:%s ", $2, $1 }'
}

test_case 'gzip trace JSON named warm.perfetto_trace.json.gz'
cp "$R/perfetto_trace.json.gz" warm.perfetto_trace.json.gz
expect_code 0 jaxprof list --format=csv warm.perfetto_trace.json.gz
expect_stderr_empty
[ "$(kinds)" = "trace-json:1 " ] || fail "not read as trace JSON: $(kinds)"
expect_code 0 jaxprof top --format=csv -n 1 warm.perfetto_trace.json.gz
expect_stderr_empty

test_case 'plain trace JSON named trace.dat'
gzip -dc "$R/testhost.trace.json.gz" >trace.dat
expect_code 0 jaxprof list --format=csv trace.dat
expect_stderr_empty
[ "$(kinds)" = "trace-json:1 " ] || fail "not read as trace JSON: $(kinds)"

test_case 'an XSpace named profile.bin, and gzip'"'"'d as profile.bin.gz'
cp "$R/testhost.xplane.pb" profile.bin
gzip -c profile.bin >profile.bin.gz
for f in profile.bin profile.bin.gz; do
	expect_code 0 jaxprof list --format=csv "$f"
	expect_stderr_empty
	[ "$(kinds)" = "xplane:1 " ] || fail "$f not read as an XSpace: $(kinds)"
done

test_case 'a tar.gz named profiles.bin is read as the archive it is'
mkdir -p a && cp -r "$T/plugins" a/
tar -czf profiles.bin -C a plugins
expect_code 0 jaxprof list --format=csv profiles.bin
expect_stderr_empty
[ "$(kinds)" = "trace-json:4 xplane:2 " ] || fail "not read as an archive: $(kinds)"

test_case 'in a folder the names decide, and a mismatch says what the file looks like'
mkdir -p f/plugins/profile/r1
cp "$R/perfetto_trace.json.gz" f/plugins/profile/r1/h.xplane.pb
expect_code 2 jaxprof list f
expect_stderr_line "^jaxprof: list: cannot read '.*/f/plugins/profile/r1/h\.xplane\.pb': .* \(its name says an XSpace, but it looks like gzip'd trace JSON\)$"

test_case 'and the other way round: an XSpace named .trace.json'
rm f/plugins/profile/r1/h.xplane.pb
cp "$R/testhost.xplane.pb" f/plugins/profile/r1/h.trace.json
expect_code 2 jaxprof list f
expect_stderr_line "^jaxprof: list: cannot read '.*/f/plugins/profile/r1/h\.trace\.json': .* \(its name says trace JSON, but it looks like an XSpace\)$"

test_case 'a baseline named base.data is still a baseline to diff'
expect_code 0 jaxprof baseline save -o base.data "$T"
expect_code 0 jaxprof diff --format=csv base.data "$T"
expect_stderr_empty

test_case 'a JSON string named on the command line is JSON, not an XSpace'
printf '"just a string"\n' >string.xplane.pb
expect_code 2 jaxprof list string.xplane.pb
expect_stderr_line "^jaxprof: list: cannot read '.*/string\.xplane\.pb': at byte [0-9]+: not a trace: the JSON text is not an object or an array$"

test_case 'a tar inside an archive, named inner.xplane.pb: it says what it looks like'
mkdir -p inner && echo hello >inner/x.txt
tar -cf inner.xplane.pb -C inner x.txt
tar -czf outer.tar.gz inner.xplane.pb
gzip -c inner.xplane.pb >inner.xplane.pb.gz
tar -cf outer-gz.tar inner.xplane.pb.gz
for f in outer.tar.gz/inner.xplane.pb outer-gz.tar/inner.xplane.pb.gz; do
	expect_code 2 jaxprof list "${f%%/*}"
	expect_stderr_line "^jaxprof: list: cannot read '.*/$f': .* \(its name says an XSpace, but it looks like an archive\)$"
done

test_done
