#!/bin/sh
# Every report fits the terminal it prints to: run in a pseudo-terminal 120
# and 80 columns wide (as a person would), no line is longer, counted in
# characters; --wide keeps every column; COLUMNS wins over the terminal.
. "$(dirname "$0")/lib.sh"

command -v script >/dev/null || skip "no script(1) to make a pseudo-terminal; apt-get install bsdutils"
command -v python3 >/dev/null || skip "no python3 to count characters"

H200=$CORPUS/h200
if [ -d "$H200/cmdbuf-train" ] && [ -d "$H200/no-cmdbuf-warm" ]; then
	P=$H200/cmdbuf-train
	BASE=$H200/no-cmdbuf-warm
	NEW=$H200/cmdbuf-warm
else
	note_skip "the H200 corpus ($H200 absent): testdata only"
	P=$TESTDATA/jax-mlp
	BASE=$TESTDATA/baselines/jax-mlp.json
	NEW=$P
fi
DB=$tmp/idx.sqlite

# at_terminal COLS ARGS...: jaxprof ARGS in a pty COLS wide, in $out.
at_terminal() {
	cols=$1
	shift
	last_cmd="jaxprof $* (at a $cols-column terminal)"
	script -qec "stty cols $cols rows 50; unset COLUMNS; \
	    \"$JAXPROF\" $* --db=\"$DB\"" /dev/null </dev/null | tr -d '\r' >"$out"
}

# longest: the longest line of $out, in characters.
longest() {
	python3 -c 'import sys
print(max([len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8")] or [0]))' "$out"
}

REPORTS="top
top --group=category
top --group=module
top --group=kernel
top --group=framework-op
top --group=source
top --group=scope
top --group=scope --tree
steps
summary
diff $BASE $NEW
check --baseline=$BASE $NEW
transfers
transfers --events
idle
memory
memory --group=allocation
memory --group=timeline
memory --group=program
memory --group=buffer
list
compile"

expect_code 0 jaxprof top --db="$DB" "$P"	# index once
for cols in 120 80; do
	echo "$REPORTS" | while read -r cmd; do
		test_case "$cmd at $cols columns: no line longer"
		case $cmd in
		diff*|check*) at_terminal "$cols" $cmd ;;
		*) at_terminal "$cols" $cmd "$P" ;;
		esac
		grep -q . "$out" || fail "no output"
		! grep -q '^usage: ' "$out" || fail "a usage error"
		n=$(longest)
		[ "$n" -le "$cols" ] || fail "a line of $n characters"
	done || exit 1
done

test_case 'top at 80 columns says what it left out, and how to see it'
at_terminal 80 top "$P"
expect_stdout_match '^Left out to fit 80 columns: '
expect_stdout_match '(^| )--wide shows them\.$'

test_case '--wide: every column that has a value, wider than the terminal'
at_terminal 80 top --wide "$P"
[ "$(longest)" -gt 120 ] || fail "--wide is $(longest) columns"
! grep -q '^Left out' "$out" || fail "--wide left columns out"

test_case 'COLUMNS=100 wins over the terminal 120 wide'
script -qec "stty cols 120 rows 50; COLUMNS=100 \"$JAXPROF\" top --db=\"$DB\" \"$P\"" \
    /dev/null </dev/null | tr -d '\r' >"$out"
n=$(longest)
[ "$n" -le 100 ] || fail "a line of $n characters"
expect_stdout_match '^Left out to fit 100 columns: '

test_case 'piped, the table keeps every column with a value'
expect_code 0 env COLUMNS=80 "$JAXPROF" top --db="$DB" "$P"
[ "$(longest)" -gt 120 ] || fail "piped top is $(longest) columns"
! grep -q '^Left out' "$out" || fail "piped output left columns out"

test_done
