#!/bin/sh
# view: serves the trace on 127.0.0.1 to real HTTP clients (Python's
# urllib and curl, proxies off; nothing but 127.0.0.1 is contacted): CORS
# for https://ui.perfetto.dev only (another Origin: 403), 404 elsewhere, the converted XSpace or
# the JSON file as is; port 9001 by default (issue 36.9), until SIGINT or
# SIGTERM, or after one GET with --once; an idle connection is dropped and
# blocks no other fetch (issue 37.5).
. "$(dirname "$0")/lib.sh"

T=$TESTDATA/jax-mlp
R0=$T/plugins/profile/2026_01_01_00_00_00
R1=$T/plugins/profile/2026_01_01_00_00_01
[ -f "$R1/testhost.xplane.pb" ] || fail "no $R1/testhost.xplane.pb"
cd "$tmp"

# The server in the background, killed if the test stops early.
pid=
stop_server() {
	if [ -n "$pid" ]; then
		kill "$pid" 2>/dev/null || :
		wait "$pid" 2>/dev/null || :
		pid=
	fi
}
trap 'stop_server; rm -rf "$tmp"' EXIT

# start_server ARGS...: runs jaxprof view ARGS in the background, stdout
# in $tmp/view.out, and waits (10 s at most) for its Open: line; sets
# $url (the trace's URL), $base (http://127.0.0.1:PORT) and $pid.
start_server() {
	# The background shell truncates view.out only when it gets to run:
	# remove the last server's first, so its Open: line is not read.
	rm -f "$tmp/view.out" "$tmp/view.err"
	: >"$tmp/view.out"
	"$JAXPROF" view "$@" >"$tmp/view.out" 2>"$tmp/view.err" &
	pid=$!
	i=0
	# The line after Open:, so that Open: is whole (a loaded machine
	# can show a line half written).
	while ! grep -q '^Serving until' "$tmp/view.out"; do
		kill -0 "$pid" 2>/dev/null || {
			cat "$tmp/view.err" >&2
			pid=
			fail "jaxprof view $* exited before its Open: line"
		}
		i=$((i + 1))
		[ $i -le 100 ] || fail "no Open: line after 10 s"
		sleep 0.1
	done
	url=$(sed -n 's|^Open: https://ui\.perfetto\.dev/#!/?url=||p' "$tmp/view.out")
	case $url in
	http://127.0.0.1:[0-9]*/?*) ;;
	*) fail "the Open: line holds no http://127.0.0.1:PORT/ URL: '$url'" ;;
	esac
	base=${url%/*}
}

# wait_exit WANT: the server exits with WANT within 5 s by itself.
wait_exit() {
	i=0
	while kill -0 "$pid" 2>/dev/null; do
		i=$((i + 1))
		[ $i -le 50 ] || fail "jaxprof view still runs after 5 s"
		sleep 0.1
	done
	if wait "$pid"; then rc=0; else rc=$?; fi
	pid=
	[ "$rc" -eq "$1" ] || fail "jaxprof view exited with $rc, expected $1"
}

# fetch METHOD URL [FILE]: one request to URL; prints the status and, one
# a line, the headers as "name: value" (names lower case); the body goes
# to FILE.  Proxies off, so the request goes to 127.0.0.1 only.
fetch() {
	"$PYTHON" - "$@" <<'PY'
import sys, urllib.error, urllib.request
method, url = sys.argv[1], sys.argv[2]
if not url.startswith("http://127.0.0.1:"):
    sys.exit("not a loopback URL: " + url)
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
try:
    r = opener.open(urllib.request.Request(url, method=method), timeout=10)
except urllib.error.HTTPError as e:
    r = e
body = r.read()
print(r.status)
for k, v in r.headers.items():
    print("%s: %s" % (k.lower(), v))
if len(sys.argv) > 3:
    open(sys.argv[3], "wb").write(body)
PY
}

# A free port: bind 0, read it, let it go (a race we accept).  Every server
# but the default-port case's gets one: other tests may hold 9001.
free_port() {
	"$PYTHON" -c '
import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

test_case 'usage errors and paths with nothing to serve: exit 2'
expect_code 2 jaxprof view --port=0 "$T"
expect_stdout_empty
expect_stderr_is "jaxprof: view: invalid --port '0' (expected a whole number from 1 to 65535)"
expect_code 2 jaxprof view
expect_stdout_empty
expect_stderr_match '^usage: jaxprof view '
mkdir empty
expect_code 2 jaxprof view empty
expect_stdout_empty
expect_stderr_is "jaxprof: view: no profiles found under 'empty'"
expect_code 2 jaxprof view --run=nope "$T"
expect_stdout_empty
expect_stderr_line "^jaxprof: view: "

python_has urllib.request json gzip || skip "no $PYTHON with urllib"

# What the XSpace of run 01 converts to, by extract.
jaxprof extract --to=chrome -o run01.json "$R1/testhost.xplane.pb" ||
    fail "cannot convert run 01"

test_case 'a folder: the newest run, its XSpace converted'
start_server --once --port="$(free_port)" "$T"
[ "${url##*/}" = trace.json.gz ] || fail "the URL is not .../trace.json.gz: $url"
grep -qx "Serving .*/2026_01_01_00_00_01/testhost\.xplane\.pb" "$tmp/view.out" ||
    fail "does not serve run 01's XSpace"

test_case 'the tensorboard --logdir line names the folder above plugins/'
grep -qx "Or:   tensorboard --logdir $T" "$tmp/view.out" ||
    { cat "$tmp/view.out" >&2; fail "no tensorboard --logdir $T line"; }

test_case 'OPTIONS: 204 with the CORS headers, for the Perfetto UI only'
fetch OPTIONS "$url" >got || fail "OPTIONS failed"
[ "$(head -n 1 got)" = 204 ] || fail "OPTIONS: status $(head -n 1 got)"
grep -qx 'access-control-allow-origin: https://ui\.perfetto\.dev' got ||
    fail "OPTIONS: no Access-Control-Allow-Origin: https://ui.perfetto.dev"
grep -q '^access-control-allow-methods: .*GET' got ||
    fail "OPTIONS: GET not allowed"

test_case 'GET of another path: 404, and it keeps serving'
fetch GET "$base/nope.json.gz" >got || fail "GET failed"
[ "$(head -n 1 got)" = 404 ] || fail "GET /nope.json.gz: status $(head -n 1 got)"
kill -0 "$pid" 2>/dev/null || fail "exited after a 404"

test_case 'GET of the trace: 200, the converted XSpace'
fetch GET "$url" body.gz >got || fail "GET failed"
[ "$(head -n 1 got)" = 200 ] || fail "GET: status $(head -n 1 got)"
grep -qx 'access-control-allow-origin: https://ui\.perfetto\.dev' got ||
    fail "GET: no Access-Control-Allow-Origin: https://ui.perfetto.dev"
grep -qx 'cache-control: no-cache' got || fail "GET: no Cache-Control: no-cache"
grep -qx "content-length: $(wc -c <body.gz)" got ||
    fail "GET: Content-Length is not the body's length"
n=$("$PYTHON" -c '
import gzip, json, sys
d = json.load(gzip.open(sys.argv[1], "rt"))
print(sum(1 for e in d["traceEvents"] if e.get("ph") == "X"))' body.gz) ||
    fail "the body is not gzip-compressed JSON"
[ "$n" -gt 0 ] || fail "no X events in the body"
gzip -dc body.gz >body.json || fail "gzip -d failed"
expect_files_equal run01.json body.json "the body is not extract --to=chrome's JSON"

test_case '... then, with --once, it exits 0 by itself'
wait_exit 0

test_case 'a JSON file is served as it is'
J=$R0/perfetto_trace.json.gz
start_server --once --port="$(free_port)" "$J"
[ "$url" = "$base/perfetto_trace.json.gz" ] ||
    fail "the URL does not end in the file name: $url"
fetch GET "$url" body >got || fail "GET failed"
[ "$(head -n 1 got)" = 200 ] || fail "GET: status $(head -n 1 got)"
expect_files_equal "$J" body "the body is not the file"
wait_exit 0

test_case '--run: that run of a folder'
start_server --run=2026_01_01_00_00_00 --port="$(free_port)" "$T"
grep -qx "Serving .*/2026_01_01_00_00_00/testhost\.xplane\.pb" "$tmp/view.out" ||
    fail "does not serve run 00's XSpace"
stop_server

test_case 'an XSpace outside plugins/profile/: no tensorboard line'
cp "$R0/testhost.xplane.pb" alone.xplane.pb
start_server --port="$(free_port)" alone.xplane.pb
if grep -q tensorboard "$tmp/view.out"; then
	fail "a tensorboard line for a file outside plugins/"
fi

test_case 'SIGINT: exits 0'
kill -INT "$pid"
wait_exit 0

test_case 'by default it serves until SIGTERM: two fetches (a reload)'
start_server --port="$(free_port)" "$J"
grep -qx 'Serving until Ctrl-C\.' "$tmp/view.out" ||
    fail "no 'Serving until Ctrl-C.' line"
for k in 1 2; do
	fetch GET "$url" body >got || fail "GET $k failed"
	[ "$(head -n 1 got)" = 200 ] || fail "GET $k: status $(head -n 1 got)"
	expect_files_equal "$J" body
done
sleep 0.5
kill -0 "$pid" 2>/dev/null || fail "exited after a GET"

if command -v curl >/dev/null 2>&1; then
	# curl URL HEADERS BODY [ARGS...]: one GET, proxies off.
	get() {
		u=$1 h=$2 b=$3
		shift 3
		curl -sS --noproxy '*' --max-time 10 -D "$h" -o "$b" "$@" "$u"
	}

	test_case 'curl: the CORS headers name https://ui.perfetto.dev, never *'
	get "$url" h1 b1 -H 'Origin: https://ui.perfetto.dev' ||
	    fail "curl GET failed"
	grep -qi '^access-control-allow-origin: https://ui\.perfetto\.dev.$' h1 ||
	    fail "no Access-Control-Allow-Origin: https://ui.perfetto.dev"
	get "$url" h2 b2 -H 'Origin: https://evil.example' ||
	    fail "curl GET failed"
	if grep -qi '^access-control-allow-origin: \*' h1 h2 ||
	    grep -qi '^access-control-allow-origin: https://evil' h2; then
		fail "another origin may read the trace"
	fi
	expect_files_equal "$J" b1
	# Another page gets no trace at all (t0441).
	grep -q '^HTTP/1\.1 403 ' h2 || fail "another origin is not refused"
	[ ! -s b2 ] || fail "another origin got a body"

	test_case 'curl: an idle connection does not block a fetch, and is dropped'
	# A client that connects and sends nothing, held open 20 s at most.
	"$PYTHON" -c '
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.settimeout(20)
t = time.time()
try:
    d = s.recv(1)
except socket.timeout:
    sys.exit("idle connection still open after 20 s")
print("%.1f" % (time.time() - t))' "${base##*:}" >idle.out 2>idle.err &
	idle=$!
	sleep 0.5
	get "$url" h3 b3 --max-time 3 ||
	    fail "a fetch beside an idle connection did not finish in 3 s"
	expect_files_equal "$J" b3
	wait "$idle" || { cat idle.err >&2; fail "the idle connection was not dropped"; }
	secs=$(cat idle.out)
	awk -v s="$secs" 'BEGIN { exit !(s >= 3 && s <= 10) }' ||
	    fail "the idle connection was dropped after $secs s, not about 5"
	kill -0 "$pid" 2>/dev/null || fail "exited after the idle connection"
else
	note_skip "the curl cases: no curl"
fi
kill -TERM "$pid"
wait_exit 0

test_case '--keep, as the default: serves after a GET'
start_server --keep --port="$(free_port)" "$J"
fetch GET "$url" body >got || fail "GET failed"
sleep 0.5
kill -0 "$pid" 2>/dev/null || fail "--keep exited after a GET"
kill -INT "$pid"
wait_exit 0

test_case '--port: the port asked for'
port=$(free_port)
start_server --port="$port" "$J"
[ "$base" = "http://127.0.0.1:$port" ] || fail "served at $base, not port $port"

test_case '--port already taken: exit 2, and what to do'
expect_code 2 jaxprof view --port="$port" "$J"
expect_stdout_empty
expect_stderr_line "^jaxprof: view: cannot listen on 127\.0\.0\.1:$port: the port is in use \(another jaxprof view, or trace_processor --httpd\?\); stop it, or choose another with --port=N$"

test_case 'port 9001 by default, the one the Perfetto UI may fetch from'
if "$PYTHON" -c '
import socket
s = socket.socket()
s.bind(("127.0.0.1", 9001))' 2>/dev/null; then
	stop_server
	start_server "$J"
	[ "$base" = "http://127.0.0.1:9001" ] || fail "served at $base, not 9001"
	fetch GET "$url" body >got || fail "GET failed"
	[ "$(head -n 1 got)" = 200 ] || fail "GET: status $(head -n 1 got)"
else
	note_skip "the default port: 9001 is in use here"
fi
stop_server

test_done
