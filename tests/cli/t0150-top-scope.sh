#!/bin/sh
# top --group=scope (host annotation paths) and its --tree, on the
# committed CPU JAX profiles (testdata/README.md), and --group=framework-op
# on the TPU profile of the corpus ($CORPUS) when it is there.
. "$(dirname "$0")/lib.sh"

T=$TESTDATA/jax-mlp
TPU=$CORPUS/xprof/xprof/convert/test_xplanes/tpu_inference_2.xplane.pb

# The row of the csv in $out (or file $2) whose name is $1, as
# count,total_us.
scope_row() {
	awk -F, -v n="$1" 'NR > 1 && $2 == n { print $5 "," $6 }' "${2:-$out}"
}

test_case "run 1 --group=scope --format=csv: train;PjitFunction(train_step) 6 times"
expect_code 0 jaxprof top --group=scope -n 0 --format=csv --run='*00' "$T"
expect_stderr_empty
[ "$(head -n 1 "$out")" = \
    rank,name,module,category,count,total_us,self_us,avg_us,min_us,max_us,percent,cum_percent,gflops_per_s,gbps,source,flops,bytes_accessed,intensity,bound,roofline_pct,above_roof ] ||
    fail "top --group=scope has not the header expected"
[ "$(scope_row 'train;PjitFunction(train_step)' | cut -d, -f1)" = 6 ] ||
    fail "train;PjitFunction(train_step) is not there 6 times"
# README: each call is two nested PjitFunction events of the same name.
[ "$(scope_row 'train;PjitFunction(train_step);PjitFunction(train_step)' |
    cut -d, -f1)" = 6 ] ||
    fail "the nested PjitFunction(train_step) is not there 6 times"
[ "$(scope_row 'train;PjitFunction(normalize)' | cut -d, -f1)" = 6 ] ||
    fail "train;PjitFunction(normalize) is not there 6 times"
[ "$(scope_row 'eval_batch;PjitFunction(normalize)' | cut -d, -f1)" = 1 ] ||
    fail "eval_batch;PjitFunction(normalize) is not there once"
[ "$(scope_row 'train;PjitFunction(train_step);PjitFunction(train_step);backend_compile_and_load' |
    cut -d, -f1)" = 1 ] || fail "train_step is not compiled once inside its call"
[ "$(scope_row 'train;data_loading' | cut -d, -f1)" = 6 ] ||
    fail "train;data_loading is not there 6 times"
awk -F, 'NR > 1 && ($4 != "scope" || $7 - $6 > 0.0005) { exit 1 }' "$out" ||
    fail "a scope row is not category scope, or has more self than total time"
save scopes

test_case 'scope train: its total is the sum of the 6 train steps'
expect_code 0 jaxprof steps --format=csv --run='*00' "$T"
expect_stderr_empty
want=$(awk -F, 'NR > 1 { t += $7 } END { printf "6,%.3f", t }' "$out")
[ "$(scope_row train "$tmp/scopes")" = "$want" ] ||
    fail "scope train is $(scope_row train "$tmp/scopes"), not the steps' $want"

test_case '--tree -n 15 (golden)'
expect_code 0 jaxprof top --group=scope --tree -n 15 --run='*00' "$T"
compare_golden tree
expect_stderr_empty
expect_stdout_match "^Host annotation scopes as a tree: % is the share of all top-level scopes' time\.$"
expect_stdout_match '^ 1  train  '
expect_stdout_match '^ 2    PjitFunction\(train_step\)  '
expect_stdout_match '^ 3      PjitFunction\(train_step\)  '

test_case '--tree --format=csv: the flat list'"'"'s paths, as depth and parent_rank fields'
expect_code 0 jaxprof top --group=scope --tree -n 0 --format=csv --run='*00' "$T"
expect_stderr_empty
head -n 1 "$out" | grep -q ',source,flops,bytes_accessed,intensity,bound,roofline_pct,above_roof,depth,parent_rank$' ||
    fail "no depth and parent_rank columns"
# Names are not indented; each row's parent is ranked before it, one level
# up.  Rebuilt into ';'-paths, the rows are the flat list's (path, count,
# total).  No name here has a comma or a quote.
awk -F, 'NR > 1 {
	if ($2 ~ /^ /) exit 1
	if ($NF == "") { if ($(NF - 1) != 0) exit 1; path[$1] = $2 }
	else {
		if (!($NF in path) || depth[$NF] != $(NF - 1) - 1) exit 1
		path[$1] = path[$NF] ";" $2
	}
	depth[$1] = $(NF - 1)
	print path[$1] "," $5 "," $6
}' "$out" >"$tmp/paths" ||
    fail "a name indented, or a parent not ranked before one level up"
sort "$tmp/paths" >"$tmp/got"
awk -F, 'NR > 1 { print $2 "," $5 "," $6 }' "$tmp/scopes" | sort >"$tmp/want"
expect_files_equal "$tmp/want" "$tmp/got" "--tree rows rebuilt into paths are not the flat list"

test_case '--tree without --group=scope: exit 2'
expect_code 2 jaxprof top --tree "$T"
expect_stdout_empty
expect_stderr_match '--tree goes with --group=scope'
expect_code 2 jaxprof top --tree --group=module "$T"
expect_stdout_empty
expect_stderr_match '--tree goes with --group=scope'

test_case '--group=nonsense: exit 2'
expect_code 2 jaxprof top --group=nonsense "$T"
expect_stdout_empty

test_case '--group=framework-op on the TPU corpus profile'
if [ ! -f "$TPU" ]; then
	note_skip "--group=framework-op on $TPU (no corpus)"
	test_done
fi
expect_code 0 jaxprof top --group=framework-op -n 0 --format=csv "$TPU"
compare_golden tpu-framework-op
expect_stderr_empty
save fw
# Framework ops are the ops' tf_op paths, without the trailing ':'.
if grep -q ':,' "$out"; then
	fail "a framework op name ends in ':'"
fi
# The copies have no tf_op: each is its own, by its HLO name, as in xprof.
[ "$(awk -F, 'NR > 1 && NR < 10 { printf "%s;", $2 }' "$out")" = \
    'copy-done.4;copy-done.2;copy-done;copy-done.5;jit(f)/jit(main)/add;jit(_psum)/jit(main)/reduce_sum;jit(broadcast_in_dim)/jit(main)/broadcast_in_dim;copy-start.4;' ] ||
    fail "the framework ops are not the copies, add, reduce_sum, broadcast_in_dim"

test_case 'framework ops add up to the ops of --group=op'
expect_code 0 jaxprof top -n 0 --format=csv "$TPU"
expect_stderr_empty
sum() {
	awk -F, 'NR > 1 { n += $5; t += $6 } END { printf "%d,%.2f\n", n, t }' "$1"
}
[ "$(sum "$out")" = "$(sum "$tmp/fw")" ] ||
    fail "framework ops $(sum "$tmp/fw") are not the ops' $(sum "$out")"
# jit(f)/jit(main)/add: the three broadcast_add_fusion ops, 400 each.
[ "$(awk -F, 'NR > 1 && $2 ~ /^broadcast_add_fusion/ { n += $5 } END { print n }' "$out")" = \
    "$(awk -F, '$2 == "jit(f)/jit(main)/add" { print $5 }' "$tmp/fw")" ] ||
    fail "jit(f)/jit(main)/add is not the broadcast_add_fusion ops"

test_case 'no rate over near-zero durations: copy-start has no GB/s'
expect_code 0 jaxprof top --group=category --by=count --format=csv "$TPU"
expect_stderr_empty
# 2400 asynchronous copy-starts take 9 us in all: an issue stamp each.
gbps() {	# gbps CATEGORY: its count and GB/s, by the header's columns
	awk -F, -v cat="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
	    $2 == cat { print $c["count"] ":" $c["gbps"] }' "$out"
}
[ "$(gbps copy-start)" = "2400:" ] ||
    fail "copy-start shows a GB/s over 0.004 us per copy: $(gbps copy-start)"
[ "$(gbps 'loop fusion')" = "1200:1339.402" ] ||
    fail "loop fusion lost its GB/s: $(gbps 'loop fusion')"

test_done
