#!/bin/sh
# Every report fits the terminal it prints to: each command that reports
# to a person (top and its groups, steps, summary, diff, check, transfers,
# idle, memory, list, compile, hosts, sql, index, export), run in a
# pseudo-terminal 120 and 80 columns wide (as a person would): no line is
# longer, counted in characters; --wide keeps every column; COLUMNS wins
# over the terminal.
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

# at_terminal COLS ARGS...: jaxprof ARGS in a pty COLS wide, in $out
# (stdout and stderr: a person sees both).
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

# Every command that reports to a person, each of its tables and note
# lines: the arguments, shell-quoted, paths included.
T=$TESTDATA
REPORTS="top $P
top --group=category $P
top --group=module $P
top --group=kernel $P
top --group=framework-op $P
top --group=source $P
top --group=scope $P
top --group=scope --tree $P
top --fields=rank,name,what,precision,total,%,roof% $P
steps $P
steps --summary $P
steps --skew $P
summary $P
summary $T/jax-mlp
summary $T/multihost-straggler
diff $BASE $NEW
diff --summary $BASE $NEW
check --baseline=$BASE $NEW
check --baseline=$BASE --max-op-regression=1% --min-op-share=0.1% --max-compiles=0 $NEW
transfers $P
transfers --events $P
idle $P
memory $P
memory --group=allocation $P
memory --group=timeline $P
memory --group=program $P
memory --group=buffer $P
memory $T/jax-mlp
memory --group=program $T/jax-mlp
list $P
compile $P
compile --phases $P
hosts $T/multihost-even
hosts $T/multihost-straggler
sql 'SELECT name, framework_op, source, sum(total_ps) AS total FROM ops GROUP BY name' $P
index $P
export --to=ndjson -o $tmp/export $P"

expect_code 0 jaxprof top --db="$DB" "$P"	# index once
for cols in 120 80; do
	echo "$REPORTS" | while read -r cmd; do
		test_case "$cmd at $cols columns: no line longer"
		at_terminal "$cols" "$cmd"
		case $cmd in
		export*) ;;	# writes files, says nothing when all is well
		*) grep -q . "$out" || fail "no output" ;;
		esac
		! grep -q '^usage: \|: invalid \|did you mean' "$out" ||
		    fail "a usage error: $(head -n 3 "$out")"
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

test_case 'sql --wide: the columns a query asked for, however wide'
Q="'SELECT name, framework_op, source, source_function FROM ops'"
at_terminal 80 sql "$Q" "$P"
[ "$(longest)" -le 80 ] || fail "sql at 80 columns is $(longest) wide"
at_terminal 80 sql --wide "$Q" "$P"
[ "$(longest)" -gt 80 ] || fail "sql --wide is $(longest) columns"
! grep -q '^Left out' "$out" || fail "sql --wide left columns out"

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
