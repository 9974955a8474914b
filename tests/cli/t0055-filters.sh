#!/bin/sh
# Filters: each command takes exactly the filters the README's table says,
# and a filter that matches nothing is exit 2 in every command, naming the
# filter and listing what there is.
. "$(dirname "$0")/lib.sh"

T=$TESTDATA/jax-mlp
RUNS="'2026_01_01_00_00_00', '2026_01_01_00_00_01'"

test_case "the README's filter table is what the commands accept"
# "| top, steps | yes | yes | yes | yes |" -> "top yes yes yes yes"
awk -F'|' '/^\| .* \| (yes|no) +\|/ {
	cmds = $2; sub(/ *\(.*/, "", cmds); gsub(/^ +| +$/, "", cmds)
	n = split(cmds, c, /, */)
	for (i = 1; i <= n; i++) {
		line = c[i]
		for (j = 3; j <= 6; j++) { v = $j; gsub(/ /, "", v); line = line "|" v }
		print line
	}
}' "$SRCDIR/README.md" >"$tmp/table"
[ "$(wc -l <"$tmp/table")" -eq 16 ] || fail "the README table names not 16 commands: $(cat "$tmp/table")"
while IFS='|' read -r cmd host device run latest; do
	for f in "--host=x:$host" "--device=x:$device" "--run=x:$run" "--latest:$latest"; do
		opt=${f%:*}
		want=$([ "${f##*:}" = yes ] && echo 0 || echo 2)
		# shellcheck disable=SC2086
		"$JAXPROF" $cmd "$opt" --help >"$out" 2>"$err" && got=0 || got=$?
		[ "$got" -eq "$want" ] ||
		    fail "jaxprof $cmd $opt --help exits $got; the README says ${f##*:}"
	done
done <"$tmp/table"

test_case '--run that matches nothing: exit 2, the runs listed, in every command that takes it'
for cmd in list top steps compile transfers idle summary "baseline save" view; do
	# shellcheck disable=SC2086
	expect_code 2 "$JAXPROF" $cmd --run=nope "$T"
	expect_stdout_empty
	expect_stderr_is "jaxprof: ${cmd%% *}: --run='nope' matches no run; runs found: $RUNS"
done
expect_code 2 jaxprof check --baseline="$TESTDATA/baselines/jax-mlp.json" \
    --run=nope "$T"
expect_stderr_is "jaxprof: check: --run='nope' matches no run; runs found: $RUNS"
expect_code 2 jaxprof diff --run=nope "$T" "$T"
expect_stderr_is "jaxprof: diff: --run='nope' matches no run; runs found: $RUNS"
expect_code 2 jaxprof extract --run=nope --list-only "$T"
expect_stderr_is "jaxprof: extract: --run='nope' matches no run; runs found: $RUNS"
expect_code 2 jaxprof extract --to=chrome -o "$tmp/x.json" --run=nope "$T"
expect_stderr_is "jaxprof: extract: --run='nope' matches no run; runs found: $RUNS"
expect_code 2 jaxprof export -o "$tmp/export" --run=nope "$T"
expect_stderr_is "jaxprof: export: --run='nope' matches no run; runs found: $RUNS"
[ ! -e "$tmp/export" ] || fail "export wrote '$tmp/export' for no run"

test_case '--host and --device that match nothing: exit 2, what there is listed'
for cmd in list top steps compile transfers idle summary; do
	expect_code 2 "$JAXPROF" $cmd --host=zzz "$T"
	expect_stdout_empty
	expect_stderr_is "jaxprof: $cmd: --host='zzz' matches no host; hosts found: 'testhost'"
done
for cmd in top steps compile transfers idle summary; do
	expect_code 2 "$JAXPROF" $cmd --device='GPU:*' "$T"
	expect_stdout_empty
	expect_stderr_is "jaxprof: $cmd: --device='GPU:*' matches no device; devices found: '/host:CPU'"
done

test_case 'a filter that matches something is no error'
expect_code 0 jaxprof top -n 1 --host='test*' --device=CPU --run='*01' "$T"
expect_stderr_empty

test_done
