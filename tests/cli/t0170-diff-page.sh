#!/bin/sh
# diff --format=html -o FILE: a self-contained page for a pull request,
# rendered in headless Chromium, its numbers checked against diff's own
# csv and json (diff-dom.py): on the H200 pair without and with command
# buffers (the step slower, the ops not), on CPU-JAX profiles of
# make_gpu_profiles.py's "warm" and "slow" scenarios (slow adds
# extra_work: what is new is named by it), else on the testdata against
# its baseline.  Bad usage, and -o that cannot be written.
. "$(dirname "$0")/lib.sh"
. "$CLI_DIR/summary-page.sh"

# check_diff_page NAME BASE NEW: the page of BASE -> NEW against the csv.
check_diff_page() {
	test_case "$1: the page is one self-contained file"
	expect_code 0 jaxprof diff --format=html -o "$tmp/$1.html" "$2" "$3"
	expect_stdout_empty
	expect_stderr_empty
	size=$(wc -c <"$tmp/$1.html")
	[ "$size" -lt 2000000 ] || fail "$1.html is $size bytes"
	! grep -Eiq '(src|href)="?(https?:|//)|@import|url\((https?:|//)' \
	    "$tmp/$1.html" || fail "$1.html fetches something"
	expect_code 0 jaxprof diff -n 0 --format=csv "$2" "$3"
	save "$1.csv"
	expect_code 0 jaxprof diff --summary --format=json "$2" "$3"
	save "$1.json"
	page=$tmp/$1.html
	if [ -n "$CHROMIUM" ]; then
		test_case "$1: Chromium renders the page, its charts are diff's"
		chromium_run --window-size=1150,2400 \
		    --screenshot="$tmp/$1.png" "file://$tmp/$1.html" >/dev/null ||
		    { cat "$tmp/chromium-err" >&2; fail "chromium --screenshot failed"; }
		[ "$(head -c 8 "$tmp/$1.png" | od -An -c | tr -d ' ')" = '211PNG\r\n032\n' ] ||
		    fail "no PNG screenshot of $1.html"
		chromium_run --dump-dom "file://$tmp/$1.html" >"$tmp/$1.dom" ||
		    { cat "$tmp/chromium-err" >&2; fail "chromium --dump-dom failed"; }
		page=$tmp/$1.dom
	else
		note_skip "rendering $1.html: no chromium on PATH (apt-get install chromium)"
	fi
	grep -q 'data-chart="slower-source"' "$page" ||
	    fail "the page of $1 has no chart"
	"$PYTHON" "$CLI_DIR/diff-dom.py" "$page" "$tmp/$1.csv" "$tmp/$1.json" ||
	    fail "$1's page does not match diff's csv and json"
}

H=$CORPUS/h200
if [ -d "$H/cmdbuf-warm" ] && [ -d "$H/no-cmdbuf-warm" ]; then
	BASE=$H/no-cmdbuf-warm
	NEW=$H/cmdbuf-warm
	check_diff_page h200 "$BASE" "$NEW"

	test_case 'h200: the step 20% slower, the ops not: the headline says both'
	grep -q 'Median step:</b> 17.961 ms → 21.498 ms (+19.69%)\. Device time of the ops per step: 15.683 ms → 15.338 ms (-2.20%)\.' \
	    "$tmp/h200.html" || fail "the headline: $(grep -o 'id="headline".*' "$tmp/h200.html")"
	test_case 'h200: the memory peaks before and after'
	grep -q 'data-kind="allocator" data-name="GPU_0_bfc" data-base-bytes="[1-9][0-9]*" data-new-bytes="[1-9][0-9]*"' \
	    "$tmp/h200.html" || fail "no GPU_0_bfc peaks"
else
	note_skip "the H200 corpus ($H absent)"
	BASE=$TESTDATA/baselines/jax-mlp.json
	NEW=$TESTDATA/jax-mlp
	check_diff_page testdata "$BASE" "$NEW"
fi

test_case 'bad usage: html needs -o; counts and groups are not its'
expect_code 2 jaxprof diff --format=html "$BASE" "$NEW"
expect_stderr_is "jaxprof: diff: --format=html needs -o FILE"
expect_code 2 jaxprof diff --format=html --by=count -o "$tmp/x.html" "$BASE" "$NEW"
expect_stderr_is "jaxprof: diff: --format=html compares ops by time: no --by=count, --group or --summary"
expect_code 2 jaxprof diff --format=html --group=source -o "$tmp/x.html" "$BASE" "$NEW"
[ ! -e "$tmp/x.html" ] || fail "a refused run wrote x.html"
expect_code 2 jaxprof diff --format=bogus "$BASE" "$NEW"
expect_stderr_is "jaxprof: diff: invalid --format 'bogus' (choose from table, csv, json, markdown, html)"

test_case '-o: the last --format counts; a table to a file'
expect_code 0 jaxprof diff --format=html --format=csv -o "$tmp/t.csv" "$BASE" "$NEW"
expect_stdout_empty
head -n 1 "$tmp/t.csv" | grep -q '^name,base_name,' || fail "t.csv is not diff's csv"

test_case '-o: a file that cannot be written: exit 2, named (t0661: a full disk)'
expect_code 2 jaxprof diff --format=html -o "$tmp/no/such/dir/p.html" "$BASE" "$NEW"
expect_stderr_match "^jaxprof: diff: cannot write '$tmp/no/such/dir/p.html': No such file"
if [ -w /dev/full ]; then
	expect_code 2 jaxprof diff --format=html -o /dev/full "$BASE" "$NEW"
	expect_stderr_match "^jaxprof: diff: cannot write '/dev/full': No space left on device$"
fi

MAKE=${CORPUS%/corpus}/gpu/make_gpu_profiles.py
if [ ! -f "$MAKE" ]; then
	note_skip "no '$MAKE' to make the slow scenario"
elif ! python_has jax || ! python_has optax; then
	note_skip "the slow scenario: '$PYTHON' lacks jax or optax; $(install_hint jax)"
else
	test_case 'make_gpu_profiles.py --small writes warm and slow'
	expect_code 0 env JAX_PLATFORMS=cpu "$PYTHON" "$MAKE" "$tmp/gen" \
	    --small --only=slow,warm
	check_diff_page slow "$tmp/gen/warm" "$tmp/gen/slow"

	test_case 'slow: what is new is extra_work, by framework op and line'
	grep -q '<g class="row" data-name="[^"]*extra_work[^"]*"[^>]*data-added="[1-9]' \
	    "$tmp/slow.html" || fail "no new extra_work kind on the page"
	# The line of extra_work's longest new op, from the csv.
	line=$("$PYTHON" -c 'import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1]))
        if r["match"] == "added" and "extra_work" in r["framework_op"]]
print(max(rows, key=lambda r: float(r["new_total_us"]))["source"] if rows else "")' "$tmp/slow.csv")
	[ -n "$line" ] || fail "the csv adds no op of extra_work"
	grep -qF "data-name=\"$line\"" "$tmp/slow.html" ||
	    fail "extra_work's line $line is not on the page"
fi

test_done
