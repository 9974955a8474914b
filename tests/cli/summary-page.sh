# Sourced by the summary tests after lib.sh: check_page NAME PATH renders
# the summary page of PATH in headless Chromium to a screenshot, and
# checks the DOM Chromium built against the summary's JSON and the memory
# charts against `jaxprof memory`'s (summary-dom.py).  Without Chromium
# it says so and checks the page file instead.
CHROMIUM=${CHROMIUM:-$(command -v chromium 2>/dev/null || command -v chromium-browser 2>/dev/null || :)}

chromium_run() {
	rm -rf "$tmp/chromium-profile"
	mkdir "$tmp/chromium-profile"
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
	    --disable-quic --no-first-run --disable-background-networking \
	    --disable-component-update --disable-sync \
	    --user-data-dir="$tmp/chromium-profile" "$@" 2>"$tmp/chromium-err"
}

check_page() {
	test_case "$1: the page is one self-contained file under 2 MB"
	expect_code 0 jaxprof summary --format=html -o "$tmp/$1.html" "$2"
	expect_stderr_empty
	expect_stdout_empty
	size=$(wc -c <"$tmp/$1.html")
	[ "$size" -lt 2000000 ] || fail "$1.html is $size bytes"
	! grep -Eiq '(src|href)="?(https?:|//)|@import|url\((https?:|//)' \
	    "$tmp/$1.html" || fail "$1.html fetches something"
	expect_code 0 jaxprof summary --format=json "$2"
	save "$1.json"
	expect_code 0 jaxprof memory --format=json "$2"
	save "$1.memory.json"
	expect_code 0 jaxprof memory --group=timeline --format=json "$2"
	save "$1.timeline.json"
	set -- "$1" "$2" "$tmp/$1.json" "$tmp/$1.memory.json" \
	    "$tmp/$1.timeline.json"
	if [ -z "$CHROMIUM" ]; then
		note_skip "rendering $1.html: no chromium on PATH (apt-get install chromium)"
		"$PYTHON" "$CLI_DIR/summary-dom.py" "$tmp/$1.html" "$3" "$4" "$5" ||
		    fail "$1.html's charts do not match its json"
		return 0
	fi
	test_case "$1: Chromium renders the page, its charts are the json's"
	chromium_run --window-size=1150,2400 \
	    --screenshot="$tmp/$1.png" "file://$tmp/$1.html" >/dev/null ||
	    { cat "$tmp/chromium-err" >&2; fail "chromium --screenshot failed"; }
	[ "$(head -c 8 "$tmp/$1.png" | od -An -c | tr -d ' ')" = '211PNG\r\n032\n' ] ||
	    fail "no PNG screenshot of $1.html"
	chromium_run --dump-dom "file://$tmp/$1.html" >"$tmp/$1.dom" ||
	    { cat "$tmp/chromium-err" >&2; fail "chromium --dump-dom failed"; }
	grep -q 'data-chart="breakdown"' "$tmp/$1.dom" ||
	    fail "Chromium's DOM of $1.html has no chart"
	"$PYTHON" "$CLI_DIR/summary-dom.py" "$tmp/$1.dom" "$3" "$4" "$5" ||
	    fail "$1.html's charts, as Chromium built them, do not match its json"
}
