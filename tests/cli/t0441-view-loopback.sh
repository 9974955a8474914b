#!/bin/sh
# view stays on loopback (issue 41.4): a port it cannot bind is exit 2
# with the reason (never listen()'s random port on every address); a
# request naming another Host (DNS rebinding) or coming from another
# page's Origin gets no trace; connections left idle cannot lock a fetch
# out; a file name with a space, '#' or '%' gets a link that works.  Every
# request goes to 127.0.0.1, each bounded in time.
. "$(dirname "$0")/lib.sh"

R0=$TESTDATA/jax-mlp/plugins/profile/2026_01_01_00_00_00
J=$R0/perfetto_trace.json.gz
[ -f "$J" ] || fail "no $J"
python_has socket urllib.parse || skip "no $PYTHON"
command -v curl >/dev/null 2>&1 || skip "no curl"
cd "$tmp"

pid=
stop_server() {
	if [ -n "$pid" ]; then
		kill "$pid" 2>/dev/null || :
		wait "$pid" 2>/dev/null || :
		pid=
	fi
}
trap 'stop_server; rm -rf "$tmp"' EXIT

free_port() {
	"$PYTHON" -c '
import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

# start_server ARGS...: jaxprof view ARGS in the background; waits 10 s
# at most for its Open: line and sets $link (the URL in it), $port, $pid.
start_server() {
	rm -f view.out view.err
	: >view.out
	"$JAXPROF" view "$@" >view.out 2>view.err &
	pid=$!
	i=0
	while ! grep -q '^Serving until' view.out; do
		kill -0 "$pid" 2>/dev/null ||
		    { cat view.err >&2; pid=; fail "view exited early"; }
		i=$((i + 1))
		[ $i -le 100 ] || fail "no Open: line after 10 s"
		sleep 0.1
	done
	link=$(sed -n 's|^Open: https://ui\.perfetto\.dev/#!/?url=||p' view.out)
	port=$(printf '%s\n' "$link" | sed -n 's|^http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p')
	[ -n "$port" ] || fail "no http://127.0.0.1:PORT/ in the Open: line"
}

# status URL [CURL ARGS...]: the HTTP status of a GET of URL, body in body.
status() {
	u=$1
	shift
	curl -s --noproxy '*' --max-time 5 -o body -w '%{http_code}' "$@" "$u"
}

test_case 'a port it may not bind: exit 2 with the reason, not a random port'
# Ports below ip_unprivileged_port_start are root's: run as nobody.
low=$(cat /proc/sys/net/ipv4/ip_unprivileged_port_start 2>/dev/null || echo 0)
as_nobody=
if [ "$(id -u)" -ne 0 ]; then
	as_nobody=" "
elif command -v setpriv >/dev/null 2>&1 &&
    setpriv --reuid=nobody --regid=nogroup --clear-groups true 2>/dev/null; then
	as_nobody="setpriv --reuid=nobody --regid=nogroup --clear-groups"
elif command -v runuser >/dev/null 2>&1 &&
    runuser -u nobody -- true 2>/dev/null; then
	as_nobody="runuser -u nobody --"
fi
if [ -n "$as_nobody" ] && [ "$low" -gt 80 ]; then
	mkdir pub
	cp "$J" pub/trace.json.gz
	chmod 755 "$tmp"
	chmod 777 pub	# its temporary folder goes here
	chmod 644 pub/trace.json.gz
	# shellcheck disable=SC2086
	expect_code 2 env TMPDIR="$tmp/pub" timeout 10 $as_nobody "$JAXPROF" \
	    view --port=80 pub/trace.json.gz
	expect_stdout_empty
	expect_stderr_is "jaxprof: view: cannot listen on 127.0.0.1:80: Permission denied"
else
	note_skip "the bind failure: no unprivileged user to run as, or port 80 is not privileged here (ip_unprivileged_port_start $low)"
fi

test_case 'a file name with a space, "#" and "%": the link works'
mkdir odd
cp "$J" 'odd/my trace#1%.json.gz'
start_server --port="$(free_port)" 'odd/my trace#1%.json.gz'
# The UI decodes the url= value once (a query value), then fetches it.
url=$("$PYTHON" -c 'import sys, urllib.parse; print(urllib.parse.unquote(sys.argv[1]))' "$link")
case $url in
"http://127.0.0.1:$port/my%20trace%231%25.json.gz") ;;
*) fail "the URL the UI fetches is '$url'" ;;
esac
[ "$(status "$url")" = 200 ] || fail "GET $url is not 200"
expect_files_equal "$J" body "the body is not the file"
[ "$(status "http://127.0.0.1:$port/my%20trace%231.json.gz")" = 404 ] ||
    fail "another name is served"

test_case 'another Host (DNS rebinding): 421 and no trace'
for h in "evil.example:$port" "localhost:$port" "127.0.0.1" \
    "127.0.0.1:$((port + 1))" "127.0.0.1:$port.evil.example"; do
	[ "$(status "$url" -H "Host: $h")" = 421 ] ||
	    fail "Host: $h is not refused with 421"
	[ ! -s body ] || fail "Host: $h got a body"
done
# raw HEADERS: the status of a GET of the trace with these header lines
# (\r\n-separated), sent as they are.
raw() {
	"$PYTHON" -c '
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
s.sendall(("GET /my%%20trace%%231%%25.json.gz HTTP/1.1\r\n%s\r\n\r\n"
           % sys.argv[2].replace(r"\r\n", "\r\n")).encode())
print(s.recv(64).split()[1].decode())' "$port" "$1"
}
[ "$(raw "Host: 127.0.0.1:$port")" = 200 ] || fail "a raw GET is not 200"
[ "$(raw "Host: 127.0.0.1:$port\r\nhost: evil.example")" = 421 ] ||
    fail "two Host headers are not refused"
[ "$(raw "Accept: */*")" = 421 ] || fail "no Host is not refused"
# A request sent after this one is not this one's headers.
[ "$(raw "Host: 127.0.0.1:$port\r\n\r\nGET / HTTP/1.1\r\nHost: evil.example")" = 200 ] ||
    fail "the headers of a request sent after it count"
[ "$(raw "Host: 127.0.0.1:$port\r\nOrigin: https://ui.perfetto.dev\r\nOrigin: http://evil.example")" = 403 ] ||
    fail "two Origin headers are not refused"
[ "$(status "$url" -X OPTIONS -H "Host: evil.example:$port")" = 421 ] ||
    fail "OPTIONS with another Host is not refused"

test_case "another page's Origin: 403 and no trace; the UI's: 200"
[ "$(status "$url" -H "Origin: http://evil.example:$port")" = 403 ] ||
    fail "Origin: http://evil.example is not refused with 403"
[ ! -s body ] || fail "a refused Origin got a body"
[ "$(status "$url" -H 'Origin: null')" = 403 ] || fail "Origin: null is not refused"
[ "$(status "$url" -H 'Origin: https://ui.perfetto.dev')" = 200 ] ||
    fail "the Perfetto UI's Origin is refused"
expect_files_equal "$J" body

test_case 'connections left idle do not lock a fetch out'
# 40 idle connections, more than the server's slots, held 30 s at most;
# a fetch made after them must finish in 3 s.
"$PYTHON" -c '
import socket, sys, time
port = int(sys.argv[1])
socks = [socket.create_connection(("127.0.0.1", port), timeout=5)
         for _ in range(40)]
print("open", flush=True)
time.sleep(float(sys.argv[2]))' "$port" 30 >idle.out 2>idle.err &
idle=$!
i=0
while ! grep -q open idle.out; do
	i=$((i + 1))
	[ $i -le 100 ] || { cat idle.err >&2; fail "cannot open idle connections"; }
	sleep 0.1
done
for k in 1 2 3; do
	[ "$(status "$url" --max-time 3)" = 200 ] ||
	    fail "fetch $k beside 40 idle connections did not get the trace in 3 s"
	expect_files_equal "$J" body
done
kill "$idle" 2>/dev/null || :
wait "$idle" 2>/dev/null || :
stop_server

test_done
