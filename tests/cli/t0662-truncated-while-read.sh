#!/bin/sh
# A profile truncated while jaxprof reads it (cp or rsync --inplace over
# it) is an unreadable file, exit 2 naming it: never SIGBUS (exit 135)
# from the mapping that shrank under the parser's threads.
. "$(dirname "$0")/lib.sh"

[ -n "${GEN_XPLANE:-}" ] && [ -x "$GEN_XPLANE" ] ||
    fail "GEN_XPLANE is not set to the generator"
gen_xplane --repeat=1000 --steps=20 --devices=4 "$tmp/gen" ||
    fail "gen-xplane failed"
F=$(find "$tmp/gen" -name '*.xplane.pb')
cp "$F" "$tmp/whole.pb"

test_case 'truncated at a different moment of each run'
hits=0
for delay in 0.01 0.02 0.03 0.05 0.08 0.1 0.12 0.15 0.2 0.3; do
	cp "$tmp/whole.pb" "$F"
	rm -f "$tmp/t.sqlite"*
	jaxprof top --db="$tmp/t.sqlite" "$tmp/gen" >"$out" 2>"$err" &
	pid=$!
	sleep "$delay"
	: >"$F"
	rc=0
	wait "$pid" || rc=$?
	last_cmd="top, the file truncated after ${delay}s"
	case $rc in
	0)	continue ;;	# read whole before it was cut
	2)	expect_stderr_match "'$F'" ;;
	*)	fail "$last_cmd exited with $rc, expected 0 or 2" ;;
	esac
	if grep -q 'cut short (or could not be read) while it was being read' \
	    "$err"; then
		expect_stderr_line "^jaxprof: top: cannot read '$F': the file was cut short"
		hits=$((hits + 1))
	fi
done
echo "truncated while mapped in $hits runs"
[ "$hits" -gt 0 ] ||
    fail "no run was truncated while it read the file: nothing checked"

test_done
