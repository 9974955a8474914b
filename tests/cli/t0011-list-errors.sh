#!/bin/sh
# list on paths that hold no profile: exit 2, nothing on stdout, one message.
. "$(dirname "$0")/lib.sh"

mkdir "$tmp/empty" "$tmp/other" "$tmp/good"
echo 'not a profile' >"$tmp/other/notes.txt"
cp "$TESTDATA/jax-mlp/plugins/profile/2026_01_01_00_00_01/testhost.xplane.pb" \
    "$tmp/good/"

test_case 'an empty folder'
expect_code 2 jaxprof list "$tmp/empty"
expect_stdout_empty
expect_stderr_is "jaxprof: list: no profiles found under '$tmp/empty'"

test_case 'a missing path'
expect_code 2 jaxprof list "$tmp/missing"
expect_stdout_empty
expect_stderr_is "jaxprof: list: cannot read '$tmp/missing': No such file or directory"

test_case 'a folder with a file that is not a profile'
expect_code 2 jaxprof list "$tmp/other"
expect_stdout_empty
expect_stderr_is "jaxprof: list: no profiles found under '$tmp/other'"

test_case 'a relative path is quoted as given'
expect_code 2 sh -c 'cd "$1" && "$JAXPROF" list empty' sh "$tmp"
expect_stdout_empty
expect_stderr_is "jaxprof: list: no profiles found under 'empty'"

test_case 'one good and one missing path: each bad one is reported, exit 2'
expect_code 2 jaxprof list --format=csv "$tmp/good" "$tmp/missing" "$tmp/empty"
expect_stdout_empty
printf '%s\n' \
    "jaxprof: list: cannot read '$tmp/missing': No such file or directory" \
    "jaxprof: list: no profiles found under '$tmp/empty'" >"$tmp/want"
expect_files_equal "$tmp/want" "$err" "stderr is not the two messages"

test_case 'a path that is neither a folder nor a file'
if [ -e /dev/null ]; then
	expect_code 2 jaxprof list /dev/null
	expect_stdout_empty
	expect_stderr_is "jaxprof: list: '/dev/null' is not a regular file"
fi

test_case 'an unreadable folder'
mkdir "$tmp/locked"
cp "$tmp/good/testhost.xplane.pb" "$tmp/locked/"
chmod 000 "$tmp/locked"
if ls "$tmp/locked" >/dev/null 2>&1; then
	note_skip "the unreadable-folder case: running as root"
else
	expect_code 2 jaxprof list "$tmp/locked"
	expect_stdout_empty
	expect_stderr_is "jaxprof: list: cannot open directory '$tmp/locked': Permission denied"
fi
chmod 700 "$tmp/locked"

test_case 'the good folder alone works; its run is the folder name'
expect_code 0 jaxprof list --format=csv "$tmp/good"
expect_stderr_empty
expect_stdout_match '^good,testhost,testhost\.xplane\.pb,xplane,67133,3,517,CPU,'

test_case 'a tool output named on its own: what it is, exit 2'
mkdir -p "$tmp/tool/plugins/profile/r"
printf 'not a trace' >"$tmp/tool/plugins/profile/r/host.overview_page.pb"
for cmd in list top; do
	expect_code 2 jaxprof $cmd "$tmp/tool/plugins/profile/r/host.overview_page.pb"
	expect_stdout_empty
	expect_stderr_is "jaxprof: $cmd: '$tmp/tool/plugins/profile/r/host.overview_page.pb' is not a profile but a file tools write beside one (.overview_page.pb); name the run folder, or the .xplane.pb or .trace.json.gz in it"
done

test_case 'a host name with dots: the suffix a tool writes, not all after the first dot'
printf 'not a trace' >"$tmp/tool/plugins/profile/r/10.240.1.50.pod_viewer.json"
expect_code 2 jaxprof list "$tmp/tool/plugins/profile/r/10.240.1.50.pod_viewer.json"
expect_stdout_empty
expect_stderr_is "jaxprof: list: '$tmp/tool/plugins/profile/r/10.240.1.50.pod_viewer.json' is not a profile but a file tools write beside one (.pod_viewer.json); name the run folder, or the .xplane.pb or .trace.json.gz in it"

test_done
